// What every integration site must show in Chromium: every figure (web/widgets/index.js) drawn with engine numbers, a control that
// changes one of them (the bubble's stages slider), the planner's search answered in its worker, the SVG and PNG
// exports downloaded, and no console error, page error or failed request on the way.
import assert from 'node:assert/strict';
import { chromium } from 'playwright-core';

import { FIGURES } from '../../web/widgets/index.js';

export const TAGS = FIGURES.map((f) => f.tag);

/** Debian's Chromium, as tests/browser/harness.mjs starts it. */
export function launch() {
  return chromium.launch({
    executablePath: '/usr/bin/chromium',
    headless: true,
    args: ['--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run'],
  });
}

/** Each figure's engine numbers (numeric data-value in its shadow root) and any broken-number text. */
function shown(tags) {
  return tags.map((tag) => {
    const root = document.querySelector(tag)?.shadowRoot;
    const values = [...(root?.querySelectorAll('[data-value]') ?? [])].map((el) => el.dataset.value);
    return {
      tag,
      ready: document.querySelector(tag)?.hasAttribute('data-ready') ?? false,
      numbers: values.filter((v) => v !== '' && Number.isFinite(Number(v))).length,
      broken: (root?.textContent.match(/\b(NaN|undefined)\b/g) ?? []).join(', '),
    };
  });
}

const efficiency = () =>
  document.querySelector('parascope-bubble').shadowRoot.querySelector('[data-out="efficiency"]')?.dataset.value ?? null;

/** The planner's best MFU once its search (in the worker) has finished, else null. */
const planned = () => {
  const el = document.querySelector('parascope-planner');
  if (!el.hasAttribute('data-results') || el.hasAttribute('data-searching')) return null;
  return el.shadowRoot.querySelector('tbody .col-mfu[data-value]')?.dataset.value ?? null;
};

function moveStages() {
  const el = document.querySelector('parascope-bubble').shadowRoot.querySelector('input[name="stages"]');
  const min = Number(el.min || 0);
  el.value = String(Number(el.value) === min ? min + 1 : min);
  el.dispatchEvent(new Event('input', { bubbles: true }));
  el.dispatchEvent(new Event('change', { bubbles: true }));
}

/** Opens `url`, checks the figures as the top of this file says; returns what was seen (for messages). */
export async function checkFigures(browser, url) {
  const context = await browser.newContext({ viewport: { width: 1100, height: 900 }, acceptDownloads: true });
  const page = await context.newPage();
  const problems = [];
  page.on('console', (m) => m.type() === 'error' && problems.push(`console: ${m.text()}`));
  page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
  page.on('requestfailed', (r) => problems.push(`failed: ${r.url()} (${r.failure()?.errorText})`));
  page.on('response', (r) => r.status() >= 400 && problems.push(`${r.status()}: ${r.url()}`));
  try {
    await page.goto(url);
    for (const tag of TAGS) {
      await page.locator(tag).scrollIntoViewIfNeeded();
      await page
        .waitForFunction((t) => document.querySelector(t)?.matches('[data-ready], [data-failed]'), tag, {
          timeout: 30_000,
        })
        .catch(() => {});
    }
    // The planner draws its numbers once its search (in the worker) has answered.
    await page.waitForFunction(planned, null, { timeout: 60_000 }).catch(() => {});
    const figures = await page.evaluate(shown, TAGS);
    for (const f of figures) {
      assert.ok(f.ready, `${f.tag} drew (${problems.join('; ') || 'no error seen'})`);
      assert.ok(f.numbers > 0, `${f.tag} shows engine numbers`);
      assert.equal(f.broken, '', `${f.tag} shows no broken number`);
    }
    const before = await page.evaluate(efficiency);
    await page.evaluate(moveStages);
    await page.waitForFunction(
      (b) => {
        const v = document.querySelector('parascope-bubble').shadowRoot.querySelector('[data-out="efficiency"]');
        return v && v.dataset.value !== b;
      },
      before,
      { timeout: 15_000 },
    );
    await page.locator('parascope-planner').scrollIntoViewIfNeeded();
    await page.waitForFunction(planned, null, { timeout: 60_000 });
    const files = {};
    for (const format of ['svg', 'png']) {
      const [download] = await Promise.all([
        page.waitForEvent('download', { timeout: 20_000 }),
        page.locator(`parascope-bubble button[name="download-${format}"]`).click(),
      ]);
      const stream = await download.createReadStream();
      let bytes = 0;
      for await (const chunk of stream) bytes += chunk.length;
      files[format] = bytes;
      assert.ok(bytes > 100, `the ${format} export has content (${bytes} bytes)`);
    }
    assert.deepEqual(problems, [], 'no console error, page error or failed request');
    return { figures, files };
  } finally {
    await context.close();
  }
}
