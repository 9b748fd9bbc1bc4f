// <parascope-bubble> in headless Chromium: the gauges show the engine's numbers for the settings the sliders reach,
// the chart has one row per stage, the keyboard reaches every op, refusals become notes, and 360 px works.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';

import { nodeEngine } from '../js/node-engine.mjs';
import { SCREENSHOTS, openPage, useSite, widgetReady } from './harness.mjs';

const { GANTT_LAYOUT } = await import(new URL('../../dist/lib/gantt.js', import.meta.url));
const { opsFromAttachment } = await import(new URL('../../dist/lib/op-columns.js', import.meta.url));

const site = useSite(before, after);
const engine = await nodeEngine();

const SELECTOR = 'parascope-bubble';

/** Opens the article page (at `width`), waits for the figure, runs `check(widget, page)`, then asserts a clean console. */
async function withBubble(check, { width = 1000, height = 900 } = {}) {
  const { page, problems, context } = await openPage(site(), '', { width, height });
  try {
    await check(await widgetReady(page, SELECTOR), page);
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
  }
}

/** Sets a range input inside the widget the way a user's drag does: value, then input and change events. */
async function slide(widget, name, value) {
  await widget.locator(`input[name="${name}"]`).evaluate((el, v) => {
    el.value = String(v);
    el.dispatchEvent(new Event('input', { bubbles: true }));
    el.dispatchEvent(new Event('change', { bubbles: true }));
  }, value);
}

async function shown(widget) {
  return {
    efficiency: Number(await widget.locator('[data-out="efficiency"]').getAttribute('data-value')),
    dashboard: Number(await widget.locator('[data-out="dashboard"]').getAttribute('data-value')),
    rows: await widget.locator('.bubble-row').count(),
    formula: await widget.locator('[data-out="formula"]').textContent(),
    closed: await widget.locator('[data-out="closed-form"]').textContent(),
  };
}

test('the article figure starts from its attributes and shows the engine numbers', () => withBubble(async (widget, page) => {
  const expected = engine.call({ op: 'pipeline', schedule: 'gpipe', stages: 4, microbatches: 8, forward_only: true,
    include_ops: false });
  const s = await shown(widget);
  assert.equal(s.efficiency, expected.efficiency);
  assert.equal(s.dashboard, 1);
  assert.equal(s.rows, 4);
  assert.match(s.closed, /\(4−1\)\/\(8\+4−1\)/);
  await widget.screenshot({ path: new URL('bubble-article.png', SCREENSHOTS).pathname });
}));

test('moving the sliders recomputes: gauge equals the engine and the chart has p rows', () => withBubble(async (widget, page) => {
  await widget.locator('input[name="forward-only"]').uncheck();
  await widget.locator('select[name="schedule"]').selectOption('1f1b');
  const settings = [[8, 32], [16, 5], [32, 128], [1, 1], [5, 7]];
  for (const [p, m] of settings) {
    await slide(widget, 'stages', p);
    await slide(widget, 'microbatches', m);
    const expected = engine.call({ op: 'pipeline', schedule: '1f1b', stages: p, microbatches: m, include_ops: false });
    const s = await shown(widget);
    assert.equal(s.efficiency, expected.efficiency, `p=${p} m=${m}`);
    assert.equal(s.rows, p);
    assert.ok(s.formula.includes(`(${p} ×`), s.formula);
    const canvasHeight = await widget.locator('canvas').evaluate((c) => c.getBoundingClientRect().height);
    assert.ok(canvasHeight >= p * 8, `canvas ${canvasHeight}px for ${p} rows`);
  }
  await slide(widget, 'stages', 8);
  await slide(widget, 'microbatches', 32);
  // Each row draws that stage's own ops: point at the middle of an op the engine puts on stage s, read it back.
  const { response: ops, attachment } = engine.callWithAttachment({ op: 'pipeline', schedule: '1f1b', stages: 8,
    microbatches: 32, ops_format: 'binary' });
  ops.ops = opsFromAttachment(ops, attachment);
  await widget.locator('canvas').scrollIntoViewIfNeeded();
  const box = await widget.locator('canvas').boundingBox();
  const plotW = box.width - GANTT_LAYOUT.activations;
  const rowH = box.height === 0 ? 0 : (box.height - GANTT_LAYOUT.axis) / 8;
  for (let s = 0; s < 8; s += 1) {
    const i = ops.ops.per_stage.slice(0, s).reduce((a, b) => a + b, 0) + 5;  // the sixth op of stage s
    const mid = (ops.ops.start[i] + ops.ops.end[i]) / 2;
    await page.mouse.move(box.x + (mid / ops.makespan) * plotW, box.y + (s + 0.5) * rowH);
    const kind = { F: 'forward', B: 'backward' }[ops.ops.kind[i]];
    assert.match(await widget.locator('[data-out="op"]').textContent(),
      new RegExp(`^GPU ${s} · microbatch ${ops.ops.microbatch[i]} · ${kind}`), `stage ${s}`);
  }
  await widget.screenshot({ path: new URL('bubble-1f1b-8x32.png', SCREENSHOTS).pathname });
}));

