// <parascope-bubble> in headless Chromium: the gauges show the engine's numbers for the settings the controls reach,
// no control position leads to a refusal, the chart has one row per stage in a box of fixed height, legend and chart
// share their colours (light and dark), the keyboard reaches every op, and 360 px works.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';

import { nodeEngine } from '../js/node-engine.mjs';
import { SCREENSHOTS, openPage, useSite, widgetReady } from './harness.mjs';
import { seededRandom } from '../seeded-random.mjs';

const { GANTT_LAYOUT } = await import(new URL('../../dist/widgets/bubble/gantt.js', import.meta.url));
const { opsFromAttachment } = await import(new URL('../../dist/widgets/bubble/op-columns.js', import.meta.url));

const site = useSite(before, after);
const engine = await nodeEngine();

const SELECTOR = 'parascope-bubble';

/** Opens the article page (at `width`), waits for the figure, runs `check(widget, page)`, then asserts a clean console. */
async function withBubble(check, { width = 1000, height = 900, dark = false } = {}) {
  const { page, problems, context } = await openPage(site(), '', { width, height });
  try {
    if (dark) await page.emulateMedia({ colorScheme: 'dark' });
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

/** What the controls show now: the settings the figure must be drawn for. */
async function controls(widget) {
  return widget.evaluate((el) => {
    const root = el.shadowRoot;
    const value = (name) => root.querySelector(`[name="${name}"]`);
    return {
      schedule: value('schedule').value,
      stages: Number(value('stages').value),
      microbatches: Number(value('microbatches').value),
      chunks: Number(value('chunks').value),
      chunksEnabled: !value('chunks').disabled,
      forwardOnly: value('forward-only').checked,
    };
  });
}

function engineFor(c) {
  const request = { op: 'pipeline', schedule: c.schedule, stages: c.stages, microbatches: c.microbatches,
    include_ops: false };
  if (c.chunksEnabled) request.chunks = c.chunks;
  if (c.forwardOnly) request.forward_only = true;
  return engine.call(request);
}

const shot = (name) => new URL(name, SCREENSHOTS).pathname;

test('the article figure starts from its attributes and shows the engine numbers', () => withBubble(async (widget) => {
  const expected = engine.call({ op: 'pipeline', schedule: 'gpipe', stages: 4, microbatches: 8, forward_only: true,
    include_ops: false });
  const s = await shown(widget);
  assert.equal(s.efficiency, expected.efficiency);
  assert.equal(s.dashboard, 1);
  assert.equal(s.rows, 4);
  assert.match(s.closed, /\(4−1\)\/\(8\+4−1\)/);
  await widget.screenshot({ path: shot('bubble-article.png') });
}));

test('moving the sliders recomputes: gauge equals the engine and the chart has p rows', () => withBubble(async (widget, page) => {
  await widget.locator('input[name="forward-only"]').uncheck();
  await widget.locator('select[name="schedule"]').selectOption('1f1b');
  for (const [p, m] of [[8, 32], [16, 5], [32, 128], [1, 1], [5, 7]]) {
    await slide(widget, 'stages', p);
    await slide(widget, 'microbatches', m);
    const expected = engine.call({ op: 'pipeline', schedule: '1f1b', stages: p, microbatches: m, include_ops: false });
    const s = await shown(widget);
    assert.equal(s.efficiency, expected.efficiency, `p=${p} m=${m}`);
    assert.equal(s.rows, p);
    assert.ok(s.formula.includes(`(${p} ×`), s.formula);
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
  const rowH = (box.height - GANTT_LAYOUT.axis) / 8;
  for (let s = 0; s < 8; s += 1) {
    const i = ops.ops.per_stage.slice(0, s).reduce((a, b) => a + b, 0) + 5;  // the sixth op of stage s
    const mid = (ops.ops.start[i] + ops.ops.end[i]) / 2;
    await page.mouse.move(box.x + (mid / ops.makespan) * plotW, box.y + (s + 0.5) * rowH);
    const kind = { F: 'forward', B: 'backward' }[ops.ops.kind[i]];
    assert.match(await widget.locator('[data-out="op"]').textContent(),
      new RegExp(`^GPU ${s} · microbatch ${ops.ops.microbatch[i]} · ${kind}`), `stage ${s}`);
  }
  await widget.screenshot({ path: shot('bubble-1f1b-8x32.png') });
}));

test('every schedule, including interleaved chunks, shows the engine value', () => withBubble(async (widget) => {
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
    assert.equal(await widget.locator('input[name="chunks"]').isDisabled(), schedule !== 'interleaved');
    const s = await shown(widget);
    assert.equal(s.efficiency, engine.call(request).efficiency, schedule);
    assert.equal(s.rows, 8);
    await widget.screenshot({ path: shot(`bubble-${schedule}.png`) });
  }
}));

test('from the article’s forward-half view, ZB-H1, ZB-H2 and DualPipe are drawn whole and their forms agree',
  () => withBubble(async (widget) => {
    const box = widget.locator('input[name="forward-only"]');
    assert.equal(await box.isChecked(), true);
    for (const schedule of ['zb-h1', 'zb-h2', 'dualpipe', '1f1b']) {
      await widget.locator('select[name="schedule"]').selectOption(schedule);
      assert.equal(await box.isChecked(), false, schedule);
      assert.equal(await box.isDisabled(), true, schedule);
      assert.match(await widget.locator('#bubble-forward-hint').textContent(), /is drawn with its backward passes/);
      const c = await controls(widget);
      const r = engineFor(c);
      assert.equal(r.forward_only, false);
      assert.equal((await shown(widget)).efficiency, r.efficiency, schedule);
      const closed = (await shown(widget)).closed;
      assert.doesNotMatch(closed, /= 0 = 0/);
      if (schedule !== 'zb-h2') {
        const [known, simulated] = [...closed.matchAll(/(\d+\.\d) %/g)].map((m) => m[1]).slice(-2);
        assert.equal(known, simulated, closed);
      }
    }
    await widget.locator('select[name="schedule"]').selectOption('gpipe');
    assert.equal(await box.isChecked(), true, 'back on GPipe the forward half returns');
    assert.equal(await box.isDisabled(), false);
  }));

test('no control leads to a refusal: DualPipe’s stages and microbatches move with the rule beside them',
  () => withBubble(async (widget) => {
    await widget.locator('select[name="schedule"]').selectOption('dualpipe');
    await slide(widget, 'stages', 1);
    assert.equal(await widget.locator('[data-note]').count(), 0);
    let c = await controls(widget);
    assert.equal(c.stages, 2);
    await slide(widget, 'stages', 5);  // a drag upwards from 2 passes over 5 to 6
    c = await controls(widget);
    assert.equal(c.stages, 6);
    assert.ok(c.microbatches >= 12 && c.microbatches % 2 === 0, JSON.stringify(c));
    const hint = widget.locator('input[name="stages"] ~ .hint');
    assert.equal(await hint.textContent(), 'DualPipe needs an even number of stages: 5 → 6');
    assert.ok(await hint.isVisible());
    await slide(widget, 'microbatches', 13);
    c = await controls(widget);
    assert.equal(c.microbatches, 14);
    assert.equal(await widget.locator('[data-note]').count(), 0);
    assert.equal(await widget.evaluate((el) => el.hasAttribute('data-stale')), false);
    assert.equal((await shown(widget)).efficiency, engineFor(c).efficiency);
    await widget.screenshot({ path: shot('bubble-dualpipe-hint.png') });
  }));

test('the chart is an interactive figure: named by its state, arrow keys walk the ops, numbers announced politely',
  () => withBubble(async (widget, page) => {
    const chart = widget.locator('[data-out="chart"]');
    assert.equal(await chart.getAttribute('role'), 'application');
    assert.equal(await chart.getAttribute('aria-roledescription'), 'pipeline timeline');
    assert.match(await chart.getAttribute('aria-label'), /^Pipeline timeline: GPipe, 4 stages × 8 microbatches, forward half only; \d+\.\d % of the GPU time is bubble\.$/);
    assert.equal(await widget.locator('[data-out="announce"]').getAttribute('aria-live'), 'polite');
    await slide(widget, 'microbatches', 16);
    assert.match(await chart.getAttribute('aria-label'), /4 stages × 16 microbatches/);
    await page.waitForFunction(() => /16 microbatches.*bubble 15\.8 %/.test(
      document.querySelector('parascope-bubble').shadowRoot.querySelector('[data-out="announce"]').textContent));
    await chart.focus();
    await page.keyboard.press('ArrowRight');
    assert.match(await widget.locator('[data-out="op"]').textContent(), /GPU 0 · microbatch 0 · forward \(F\) · from 0 to 1/);
    await page.keyboard.press('ArrowDown');
    assert.match(await widget.locator('[data-out="op"]').textContent(), /GPU 1 · microbatch 0 · forward \(F\) · from 1 to 2/);
    assert.ok(await widget.locator('.bubble-marker').isVisible());
    await widget.screenshot({ path: shot('bubble-keyboard.png') });
    await page.keyboard.press('Escape');
    assert.ok(!(await widget.locator('.bubble-marker').isVisible()));
  }));

test('hovering an op names it', () => withBubble(async (widget, page) => {
  await widget.locator('canvas').scrollIntoViewIfNeeded();
  const box = await widget.locator('canvas').boundingBox();
  await page.mouse.move(box.x + 3, box.y + 5);  // the first op of GPU 0
  assert.match(await widget.locator('[data-out="op"]').textContent(), /GPU 0 · microbatch 0 · forward/);
}));

/** The canvas pixel (device px) at CSS (x, y) of the plot, as [r, g, b]. */
function pixelAt(widget, x, y) {
  return widget.evaluate((el, [px, py]) => {
    const canvas = el.shadowRoot.querySelector('canvas');
    const ratio = canvas.width / canvas.getBoundingClientRect().width;
    const d = canvas.getContext('2d').getImageData(Math.round(px * ratio), Math.round(py * ratio), 1, 1).data;
    return [d[0], d[1], d[2]];
  }, [x, y]);
}

/** The legend key's colour for a kind (its ::before swatch), as [r, g, b]. */
function legendColour(widget, kind) {
  return widget.evaluate((el, k) => {
    const key = el.shadowRoot.querySelector(`.bubble-legend .key.${k}`);
    return getComputedStyle(key, '::before').backgroundColor.match(/\d+/g).slice(0, 3).map(Number);
  }, kind);
}

for (const dark of [false, true]) {
  test(`legend and chart agree on the colour of F, B and W (${dark ? 'dark' : 'light'})`, () => withBubble(async (widget) => {
    await widget.locator('input[name="forward-only"]').uncheck();
    await widget.locator('select[name="schedule"]').selectOption('zb-h1');
    await slide(widget, 'stages', 2);
    await slide(widget, 'microbatches', 4);
    const { response: r, attachment } = engine.callWithAttachment({ op: 'pipeline', schedule: 'zb-h1', stages: 2,
      microbatches: 4, ops_format: 'binary' });
    r.ops = opsFromAttachment(r, attachment);
    const box = await widget.locator('canvas').boundingBox();
    const plotW = box.width - GANTT_LAYOUT.activations;
    const rowH = (box.height - GANTT_LAYOUT.axis) / 2;
    for (const [k, name] of [['F', 'f'], ['B', 'b'], ['W', 'w']]) {
      const i = [...r.ops.kind].findIndex((kind, j) => kind === k && r.ops.microbatch[j] === 0 && j < r.ops.per_stage[0]);
      const x = ((r.ops.start[i] + r.ops.end[i]) / 2 / r.makespan) * plotW + 6;  // clear of the op's edge and label
      const pixel = await pixelAt(widget, x, rowH * 0.15);
      assert.deepEqual(pixel, await legendColour(widget, name), `${k} of microbatch 0`);
    }
    await widget.screenshot({ path: shot(`bubble-colours-${dark ? 'dark' : 'light'}.png`) });
  }, { dark }));
}

test('theme="dark" repaints the chart from the dark palette', () => withBubble(async (widget) => {
  const hatch = () => pixelAt(widget, 2, 240);  // the last stage's fill wait, bottom left: bubble
  const light = await hatch();
  await widget.evaluate((el) => el.setAttribute('theme', 'dark'));
  await widget.evaluate(() => new Promise(requestAnimationFrame));
  const dark = await hatch();
  assert.notDeepEqual(dark, light);
  assert.ok(dark.reduce((a, b) => a + b) < light.reduce((a, b) => a + b), `dark ${dark} vs light ${light}`);
  await widget.screenshot({ path: shot('bubble-theme-dark.png') });
}));

/** Every visible text's font size in the widget, smallest first, with the text. */
function fontSizes(widget) {
  return widget.evaluate((el) => {
    const out = [];
    const walk = (node) => {
      for (const child of node.children) {
        const style = getComputedStyle(child);
        if (style.display === 'none' || style.visibility === 'hidden') continue;
        const box = child.getBoundingClientRect();
        const own = [...child.childNodes].some((n) => n.nodeType === 3 && n.textContent.trim());
        if (own && box.width > 1 && box.height > 1) out.push([parseFloat(style.fontSize), child.textContent.slice(0, 40)]);
        walk(child);
      }
    };
    walk(el.shadowRoot);
    return out.sort((a, b) => a[0] - b[0]);
  });
}

for (const width of [360, 1280]) {
  test(`at ${width} px: 32 × 128 reads as ops coloured by kind with no idle-looking gaps, no label under 11 px`,
    () => withBubble(async (widget, page) => {
      await widget.locator('input[name="forward-only"]').uncheck();
      await widget.locator('select[name="schedule"]').selectOption('1f1b');
      await slide(widget, 'stages', 32);
      await slide(widget, 'microbatches', 128);
      const box = await widget.boundingBox();
      assert.ok(box.width <= width, `widget is ${box.width}px wide`);
      assert.ok(await page.evaluate(() => document.documentElement.scrollWidth) <= width, 'page scrolls sideways');
      assert.equal(await widget.locator('.bubble-row').count(), 32);
      const smallest = (await fontSizes(widget))[0];
      assert.ok(smallest[0] >= 11, `"${smallest[1]}" is ${smallest[0]} px`);
      // Stage 0 of 1F1B at 32 × 128 runs 32 forwards without a break: every pixel of that run is an op colour (no
      // hatch, no background gap) along the row.
      const { response: r, attachment } = engine.callWithAttachment({ op: 'pipeline', schedule: '1f1b', stages: 32,
        microbatches: 128, ops_format: 'binary' });
      r.ops = opsFromAttachment(r, attachment);
      const idleColours = await widget.evaluate((el) => {
        const canvas = el.shadowRoot.querySelector('canvas');
        const ctx = canvas.getContext('2d');
        const d = ctx.getImageData(0, 0, canvas.width, canvas.height).data;
        // The bubble's colours: sample the bottom-left corner (last stage, before its first op: always idle).
        const h = (canvas.height - Math.round(20 * canvas.width / canvas.getBoundingClientRect().width));
        const seen = new Set();
        for (let x = 0; x < 12; x += 1) {
          const at = ((h - 3) * canvas.width + x) * 4;
          seen.add(`${d[at]},${d[at + 1]},${d[at + 2]}`);
        }
        return [...seen];
      });
      const firstB = [...r.ops.kind].indexOf('B');
      const busyUntil = r.ops.end[firstB - 1];  // stage 0 runs its forwards back to back, then waits for its first B
      const rowPixels = await widget.evaluate((el, fraction) => {
        const canvas = el.shadowRoot.querySelector('canvas');
        const ratio = canvas.width / canvas.getBoundingClientRect().width;
        const plotW = canvas.width - Math.round(44 * ratio);
        const d = canvas.getContext('2d').getImageData(0, Math.round(2 * ratio), Math.floor(plotW * fraction), 1).data;
        const out = [];
        for (let i = 0; i < d.length; i += 4) out.push(`${d[i]},${d[i + 1]},${d[i + 2]}`);
        return out;
      }, busyUntil / r.makespan);
      const idle = rowPixels.filter((c) => idleColours.includes(c));
      assert.equal(idle.length, 0, `${idle.length} idle-coloured pixels inside stage 0's busy run`);
      await widget.screenshot({ path: shot(`bubble-32x128-${width}.png`) });
    }, { width, height: 900 }));
}

for (const width of [360, 1280]) {
  test(`at ${width} px the figure keeps its height whatever the settings`, () => withBubble(async (widget) => {
    const height = () => widget.evaluate((el) => el.getBoundingClientRect().height);
    const first = await height();
    const states = [
      ['schedule', 'dualpipe'], ['stages', 32], ['microbatches', 128], ['schedule', 'interleaved'], ['chunks', 8],
      ['stages', 3], ['microbatches', 7], ['schedule', 'zb-h1'], ['microbatches', 1], ['stages', 1],
      ['schedule', 'zb-h2'], ['stages', 17], ['schedule', 'gpipe'], ['forward-only', true], ['schedule', '1f1b'],
    ];
    const heights = [first];
    for (const [name, value] of states) {
      if (name === 'schedule') await widget.locator('select[name="schedule"]').selectOption(value);
      else if (name === 'forward-only') await widget.locator('input[name="forward-only"]').setChecked(value);
      else await slide(widget, name, value);
      heights.push(await height());
    }
    assert.deepEqual(heights, heights.map(() => first), `heights ${heights.join(', ')}`);
  }, { width, height: 900 }));
}

test('a short walk over the real controls: every state drawn is the engine’s answer, never a refusal',
  () => withBubble(async (widget) => {
    const rand = seededRandom(7);
    const schedules = ['gpipe', '1f1b', 'interleaved', 'zb-h1', 'zb-h2', 'dualpipe'];
    for (let step = 0; step < 30; step += 1) {
      const c = await controls(widget);
      const which = Math.floor(rand() * 5);
      if (which === 0) await widget.locator('select[name="schedule"]').selectOption(schedules[Math.floor(rand() * 6)]);
      if (which === 1) await slide(widget, 'stages', 1 + Math.floor(rand() * 32));
      if (which === 2) await slide(widget, 'microbatches', 1 + Math.floor(rand() * 128));
      if (which === 3 && c.chunksEnabled) await slide(widget, 'chunks', 1 + Math.floor(rand() * 8));
      if (which === 4 && !(await widget.locator('input[name="forward-only"]').isDisabled())) {
        await widget.locator('input[name="forward-only"]').setChecked(!c.forwardOnly);
      }
      const now = await controls(widget);
      assert.equal(await widget.locator('[data-note]').count(), 0, `step ${step}: ${JSON.stringify(now)}`);
      const s = await shown(widget);
      const r = engineFor(now);
      assert.equal(s.efficiency, r.efficiency, `step ${step}: ${JSON.stringify(now)}`);
      assert.equal(s.rows, now.stages);
      const text = await widget.locator('.bubble').textContent();
      assert.doesNotMatch(text, /NaN|Infinity|undefined/);
    }
  }));

for (const [width, theme] of [[360, 'light'], [360, 'dark'], [1280, 'light'], [1280, 'dark']]) {
  test(`screenshot at ${width} px, ${theme}`, () => withBubble(async (widget) => {
    await widget.locator('select[name="schedule"]').selectOption('zb-h1');
    await slide(widget, 'stages', 8);
    await slide(widget, 'microbatches', 24);
    await widget.screenshot({ path: shot(`bubble-${width}-${theme}.png`) });
  }, { width, height: 1000, dark: theme === 'dark' }));
}

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
