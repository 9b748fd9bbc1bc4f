// <parascope-ring> in headless Chromium: every round of N = 4 shows the engine's buffers and ends with the sum on
// every GPU; the figure is a slider whose description follows the round; readout and chart use one link (a ring
// larger than a node crosses the network); text is 11 px or more and apart at 360 and 1280 px; the height never
// changes with the state; a seeded walk over the real controls always shows the engine's answer.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';

import { seconds } from '../../web/lib/format.js';
import { nodeEngine } from '../js/node-engine.mjs';
import { SCREENSHOTS, openPage, useSite, widgetReady } from './harness.mjs';
import { seededRandom } from '../seeded-random.mjs';

const engine = await nodeEngine();
const site = useSite(before, after);
const hardware = engine.call({ op: 'presets' }).hardware;

const ringRequest = (gpus, extra = {}) => ({ op: 'allreduce', algorithm: 'ring', gpus, bytes: 2 ** 30, link: 'h100-sxm',
  link_kind: 'intra', ...extra });

/** The values the figure shows (numbers in cells, or the cell's data when the cells are colours only). */
async function shownBuffers(widget, n) {
  const cells = await widget.locator('.ring-cell').evaluateAll((els) =>
    els.map((el) => ({ g: Number(el.dataset.gpu), c: Number(el.dataset.chunk), text: el.querySelector('.ring-value')?.textContent ?? el.dataset.value })));
  const out = Array.from({ length: n }, () => Array(n).fill(null));
  for (const { g, c, text } of cells) out[g][c] = Number(text);
  return out;
}

const status = (widget) => widget.locator('[data-out="status"]');
const dataValue = async (widget, out) => Number(await widget.locator(`[data-out="${out}"]`).getAttribute('data-value'));

/** Sets the GPU slider like a reader dragging it. */
async function setGpus(widget, n) {
  await widget.locator('input[name="gpus"]').fill(String(n));
}

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
    if (k === 2) assert.match(await status(widget).textContent(), /^Scatter-reduce, round 2 of 3/);
    if (k === 4) assert.match(await status(widget).textContent(), /^All-gather, round 1 of 3/);
  }
  const sums = [0, 1, 2, 3].map((c) => trace.initial.reduce((s, row) => s + row[c], 0));
  assert.deepEqual(sums, [10, 14, 18, 22]);
  assert.deepEqual(await shownBuffers(widget, 4), [sums, sums, sums, sums]);
  assert.deepEqual((await widget.locator('.ring-strip-cell').allTextContents()).map(Number), sums);
  assert.match(await status(widget).textContent(), /every GPU holds the full sum/);
  assert.ok(await widget.locator('button[name="forward"]').isDisabled());
  assert.equal(await widget.locator('.ring-cell.done').count(), 16);
  await widget.screenshot({ path: new URL('ring-done.png', SCREENSHOTS).pathname });
  assert.deepEqual(problems, []);
  await context.close();
});

test('a step with motion sends one chunk per GPU, then the receivers add it in (circle and grid)', async () => {
  const { page, problems, context } = await openPage(site());
  const widget = await widgetReady(page, 'parascope-ring');
  const packets = (n) => page.waitForFunction((k) =>
    document.querySelector('parascope-ring').shadowRoot.querySelectorAll('.ring-packet').length === k, n);
  const round = (k) => page.waitForFunction((r) =>
    document.querySelector('parascope-ring').shadowRoot.querySelector('[data-out="status"]').dataset.round === r, String(k));
  await widget.locator('button[name="forward"]').click();
  await packets(4);
  await widget.screenshot({ path: new URL('ring-moving.png', SCREENSHOTS).pathname });
  await round(1);
  assert.equal(await widget.locator('.ring-packet').count(), 0);
  assert.equal(await widget.locator('.ring-cell.added').count(), 4);
  assert.deepEqual(await shownBuffers(widget, 4), engine.call(ringRequest(4, { trace: true })).rounds[0].buffers);
  await setGpus(widget, 12);
  await widget.locator('button[name="forward"]').click();
  await packets(12);
  await widget.screenshot({ path: new URL('ring-moving-12.png', SCREENSHOTS).pathname });
  await round(1);
  assert.deepEqual(await shownBuffers(widget, 12),
    engine.call(ringRequest(12, { trace: true, link_kind: 'inter' })).rounds[0].buffers);
  assert.deepEqual(problems, []);
  await context.close();
});

