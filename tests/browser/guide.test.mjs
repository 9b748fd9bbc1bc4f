// The embed guide in headless Chromium: every live example beside its snippet renders (the iframe one sized by the
// snippet's script), each HTML snippet is the live example's own markup, the attribute table has a row for every
// attribute in lib/model/attributes.js, and the article links to the guide.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';

import { attributeRows } from '../../web/lib/model/attribute-docs.js';
import { nodeEngine } from '../js/node-engine.mjs';
import { openPage, useSite } from './harness.mjs';

const site = useSite(before, after);
const engine = await nodeEngine();

test('every example on the guide renders live, and the table lists every attribute', async () => {
  const { page, problems, context } = await openPage(site(), 'guide.html', { width: 1000 });
  const lives = await page.locator('[data-live]').evaluateAll((els) => els.map((e) => e.dataset.live));
  assert.deepEqual(lives, ['html', 'hugo', 'jekyll', 'astro', 'iframe']);
  for (const name of lives.filter((n) => n !== 'iframe')) {
    const figure = page.locator(`[data-live="${name}"] > *`);
    await figure.scrollIntoViewIfNeeded();
    await page.waitForFunction((n) => document.querySelector(`[data-live="${n}"] > *`)?.hasAttribute('data-ready'), name);
    assert.equal(await figure.locator('.note').count(), 0, `${name}: no note, its attributes are valid`);
  }
  const frame = page.locator('[data-live="iframe"] iframe');
  await frame.scrollIntoViewIfNeeded();
  await page.frameLocator('[data-live="iframe"] iframe').locator('parascope-bubble[data-ready]').waitFor();
  await page.waitForFunction(() => {
    const f = document.querySelector('[data-live="iframe"] iframe');
    return f.style.height && Math.abs(parseFloat(f.style.height) - f.contentDocument.documentElement.getBoundingClientRect().height) < 1;
  });
  assert.equal(await page.locator('code[data-snippet="html"]').textContent(),
    '<parascope-bubble stages="8" microbatches="32" schedule="1f1b"></parascope-bubble>');
  assert.match(await page.locator('code[data-snippet="iframe"]').textContent(), /^<iframe src="embed\.html#widget=bubble&amp;stages=8/);
  assert.match(await page.locator('code[data-snippet="embed-size"]').textContent(), /parascope:height/);
  await page.waitForFunction(() => document.querySelector('[data-out="attribute-table"]').dataset.rows);
  const rows = await page.locator('[data-out="attribute-table"] tbody tr').evaluateAll((trs) =>
    trs.map((tr) => [...tr.cells].map((c) => c.textContent)));
  const wanted = attributeRows(engine.call({ op: 'presets' })).map(([el, ...rest]) => [`<${el}>`, ...rest]);
  assert.deepEqual(rows, wanted);
  assert.deepEqual(problems, []);
  await context.close();
});

test('the article links to the guide from its contents', async () => {
  const { page, context } = await openPage(site(), '');
  assert.equal(await page.locator('nav.toc a[href="guide.html"]').count(), 1);
  await context.close();
});