test('every schedule, including interleaved chunks, shows the engine value', () => withBubble(async (widget, page) => {
  await widget.locator('input[name="forward-only"]').uncheck();
  await slide(widget, 'stages', 8);
  await slide(widget, 'microbatches', 32);
  for (const schedule of ['gpipe', '1f1b', 'interleaved', 'zb-h1', 'zb-h2', 'dualpipe']) {
    await widget.locator('select[name="schedule"]').selectOption(schedule);
    const request = { op: 'pipeline', schedule, stages: 8, microbatches: 32, include_ops: false };
    if (schedule === 'interleaved') {
      await slide(widget, 'chunks', 4);
      request.chunks = 4;
    }
    assert.equal(await widget.locator('input[name="chunks"]').isVisible(), schedule === 'interleaved');
    const s = await shown(widget);
    assert.equal(s.efficiency, engine.call(request).efficiency, schedule);
    assert.equal(s.rows, 8);
    await widget.screenshot({ path: new URL(`bubble-${schedule}.png`, SCREENSHOTS).pathname });
  }
}));

test('the chart is keyboard operable: arrow keys walk the ops and the readout names them', () => withBubble(async (widget, page) => {
  const chart = widget.locator('[data-out="chart"]');
  await chart.focus();
  await page.keyboard.press('ArrowRight');
  assert.match(await widget.locator('[data-out="op"]').textContent(), /GPU 0 · microbatch 0 · forward \(F\) · from 0 to 1/);
  await page.keyboard.press('ArrowDown');
  assert.match(await widget.locator('[data-out="op"]').textContent(), /GPU 1 · microbatch 0 · forward \(F\) · from 1 to 2/);
  assert.ok(await widget.locator('.bubble-marker').isVisible());
  await widget.screenshot({ path: new URL('bubble-keyboard.png', SCREENSHOTS).pathname });
  await page.keyboard.press('Escape');
  assert.ok(!(await widget.locator('.bubble-marker').isVisible()));
}));

test('hovering an op names it', () => withBubble(async (widget, page) => {
  await widget.locator('canvas').scrollIntoViewIfNeeded();
  const box = await widget.locator('canvas').boundingBox();
  await page.mouse.move(box.x + 3, box.y + 5);  // the first op of GPU 0
  assert.match(await widget.locator('[data-out="op"]').textContent(), /GPU 0 · microbatch 0 · forward/);
}));

test('settings the engine refuses show its reason and keep the last chart', () => withBubble(async (widget, page) => {
  await widget.locator('input[name="forward-only"]').uncheck();
  await widget.locator('select[name="schedule"]').selectOption('dualpipe');
  await slide(widget, 'stages', 5);
  const note = widget.locator('[data-note="engine"]');
  assert.match(await note.textContent(), /even number of stages/);
  assert.ok(await note.isVisible());
  assert.equal(await widget.evaluate((el) => el.hasAttribute('data-stale')), true);
  await slide(widget, 'stages', 4);
  assert.equal(await note.count(), 0);
}));

test('the figure works at 360 px wide', () => withBubble(async (widget, page) => {
  await slide(widget, 'stages', 32);
  await slide(widget, 'microbatches', 128);
  const box = await widget.boundingBox();
  assert.ok(box.width <= 360, `widget is ${box.width}px wide`);
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth);
  assert.ok(overflow <= 360, `page scrolls sideways: ${overflow}px`);
  assert.equal(await widget.locator('.bubble-row').count(), 32);
  await widget.screenshot({ path: new URL('bubble-360.png', SCREENSHOTS).pathname });
}, { width: 360, height: 800 }));

test('a bad attribute becomes a visible note and the figure falls back', () => withBubble(async (_, page) => {
  await page.evaluate(() => {
    const el = document.createElement('parascope-bubble');
    el.id = 'bad-bubble';
    el.setAttribute('stages', 'lots');
    el.setAttribute('schedule', 'pipedream');
    document.querySelector('main').prepend(el);
  });
  const bad = await widgetReady(page, '#bad-bubble');
  assert.match(await bad.locator('[data-note="attr-stages"]').textContent(), /stages="lots"/);
  assert.match(await bad.locator('[data-note="attr-schedule"]').textContent(), /schedule="pipedream"/);
  assert.equal(await bad.locator('.bubble-row').count(), 4);  // the default
  assert.equal(await page.locator('figure parascope-bubble').locator('.note').count(), 0);  // the article's is unaffected
}));