test('the figure is a slider over the rounds: arrows step, Home and End jump, space plays; its text follows', async () => {
  const { page, problems, context } = await openPage(site());
  await page.emulateMedia({ reducedMotion: 'reduce' });
  const widget = await widgetReady(page, 'parascope-ring');
  const slider = widget.locator('.ring-figure');
  assert.equal(await slider.getAttribute('role'), 'slider');
  assert.equal(await slider.getAttribute('aria-valuemax'), '6');
  await widget.locator('select[name="speed"]').selectOption('4');
  await slider.focus();
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('ArrowLeft');
  assert.equal(await status(widget).getAttribute('data-round'), '1');
  assert.equal(await slider.getAttribute('aria-valuenow'), '1');
  assert.match(await slider.getAttribute('aria-valuetext'), /^Ring all-reduce of 4 GPUs, round 1 of 6\. Scatter-reduce, round 1 of 3/);
  assert.match(await widget.locator('svg.ring-svg').getAttribute('aria-label'), /round 1 of 6/);
  await page.keyboard.press('End');
  assert.match(await slider.getAttribute('aria-valuetext'), /round 6 of 6\. All-gather, round 3 of 3: done/);
  await page.keyboard.press('Home');
  assert.equal(await slider.getAttribute('aria-valuenow'), '0');
  await page.keyboard.press(' ');
  assert.equal(await widget.locator('button[name="play"]').getAttribute('aria-pressed'), 'true');
  await page.waitForFunction(() =>
    document.querySelector('parascope-ring').shadowRoot.querySelector('[data-out="status"]').dataset.round === '6',
  null, { timeout: 5000 });
  await page.waitForFunction(() =>
    document.querySelector('parascope-ring').shadowRoot.querySelector('button[name="play"]').getAttribute('aria-pressed') === 'false');
  assert.equal(await status(widget).getAttribute('aria-live'), 'polite');
  assert.equal(await widget.locator('[data-out="summary"]').getAttribute('aria-live'), 'polite');
  assert.deepEqual(problems, []);
  await context.close();
});

test('16 GPUs on H100 (8 per node): "inside one node" is not offered, the readout and the chart\'s marker agree', async () => {
  const { page, problems, context } = await openPage(site());
  const widget = await widgetReady(page, 'parascope-ring');
  const intra = engine.call(ringRequest(4));
  assert.equal(await dataValue(widget, 'time'), intra.time);
  assert.equal(await dataValue(widget, 'busbw'), intra.busbw);
  assert.equal(await dataValue(widget, 'bytes-per-gpu'), intra.bytes_sent_per_gpu);
  await setGpus(widget, 16);
  const inter = engine.call(ringRequest(16, { link_kind: 'inter' }));
  assert.equal(await dataValue(widget, 'time'), inter.time);
  assert.equal(Number(await widget.locator('.chart-marker-dot').getAttribute('data-y')), inter.time);
  assert.equal(await widget.locator('[data-out="link"]').textContent(), 'InfiniBand NDR 400 Gb/s');
  assert.equal(await widget.locator('[data-out="placement"]').textContent(), 'spans nodes of 8: the network sets the pace');
  assert.match(await widget.locator('[data-out="summary"]').textContent(), /crosses the network/);
  assert.ok(await widget.locator('select[name="link"] option[value="intra"]').isDisabled());
  assert.equal(await widget.locator('select[name="link"]').inputValue(), 'inter');
  const hint = widget.locator('.ring-link .hint');
  assert.ok(await hint.isVisible());
  assert.match(await hint.textContent(), /A node holds 8 of these, so a ring of 16 spans nodes and crosses the network/);
  assert.match(await widget.locator('.ring-chart svg').getAttribute('aria-label'), new RegExp(`this ring of 16 GPUs, ${seconds(inter.time)}`));
  // Back inside one node, the reader's choice of NVLink returns.
  await setGpus(widget, 8);
  assert.equal(await widget.locator('select[name="link"]').inputValue(), 'intra');
  assert.equal(await dataValue(widget, 'time'), engine.call(ringRequest(8)).time);
  assert.equal(await hint.textContent(), '');
  for (const series of ['ring', 'tree', 'hierarchical']) {
    assert.equal(await widget.locator(`path[data-series="${series}"]`).count(), 1);
    assert.equal(await widget.locator(`circle.series-${series}`).count(), 14);
  }
  const last = engine.call({ op: 'allreduce', algorithm: 'hierarchical', gpus: 16384, bytes: 2 ** 30, link: 'h100-sxm' });
  const titles = await widget.locator('circle.series-hierarchical title').allTextContents();
  assert.equal(titles[13], `hierarchical, 16,384 GPUs: ${seconds(last.time)}`);
  assert.equal(await widget.locator('.note').count(), 0);
  assert.deepEqual(problems, []);
  await context.close();
});

