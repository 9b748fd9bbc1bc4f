// The bubble's palette comes from its stylesheets: the built pages carry them as text (no request: scripts/bundle.mjs),
// so the first draw already has them; a stylesheet that arrives late (the unbundled sources link theirs) triggers a
// repaint in the palette (widgets/bubble/element.js), not the black of unresolved colours.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';

import { useSite, widgetReady } from './harness.mjs';

const site = useSite(before, after);

test('the bubble paints in its palette at once: no widget sheet to wait for', async () => {
  const context = await site().browser.newContext({ viewport: { width: 1000, height: 900 }, colorScheme: 'light' });
  let delayed = 0;
  await context.route(/\/(css\/widget|widgets\/[a-z]+\/[a-z]+)(-[A-Z2-7]{8})?\.css$/, async (route) => {
    delayed += 1;
    await new Promise((resolve) => { setTimeout(resolve, 1500); });
    await route.continue();
  });
  const page = await context.newPage();
  await page.goto(new URL('tests/themes.html', site().url).href);
  const widget = await widgetReady(page, '#auto');
  await page.waitForTimeout(300);
  // The last stage waits for its first op: the plot's left edge on that row is bubble (idle) hatch on a light ground.
  const brightest = await widget.evaluate((el) => {
    const canvas = el.shadowRoot.querySelector('canvas');
    const ctx = canvas.getContext('2d');
    const rows = 4;
    const plotH = canvas.height - 20 * (globalThis.devicePixelRatio || 1);
    const y = Math.floor(plotH * (rows - 0.5) / rows);
    const { data } = ctx.getImageData(0, y, 12, 1);
    let best = 0;
    for (let i = 0; i < data.length; i += 4) best = Math.max(best, data[i] + data[i + 1] + data[i + 2]);
    return best;
  });
  assert.equal(delayed, 0, 'no widget stylesheet requested');
  assert.ok(brightest > 450, `the idle hatch is drawn in the light palette (brightest pixel sum ${brightest})`);
  await context.close();
});

// Before widget.css applies, the plot has no height of its own and wraps the canvas: sizing the canvas to the plot grew
// both a few px a frame, and each step raised "ResizeObserver loop completed with undelivered notifications" (WebKit
// reports it as a page error; CI saw it on the iframe route).
test('the bubble does not grow or loop its ResizeObserver while widget.css is late (embed.html)', async () => {
  const context = await site().browser.newContext({ viewport: { width: 1000, height: 900 }, colorScheme: 'light' });
  await context.route(/\/(css\/widget|widgets\/[a-z]+\/[a-z]+)(-[A-Z2-7]{8})?\.css$/, async (route) => {
    await new Promise((resolve) => { setTimeout(resolve, 1200); });
    await route.continue();
  });
  const page = await context.newPage();
  await page.addInitScript(() => {
    window.__errors = [];
    window.addEventListener('error', (e) => window.__errors.push(e.message));
  });
  await page.goto(new URL('embed.html#widget=bubble', site().url).href);
  const plotHeight = () => page.evaluate(() => document.querySelector('parascope-bubble')?.shadowRoot
    ?.querySelector('.bubble-plot')?.clientHeight ?? null);
  const early = [];
  for (let i = 0; i < 6; i += 1) {
    await page.waitForTimeout(120);
    early.push(await plotHeight());
  }
  await widgetReady(page, 'parascope-bubble');
  await page.waitForFunction(() => [...document.querySelector('parascope-bubble').shadowRoot.querySelectorAll('link[rel="stylesheet"]')]
    .every((l) => l.sheet));
  await page.waitForTimeout(300);
  const settled = await plotHeight();
  const seen = early.filter((h) => h != null);
  assert.ok(seen.length > 0 && seen.every((h) => h === seen[0]), `the plot kept its height before the sheet: ${early}`);
  assert.equal(settled, 296, 'the plot has its styled height once the sheet applies');
  const canvasHeight = await page.evaluate(() => document.querySelector('parascope-bubble').shadowRoot.querySelector('canvas').clientHeight);
  assert.equal(canvasHeight, settled, 'the chart is drawn at the styled size');
  assert.deepEqual(await page.evaluate(() => window.__errors), []);
  await context.close();
});
