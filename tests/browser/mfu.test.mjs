// <parascope-mfu> in headless Chromium: PaLM's published 46.2 %, the modelled step and its breakdown equal to the
// engine's answer, a tp change by keyboard (refused, then accepted), memory that does not fit, every preset, 360 px.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';

import { PRESETS } from '../../web/lib/mfu-presets.js';
import { STEP_SEGMENTS } from '../../web/lib/step-bar.js';
import { nodeEngine } from '../js/node-engine.mjs';
import { SCREENSHOTS, openPage, useSite, widgetReady } from './harness.mjs';

const engine = await nodeEngine();
const site = useSite(before, after);

const preset = (id) => PRESETS.find((p) => p.id === id);
/** The step request for a preset with part of its split changed (dp is left to the engine, as in the widget). */
const stepRequest = (id, patch = {}) => {
  const p = preset(id);
  return { op: 'step', ...p.run, parallel: { ...p.run.parallel, ...patch } };
};

/** What the legend shows: { key: seconds } for every drawn segment. */
async function shownSegments(widget) {
  const rows = await widget.locator('.step-legend li').evaluateAll((els) =>
    els.map((li) => [li.dataset.seg, Number(li.querySelector('[data-seconds]').dataset.seconds)]));
  return Object.fromEntries(rows);
}

/** The segments the engine's answer calls for (zero ones omitted, negative kernel time drawn as 0). */
const expectedSegments = (r) =>
  Object.fromEntries(STEP_SEGMENTS.map(([key, , get]) => [key, get(r)]).filter(([, t]) => t > 0));

const modelled = (widget) => widget.locator('[data-out="modelled-mfu"]');

test('the PaLM preset reads 46.2 % published and shows the engine\'s modelled step, bar and memory', async () => {
  const { page, problems, context } = await openPage(site());
  const widget = await widgetReady(page, 'parascope-mfu');
  assert.ok(await widget.locator('input[name="preset"][value="palm-540b"]').isChecked());
  const published = widget.locator('[data-out="published-mfu"]');
  assert.equal(await published.textContent(), '46.2 % MFU');
  const fromPaper = engine.call(preset('palm-540b').published.request);
  assert.equal(Number(await published.getAttribute('data-value')), fromPaper.mfu);

  const r = engine.call(stepRequest('palm-540b'));
  assert.equal(Number(await modelled(widget).getAttribute('data-value')), r.mfu);
  assert.equal(await modelled(widget).textContent(), `${(r.mfu * 100).toFixed(1)} %`);
  assert.deepEqual(await shownSegments(widget), expectedSegments(r));
  assert.equal(Number(await widget.locator('.step-bar [data-seg="useful"]').getAttribute('data-seconds')),
    r.compute_split.useful_at_peak);
  // The dashboard side: 6,144 GPUs, 256 tiles drawn, labelled with the engine's utilization.
  assert.equal(await widget.locator('.mfu-step .gpu').count(), 256);
  assert.match(await widget.locator('.mfu-step [data-out="gpus-more"]').textContent(), /× 5,888 more/);
  const dash = widget.locator('.mfu-step [data-out="dashboard"]');
  assert.equal(Number(await dash.getAttribute('data-value')), r.dashboard_utilization);
  assert.match(await dash.textContent(), /^6,144 GPUs, each 100 % busy$/);
  assert.equal(await widget.locator('[data-out="memory"]').getAttribute('data-fits'), String(r.fits));
  await widget.screenshot({ path: new URL('mfu-palm.png', SCREENSHOTS).pathname });
  assert.deepEqual(problems, []);
  await context.close();
});

test('moving tp by keyboard redraws the breakdown from the engine; a refused split greys the bars and says why', async () => {
  const { page, problems, context } = await openPage(site());
  await page.emulateMedia({ reducedMotion: 'reduce' });
  const widget = await widgetReady(page, 'parascope-mfu');
  const before12 = await shownSegments(widget);
  const tp = widget.locator('input[name="tp"]');
  await tp.focus();
  // 12 -> 16: dp = 6144 / 16 = 384 and 384 · 4 does not divide the batch of 2,048: the engine refuses.
  await tp.press('ArrowRight');
  assert.equal(await tp.getAttribute('aria-valuetext'), '16');
  assert.throws(() => engine.call(stepRequest('palm-540b', { tp: 16 })), /global_batch/);
  const note = widget.locator('[data-note="engine"]');
  assert.match(await note.textContent(), /global_batch = 2048 sequences must be a multiple/);
  assert.ok(await widget.evaluate((el) => el.hasAttribute('data-stale')));
  assert.deepEqual(await shownSegments(widget), before12, 'the last good bars stay');
  await widget.screenshot({ path: new URL('mfu-refused.png', SCREENSHOTS).pathname });
  // 16 -> 24: dp = 256, accepted; the breakdown is the engine's for tp 24.
  await tp.press('ArrowRight');
  assert.equal(await tp.getAttribute('aria-valuetext'), '24');
  const r = engine.call(stepRequest('palm-540b', { tp: 24 }));
  assert.equal(await note.count(), 0);
  assert.ok(!(await widget.evaluate((el) => el.hasAttribute('data-stale'))));
  assert.equal(Number(await modelled(widget).getAttribute('data-value')), r.mfu);
  const after24 = await shownSegments(widget);
  assert.deepEqual(after24, expectedSegments(r));
  assert.notEqual(after24.tp, before12.tp, 'tensor-parallel time moved');
  assert.equal(await widget.locator('[data-out="dp"]').textContent(), '256');
  assert.deepEqual(problems, []);
  await context.close();
});