/** Every visible text of the widget: its rendered font size in px and its box, for the ring figure's SVG apart. */
async function texts(widget) {
  return widget.evaluate((host) => {
    const out = [];
    const walker = document.createTreeWalker(host.shadowRoot, NodeFilter.SHOW_TEXT);
    for (let t = walker.nextNode(); t; t = walker.nextNode()) {
      const el = t.parentElement;
      if (!t.textContent.trim() || !el || el.closest('title, option, style')) continue;
      const box = el.getBoundingClientRect();
      if (box.width === 0 || getComputedStyle(el).visibility === 'hidden') continue;
      let px = parseFloat(getComputedStyle(el).fontSize);
      if (el instanceof SVGElement) px *= el.ownerSVGElement.getScreenCTM().a;
      out.push({ text: t.textContent, px, inRing: !!el.closest('.ring-svg'), box: { x: box.x, y: box.y, w: box.width, h: box.height } });
    }
    return out;
  });
}

for (const width of [360, 1280]) {
  test(`at ${width} px every text is 11 px or more and the ring's labels never overlap, 2 to 16 GPUs`, async () => {
    const { page, problems, context } = await openPage(site(), '', { width, height: 900 });
    await page.emulateMedia({ reducedMotion: 'reduce' });
    const widget = await widgetReady(page, 'parascope-ring');
    for (let n = 2; n <= 16; n += 1) {
      await setGpus(widget, n);
      await widget.locator('button[name="forward"]').click();
      const all = await texts(widget);
      for (const t of all) assert.ok(t.px >= 10.95, `${n} GPUs: "${t.text}" is ${t.px.toFixed(1)} px`);
      const ring = all.filter((t) => t.inRing);
      ring.forEach((a, i) => ring.forEach((b, j) => {
        if (j <= i) return;
        const o = a.box.x < b.box.x + b.box.w - 0.5 && b.box.x < a.box.x + a.box.w - 0.5
          && a.box.y < b.box.y + b.box.h - 0.5 && b.box.y < a.box.y + a.box.h - 0.5;
        assert.ok(!o, `${n} GPUs: "${a.text}" overlaps "${b.text}"`);
      }));
      // Numbers printed in cells stay inside their cell.
      const spill = await widget.locator('.ring-cell').evaluateAll((cells) => cells.filter((c) => {
        const v = c.querySelector('.ring-value');
        if (!v) return false;
        const a = v.getBoundingClientRect();
        const b = c.querySelector('rect').getBoundingClientRect();
        return a.left < b.left - 0.5 || a.right > b.right + 0.5;
      }).length);
      assert.equal(spill, 0, `${n} GPUs: ${spill} numbers overflow their cells`);
      if (n === 16 || n === 8) await widget.screenshot({ path: new URL(`ring-${n}-${width}.png`, SCREENSHOTS).pathname });
    }
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth);
    assert.ok(overflow <= width, `page scrolls sideways: ${overflow}px`);
    assert.deepEqual(problems, []);
    await context.close();
  });

  test(`at ${width} px the widget keeps one height for every GPU count, accelerator, link and round`, async () => {
    const { page, problems, context } = await openPage(site(), '', { width, height: 900 });
    await page.emulateMedia({ reducedMotion: 'reduce' });
    const widget = await widgetReady(page, 'parascope-ring');
    const height = async () => (await widget.boundingBox()).height;
    const first = await height();
    const seen = new Map();
    for (const hw of ['h100-sxm', 'tpu-v4', 'mi300x']) {
      await widget.locator('select[name="hardware"]').selectOption(hw);
      for (const link of ['inter', 'intra']) {
        for (const n of [2, 3, 4, 8, 9, 11, 16]) {
          await setGpus(widget, n);
          if (await widget.locator(`select[name="link"] option[value="${link}"]`).isEnabled()) {
            await widget.locator('select[name="link"]').selectOption(link);
          }
          for (const key of ['Home', 'ArrowRight', 'End']) {
            await widget.locator('.ring-figure').press(key);
            seen.set(`${hw} ${link} ${n} ${key}`, await height());
          }
        }
      }
    }
    for (const [state, h] of seen) assert.ok(Math.abs(h - first) < 1, `${state}: ${h}px, was ${first}px`);
    assert.deepEqual(problems, []);
    await context.close();
  });
}

