// <parascope-axes> in headless Chromium: every axis button shows the engine's traffic figures, the grid colours each
// GPU by the shard the engine says it holds, the skew slider re-routes through moe_route, keyboard and 360 px work.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';

import { nodeEngine } from '../js/node-engine.mjs';
import { SCREENSHOTS, openPage, useSite, widgetReady } from './harness.mjs';

const engine = await nodeEngine();
const RUN = { model: 'mixtral-8x7b', hardware: 'h100-sxm', cluster: { gpus: 64 },
  parallel: { tp: 2, pp: 4, ep: 8, global_batch: 256 } };  // the article page's attributes
const site = useSite(before, after);

const shot = (page, name) => page.screenshot({ path: new URL(name, SCREENSHOTS).pathname, fullPage: true });

test('each axis button shows that axis row with the engine traffic numbers', async () => {
  const { page, problems, context } = await openPage(site(), '', { width: 1000, height: 1400 });
  const widget = await widgetReady(page, 'parascope-axes');
  const expected = engine.call({ op: 'traffic', ...RUN });
  for (const axis of ['data', 'tensor', 'pipeline', 'expert']) {
    await widget.locator(`button[data-axis="${axis}"]`).click();
    assert.equal(await widget.locator(`button[data-axis="${axis}"]`).getAttribute('aria-pressed'), 'true');
    const rows = widget.locator('.axes-table tbody tr');
    assert.equal(await rows.count(), 1, `${axis}: one row`);
    const want = expected.axes.find((a) => a.axis === axis);
    const row = widget.locator(`.axes-table tr[data-axis="${axis}"]`);
    for (const field of ['bytes_per_gpu', 'time', 'hidden_fraction', 'count']) {
      const shown = Number(await row.locator(`[data-field="${field}"]`).getAttribute('data-value'));
      assert.equal(shown, want[field], `${axis}.${field}`);
    }
    for (const field of ['collective', 'splits', 'link']) {
      assert.equal(await row.locator(`[data-field="${field}"]`).getAttribute('data-value'), want[field], `${axis}.${field}`);
    }
    // Lines are drawn only for this axis.
    const lines = widget.locator('path.link');
    assert.ok((await lines.count()) > 0, `${axis}: traffic drawn`);
    assert.equal(await widget.locator(`path.link:not([data-axis="${axis}"])`).count(), 0);
    await shot(page, `axes-${axis}.png`);
  }
  await widget.locator('button[data-axis="all"]').click();
  assert.equal(await widget.locator('.axes-table tbody tr').count(), expected.axes.length);
  assert.deepEqual(problems, []);
  await context.close();
});

test('the grid labels each GPU with the shard the engine places on it, and links follow the nodes', async () => {
  const { page, problems, context } = await openPage(site());
  const widget = await widgetReady(page, 'parascope-axes');
  const placement = engine.call({ op: 'placement', ...RUN });
  await widget.locator('button[data-axis="pipeline"]').click();
  const labels = await widget.locator('.gpu-label').allTextContents();
  assert.equal(labels.length, 64);
  const span = ([a, b]) => `${a}–${b - 1}`;
  placement.ranks.forEach((r, i) => assert.equal(labels[i], `L${r.layers.map(span).join(',')}`));
  // Pipeline groups are 16 ranks apart: every stage boundary crosses nodes here (placement says "inter").
  assert.equal(placement.axes.find((a) => a.axis === 'pipeline').link, 'inter');
  assert.equal(await widget.locator('path.link.intra').count(), 0);
  await widget.locator('button[data-axis="tensor"]').click();
  assert.equal(await widget.locator('path.link.inter').count(), 0);
  assert.deepEqual(problems, []);
  await context.close();
});

test('the skew slider re-routes through moe_route and marks the hot expert and GPU', async () => {
  const { page, problems, context } = await openPage(site(), '', { width: 1000, height: 1400 });
  const widget = await widgetReady(page, 'parascope-axes');
  await widget.locator('button[data-axis="expert"]').click();
  const slider = widget.locator('input[name="skew"]');
  await slider.fill('2.5');
  const route = engine.call({ op: 'moe_route', tokens: 262144, experts: 8, top_k: 2, ep: 8, skew: 2.5, seed: 1,
    hidden: 4096, hardware: 'h100-sxm', link_kind: 'inter' });
  await page.waitForFunction((t) => document.querySelector('parascope-axes').shadowRoot
    .querySelector('[data-out="a2a-time"]')?.dataset.value === String(t), route.time);
  assert.equal(await widget.locator('.expert-bars .load.hot').getAttribute('data-expert'), String(route.hot_expert));
  const hot = await widget.locator('.gpu.hot').evaluateAll((gs) => gs.map((g) => Number(g.dataset.rank)));
  const placement = engine.call({ op: 'placement', ...RUN });
  assert.deepEqual(hot, placement.ranks.filter((r) => r.ep === route.hot_rank).map((r) => r.rank));
  assert.ok(route.time > route.balanced_time);
  await shot(page, 'axes-expert-skew.png');
  assert.deepEqual(problems, []);
  await context.close();
});

test('arrow keys move between axes and attributes set the first axis', async () => {
  const { page, problems, context } = await openPage(site());
  const widget = await widgetReady(page, 'parascope-axes');
  await widget.locator('button[data-axis="data"]').focus();
  await page.keyboard.press('ArrowRight');
  assert.equal(await widget.locator('button[data-axis="tensor"]').getAttribute('aria-pressed'), 'true');
  assert.equal(await widget.locator('button[data-axis="tensor"]').evaluate((b) => b.matches(':focus')), true);
  await page.keyboard.press('ArrowLeft');
  await page.keyboard.press('ArrowLeft');
  assert.equal(await widget.locator('button[data-axis="all"]').getAttribute('aria-pressed'), 'true');
  await page.evaluate(() => {
    const el = document.createElement('parascope-axes');
    el.id = 'second';
    Object.entries({ axis: 'tensor', model: 'llama3-70b', gpus: '32', tp: '8', pp: '4', 'global-batch': '32' })
      .forEach(([k, v]) => el.setAttribute(k, v));
    document.querySelector('main').prepend(el);
  });
  const second = await widgetReady(page, '#second');
  assert.equal(await second.locator('button[data-axis="tensor"]').getAttribute('aria-pressed'), 'true');
  assert.equal(await second.locator('.gpu-label').first().textContent(), 'h0–7');
  assert.equal(await second.locator('.note').count(), 0);
  assert.deepEqual(problems, []);
  await context.close();
});

test('at 360 px the figure fits without sideways scrolling', async () => {
  const { page, problems, context } = await openPage(site(), '', { width: 360, height: 900 });
  const widget = await widgetReady(page, 'parascope-axes');
  await widget.locator('button[data-axis="expert"]').click();
  const box = await widget.boundingBox();
  assert.ok(box.width <= 360, `widget is ${box.width}px wide`);
  assert.ok((await page.evaluate(() => document.documentElement.scrollWidth)) <= 360);
  await widget.screenshot({ path: new URL('axes-360.png', SCREENSHOTS).pathname });
  assert.deepEqual(problems, []);
  await context.close();
});