test('memory per GPU turns red when the engine says the split does not fit', async () => {
  const { page, problems, context } = await openPage(site());
  const widget = await widgetReady(page, 'parascope-mfu');
  const memory = widget.locator('[data-out="memory"]');
  assert.equal(await memory.getAttribute('data-fits'), 'true');
  await widget.locator('select[name="recompute"]').selectOption('selective');
  const r = engine.call(stepRequest('palm-540b', { recompute: 'selective' }));
  assert.equal(r.fits, false);
  assert.equal(await memory.getAttribute('data-fits'), 'false');
  assert.equal(Number(await memory.getAttribute('data-value')), r.memory_per_gpu.total);
  assert.match(await memory.textContent(), /does not fit/);
  const colour = await memory.evaluate((el) => getComputedStyle(el).color);
  assert.equal(colour, 'rgb(198, 40, 40)');
  await widget.screenshot({ path: new URL('mfu-no-fit.png', SCREENSHOTS).pathname });
  assert.deepEqual(problems, []);
  await context.close();
});

test('every preset shows the engine\'s modelled MFU and bar, and "your run" the mfu op', async () => {
  const { page, problems, context } = await openPage(site());
  const widget = await widgetReady(page, 'parascope-mfu');
  for (const p of PRESETS) {
    await widget.locator(`input[name="preset"][value="${p.id}"]`).check();
    const r = engine.call(stepRequest(p.id));
    assert.equal(Number(await modelled(widget).getAttribute('data-value')), r.mfu, p.id);
    assert.deepEqual(await shownSegments(widget), expectedSegments(r), p.id);
    assert.match(await widget.locator('[data-out="published-mfu"]').textContent(), /^\d+(\.\d)? % (MFU|HFU)$/);
    assert.equal(await widget.locator('.note').count(), 0, p.id);
    await widget.screenshot({ path: new URL(`mfu-${p.id}.png`, SCREENSHOTS).pathname });
  }
  await widget.locator('input[name="preset"][value="your-run"]').check();
  assert.ok(await widget.locator('.mfu-step').isHidden());
  await widget.locator('select[name="model"]').selectOption('gpt3-175b');
  await widget.locator('select[name="hardware"]').selectOption('a100-80gb');
  await widget.locator('input[name="gpus"]').fill('1024');
  await widget.locator('input[name="tokens-per-second"]').fill('150000');
  const expected = engine.call({ op: 'mfu', model: 'gpt3-175b', hardware: 'a100-80gb', gpus: 1024,
    tokens_per_second: 150000, attention: 'full' });
  assert.equal(Number(await widget.locator('[data-out="mfu"]').getAttribute('data-value')), expected.mfu);
  assert.match(await widget.locator('.mfu-run [data-out="dashboard"]').textContent(), /^1,024 GPUs, each busy$/);
  await widget.screenshot({ path: new URL('mfu-your-run.png', SCREENSHOTS).pathname });
  assert.deepEqual(problems, []);
  await context.close();
});

test('the figure is operable from the keyboard alone and fits 360 px', async () => {
  const { page, problems, context } = await openPage(site(), '', { width: 360, height: 800 });
  const widget = await widgetReady(page, 'parascope-mfu');
  const radio = widget.locator('input[name="preset"][value="palm-540b"]');
  await radio.focus();
  await page.keyboard.press('ArrowRight'); // radio groups move with the arrows
  assert.ok(await widget.locator('input[name="preset"][value="gpt3-175b"]').isChecked());
  const r = engine.call(stepRequest('gpt3-175b'));
  assert.equal(Number(await modelled(widget).getAttribute('data-value')), r.mfu);
  const box = await widget.boundingBox();
  assert.ok(box.width <= 360, `widget is ${box.width}px wide`);
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth);
  assert.ok(overflow <= 360, `page scrolls sideways: ${overflow}px`);
  await widget.screenshot({ path: new URL('mfu-360.png', SCREENSHOTS).pathname });
  assert.deepEqual(problems, []);
  await context.close();
});

test('attributes set the initial preset and split; a bad one is a visible note', async () => {
  const { page, problems, context } = await openPage(site(), 'tests/mfu-attributes.html');
  const llama = await widgetReady(page, '#llama-tp4');
  const r = engine.call(stepRequest('llama3-405b', { tp: 4, recompute: 'full' }));
  assert.equal(Number(await llama.locator('[data-out="modelled-mfu"]').getAttribute('data-value')), r.mfu);
  assert.equal(await llama.locator('input[name="tp"]').getAttribute('aria-valuetext'), '4');
  assert.equal(await llama.locator('.note').count(), 0);
  const bad = await widgetReady(page, '#bad-preset');
  assert.match(await bad.locator('[data-note="attr-preset"]').textContent(), /preset="gpt-5"/);
  assert.ok(await bad.locator('input[name="preset"][value="palm-540b"]').isChecked());
  assert.deepEqual(problems, []);
  await context.close();
});