test('light and dark, 360 and 1280 px: screenshots at 4, 8 and 16 GPUs', async () => {
  for (const width of [360, 1280]) {
    for (const scheme of ['light', 'dark']) {
      const { page, problems, context } = await openPage(site(), '', { width, height: 900 });
      await page.emulateMedia({ colorScheme: scheme, reducedMotion: 'reduce' });
      const widget = await widgetReady(page, 'parascope-ring');
      for (const n of [4, 8, 16]) {
        await setGpus(widget, n);
        for (let k = 0; k < n; k += 1) await widget.locator('button[name="forward"]').click();
        await widget.screenshot({ path: new URL(`ring-${scheme}-${width}-${n}.png`, SCREENSHOTS).pathname });
      }
      assert.deepEqual(problems, []);
      await context.close();
    }
  }
});

test('a seeded walk over the real controls always shows the engine\'s answer and never a refusal', async () => {
  const { page, problems, context } = await openPage(site(), '', { width: 1000, height: 900 });
  await page.emulateMedia({ reducedMotion: 'reduce' });
  const widget = await widgetReady(page, 'parascope-ring');
  const random = seededRandom(20261201);
  const pick = (xs) => xs[Math.floor(random() * xs.length)];
  const sizes = await widget.locator('select[name="bytes"] option').evaluateAll((os) => os.map((o) => o.value));
  for (let step = 0; step < 60; step += 1) {
    const what = pick(['gpus', 'hardware', 'link', 'bytes', 'step', 'step']);
    if (what === 'gpus') await setGpus(widget, 2 + Math.floor(random() * 15));
    if (what === 'hardware') await widget.locator('select[name="hardware"]').selectOption(pick(hardware.map((x) => x.id)));
    if (what === 'bytes') await widget.locator('select[name="bytes"]').selectOption(pick(sizes));
    if (what === 'link') {
      const offered = await widget.locator('select[name="link"] option:not([disabled])').evaluateAll((os) => os.map((o) => o.value));
      await widget.locator('select[name="link"]').selectOption(pick(offered));
    }
    if (what === 'step') await widget.locator('.ring-figure').press(pick(['ArrowRight', 'ArrowLeft', 'Home', 'End']));
    const gpus = Number(await widget.locator('input[name="gpus"]').inputValue());
    const hw = await widget.locator('select[name="hardware"]').inputValue();
    const linkKind = await widget.locator('select[name="link"]').inputValue();
    const bytes = Number(await widget.locator('select[name="bytes"]').inputValue());
    const r = engine.call({ op: 'allreduce', algorithm: 'ring', gpus, bytes, link: hw, link_kind: linkKind });
    const preset = hardware.find((x) => x.id === hw);
    assert.ok(gpus <= preset.gpus_per_node || linkKind === 'inter', `step ${step}: ${gpus} GPUs inside one ${hw} node`);
    assert.equal(await dataValue(widget, 'time'), r.time, `step ${step}`);
    assert.equal(Number(await widget.locator('.chart-marker-dot').getAttribute('data-y')), r.time);
    const trace = engine.call({ op: 'allreduce', algorithm: 'ring', gpus, bytes, link: hw, link_kind: linkKind, trace: true });
    const k = Number(await status(widget).getAttribute('data-round'));
    assert.deepEqual(await shownBuffers(widget, gpus), k ? trace.rounds[k - 1].buffers : trace.initial, `step ${step}`);
    assert.equal(await widget.locator('.note').count(), 0, `step ${step}: a note is standing`);
    const text = await widget.evaluate((host) => host.shadowRoot.textContent);
    assert.doesNotMatch(text, /\bNaN\b|Infinity(?! Fabric)|\bundefined\b/);
  }
  assert.deepEqual(problems, []);
  await context.close();
});
