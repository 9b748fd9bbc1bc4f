// <parascope-ring> in headless Chromium: every round of N = 4 shows the engine's buffers and ends with the sum on
// every GPU; keyboard stepping and play; the cost panel and chart show the engine's numbers.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';

import { seconds } from '../../web/lib/format.js';
import { nodeEngine } from '../js/node-engine.mjs';
import { SCREENSHOTS, openPage, useSite, widgetReady } from './harness.mjs';

const engine = await nodeEngine();
const site = useSite(before, after);

const ringRequest = (gpus, extra = {}) => ({ op: 'allreduce', algorithm: 'ring', gpus, bytes: 2 ** 30, link: 'h100-sxm',
  link_kind: 'intra', ...extra });

/** The values the widget shows, as buffers[gpu][chunk] numbers. */
async function shownBuffers(widget, n) {
  const cells = await widget.locator('.ring-cell').evaluateAll((els) =>
    els.map((el) => ({ g: Number(el.dataset.gpu), c: Number(el.dataset.chunk), text: el.textContent })));
  const out = Array.from({ length: n }, () => Array(n).fill(null));
  for (const { g, c, text } of cells) out[g][c] = Number(text);
  return out;
}

const status = (widget) => widget.locator('[data-out="status"]');

test('stepping through all 2(N-1) rounds for N = 4 shows the engine trace and ends with the sum on every GPU', async () => {
  const { page, problems, context } = await openPage(site());
  await page.emulateMedia({ reducedMotion: 'reduce' });
  const widget = await widgetReady(page, 'parascope-ring');
  const trace = engine.call(ringRequest(4, { trace: true }));
  assert.equal(trace.rounds.length, 6);
  assert.deepEqual(await shownBuffers(widget, 4), trace.initial);
  for (let k = 1; k <= 6; k += 1) {
    await widget.locator('button[name="forward"]').click();
    assert.equal(await status(widget).getAttribute('data-round'), String(k));
    assert.deepEqual(await shownBuffers(widget, 4), trace.rounds[k - 1].buffers, `after round ${k}`);
    if (k === 2) assert.match(await status(widget).textContent(), /^scatter-reduce, round 2 of 3/);
    if (k === 4) assert.match(await status(widget).textContent(), /^all-gather, round 1 of 3/);
  }
  // Every GPU shows the sum of what the four GPUs started with, chunk by chunk.
  const sums = [0, 1, 2, 3].map((c) => trace.initial.reduce((s, row) => s + row[c], 0));
  assert.deepEqual(sums, [10, 14, 18, 22]);
  assert.deepEqual(await shownBuffers(widget, 4), [sums, sums, sums, sums]);
  assert.match(await status(widget).textContent(), /every GPU holds the full sum/);
  assert.ok(await widget.locator('button[name="forward"]').isDisabled());
  assert.equal(await widget.locator('.ring-cell.done').count(), 16);
  await widget.screenshot({ path: new URL('ring-done.png', SCREENSHOTS).pathname });
  assert.deepEqual(problems, []);
  await context.close();
});

test('a step with motion sends one chunk per GPU along the arc, then the receivers add it in', async () => {
  const { page, problems, context } = await openPage(site());
  const widget = await widgetReady(page, 'parascope-ring');
  await widget.locator('button[name="forward"]').click();
  await page.waitForFunction(() =>
    document.querySelector('parascope-ring').shadowRoot.querySelectorAll('.ring-packet').length === 4);
  await widget.screenshot({ path: new URL('ring-moving.png', SCREENSHOTS).pathname });
  await page.waitForFunction(() =>
    document.querySelector('parascope-ring').shadowRoot.querySelector('[data-out="status"]').dataset.round === '1');
  assert.equal(await widget.locator('.ring-packet').count(), 0);
  assert.equal(await widget.locator('.ring-cell.added').count(), 4);
  assert.deepEqual(await shownBuffers(widget, 4), engine.call(ringRequest(4, { trace: true })).rounds[0].buffers);
  assert.deepEqual(problems, []);
  await context.close();
});

test('arrow keys step, space plays to the end', async () => {
  const { page, problems, context } = await openPage(site());
  await page.emulateMedia({ reducedMotion: 'reduce' });
  const widget = await widgetReady(page, 'parascope-ring');
  await widget.locator('select[name="speed"]').selectOption('4');
  await widget.locator('.ring-stage').focus();
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('ArrowLeft');
  assert.equal(await status(widget).getAttribute('data-round'), '1');
  await widget.locator('.ring-stage').focus();
  await page.keyboard.press(' ');
  assert.equal(await widget.locator('button[name="play"]').getAttribute('aria-pressed'), 'true');
  await page.waitForFunction(() =>
    document.querySelector('parascope-ring').shadowRoot.querySelector('[data-out="status"]').dataset.round === '6',
  null, { timeout: 5000 });
  await page.waitForFunction(() =>
    document.querySelector('parascope-ring').shadowRoot.querySelector('button[name="play"]').getAttribute('aria-pressed') === 'false');
  assert.deepEqual(problems, []);
  await context.close();
});

test('the cost panel and the chart show the engine numbers for the chosen link', async () => {
  const { page, problems, context } = await openPage(site());
  const widget = await widgetReady(page, 'parascope-ring');
  const intra = engine.call(ringRequest(4));
  assert.equal(Number(await widget.locator('[data-out="time"]').getAttribute('data-value')), intra.time);
  assert.equal(Number(await widget.locator('[data-out="busbw"]').getAttribute('data-value')), intra.busbw);
  assert.equal(Number(await widget.locator('[data-out="bytes-per-gpu"]').getAttribute('data-value')), intra.bytes_sent_per_gpu);
  await widget.locator('select[name="link"]').selectOption('inter');
  const inter = engine.call(ringRequest(4, { link_kind: 'inter' }));
  assert.equal(Number(await widget.locator('[data-out="time"]').getAttribute('data-value')), inter.time);
  assert.match(await widget.locator('[data-out="link"]').textContent(), /InfiniBand/);
  for (const series of ['ring', 'tree', 'hierarchical']) {
    assert.equal(await widget.locator(`path[data-series="${series}"]`).count(), 1);
    assert.equal(await widget.locator(`circle.series-${series}`).count(), 14);
  }
  const last = engine.call({ op: 'allreduce', algorithm: 'hierarchical', gpus: 16384, bytes: 2 ** 30, link: 'h100-sxm' });
  const titles = await widget.locator('circle.series-hierarchical title').allTextContents();
  assert.equal(titles[13], `hierarchical, 16,384 GPUs: ${seconds(last.time)}`);
  assert.deepEqual(problems, []);
  await context.close();
});

test('at 16 GPUs on a 360 px screen the ring fits and the page does not scroll sideways', async () => {
  const { page, problems, context } = await openPage(site(), '', { width: 360, height: 800 });
  const widget = await widgetReady(page, 'parascope-ring');
  await widget.locator('input[name="gpus"]').fill('16');
  assert.equal(await widget.locator('.ring-cell').count(), 256);
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth);
  assert.ok(overflow <= 360, `page scrolls sideways: ${overflow}px`);
  await widget.screenshot({ path: new URL('ring-360.png', SCREENSHOTS).pathname });
  assert.deepEqual(problems, []);
  await context.close();
});
