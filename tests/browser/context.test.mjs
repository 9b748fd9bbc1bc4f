// <parascope-context> in Chromium, Firefox ESR and WebKitGTK: every cp and sequence length the sliders reach shows
// the engine's own numbers for that setting (the figures' module in node, the same request); the arrow keys, Home
// and End walk the ring's steps and the all-gather variant has two; a split the sequence cannot take reads as a
// sentence; light and dark at 1280 and 360 px are drawn to screenshots/<engine>/context-*.png.
// PARASCOPE_ENGINES=firefox,webkit narrows the engines.
import assert from 'node:assert/strict';
import { mkdir } from 'node:fs/promises';
import { describe, test } from 'node:test';

import { ATTRIBUTES as A } from '../../web/widgets/context/attributes.js';
import { CP_VALUES, SEQUENCES, contextRequest } from '../../web/widgets/context/model/request.js';
import { nodeEngine } from '../js/node-engine.mjs';
import { seconds } from '../../web/lib/format.js';
import { launchEngine } from './engines/index.mjs';
import { ENGINES, serveSite, browserPages, startFigure, setControl, focusOn, unchangedWrites } from './figure-suite.mjs';

const engine = await nodeEngine();
const presets = engine.call({ op: 'presets' });
const DEFAULTS = Object.fromEntries(Object.entries(A).map(([k, v]) => [k, v.fallback]));
const answer = (patch) => engine.call(contextRequest(presets.models, { ...DEFAULTS, ...patch }));
const TAG = 'parascope-context';

// ---- page functions (sent as source text: they see only their arguments; `win` is the page's window) ----

/** What the figure shows: its facts' engine values, the stepper's position and count, the problem sentence. */
function shown(win, tag) {
  const root = win.document.querySelector(tag).shadowRoot;
  const value = (key) => root.querySelector(`[data-out="${key}"]`)?.dataset.value ?? null;
  const problem = root.querySelector('[data-out="problem"]');
  const box = root.querySelector('.context-figure');
  return {
    exposed: value('exposed'),
    kv: value('kv'),
    breakEven: value('break-even'),
    balance: value('balance'),
    position: Number(box.getAttribute('aria-valuenow')),
    positions: Number(box.getAttribute('aria-valuemax')),
    // the drawing shown (the other cp's drawings are kept hidden, element.js showFigure)
    current: root.querySelectorAll('.context-slot:not([data-off]) .context-cell.current').length,
    drawings: root.querySelectorAll('.context-slot:not([data-off])').length,
    problem: problem.hidden ? null : problem.textContent,
    lanes: root.querySelector('[data-out="lanes-note"]')?.textContent ?? '',
    // the forward lane's attention bars, as their titles say (lanes-svg.js)
    computeBars: [...(root.querySelector('.context-lanes')?.querySelectorAll('rect.context-bar.compute') ?? [])]
      .slice(0, Number(box.getAttribute('aria-valuemax'))).map((r) => r.querySelector('title').textContent),
    text: root.textContent,
  };
}

/** From now on counts the figure's context_ring requests into win.__asked (the test wraps its engine's call). */
function countRequests(win, tag) {
  const el = win.document.querySelector(tag);
  const call = el.engine.call;
  win.__asked = 0;
  el.engine.call = (request) => {
    if (request.op === 'context_ring') win.__asked += 1;
    return call(request);
  };
}

/**
 * Moves the model menu to `model` if given, then the cp slider to each of `indices` at once (input events, as presses
 * do); answers the requests asked by then and whether the break-even chart shows itself pending, and counts again at
 * the next frame (win.__atFrame).
 */
function pressCp(win, tag, indices, model = null) {
  const root = win.document.querySelector(tag).shadowRoot;
  const input = root.querySelector('input[name="cp"]');
  win.__asked = 0;
  win.__atFrame = null;
  if (model) {
    const select = root.querySelector('select[name="model"]');
    select.value = model;
    select.dispatchEvent(new win.Event('change', { bubbles: true }));
  }
  for (const i of indices) {
    input.value = String(i);
    input.dispatchEvent(new win.Event('input', { bubbles: true }));
  }
  win.requestAnimationFrame(() => {
    win.__atFrame = win.__asked;
  });
  const curve = root.querySelector('[data-out="curve"]');
  return { asked: win.__asked, pending: curve.hasAttribute('data-pending') && curve.getAttribute('aria-busy') === 'true' };
}

/** The break-even chart once filled (null while pending): its drawing and its size. */
function filledCurve(win, tag) {
  const box = win.document.querySelector(tag).shadowRoot.querySelector('[data-out="curve"]');
  if (box.hasAttribute('data-pending') || box.hasAttribute('aria-busy')) return null;
  return { svg: box.querySelector('svg').outerHTML, height: Math.round(box.getBoundingClientRect().height) };
}

/** Whether the figure's idle work is done (element.js, warmUp): every cp's answer, drawing and chart ladder kept. */
const warmed = (win, tag) => !win.document.querySelector(tag).warming;

/** How many drawings the figure holds, and how many are shown. */
function drawings(win, tag) {
  const slots = [...win.document.querySelector(tag).shadowRoot.querySelectorAll('.context-slot')];
  return { built: slots.length, shown: slots.filter((s) => !s.hasAttribute('data-off')).length };
}

const moved = (win, tag, before) =>
  Number(win.document.querySelector(tag).shadowRoot.querySelector('.context-figure').getAttribute('aria-valuenow')) !==
  before;

// ---- the tests ----

const site = serveSite();

for (const name of ENGINES) {
  describe(`${name}: context parallelism step by step`, () => {
    const onPage = browserPages(name, site, { start: TAG });

    test("every cp and length on the sliders shows the engine's numbers; keys walk the ring", async () => {
      await onPage('', async (page) => {
        const first = await page.evaluate(shown, TAG);
        const a = answer({});
        assert.deepEqual([first.exposed, first.kv, first.breakEven], [String(a.p2p.exposed_per_step), String(a.kv_bytes), String(a.break_even.sequence)]);
        assert.deepEqual([first.position, first.positions], [1, a.cp]);
        for (const [i, cp] of CP_VALUES.entries()) {
          await page.evaluate(setControl, TAG, 'input[name="cp"]', i);
          const s = await page.evaluate(shown, TAG);
          const b = answer({ cp });
          assert.deepEqual([s.exposed, s.balance, s.positions], [String(b.p2p.exposed_per_step), String(b.balance.zigzag_max_over_mean), cp], `cp ${cp}`);
          assert.equal(s.current, 4 * cp, 'each GPU computes its two query chunks against two key chunks');
          assert.equal(s.drawings, 1, 'one drawing shown');
        }
        await page.evaluate(setControl, TAG, 'input[name="cp"]', CP_VALUES.indexOf(4));
        for (const [i, sequence] of SEQUENCES.entries()) {
          await page.evaluate(setControl, TAG, 'input[name="sequence"]', i);
          const s = await page.evaluate(shown, TAG);
          const b = answer({ sequence });
          assert.deepEqual([s.exposed, s.kv], [String(b.p2p.exposed_per_step), String(b.kv_bytes)], `${sequence} tokens`);
        }
        assert.ok(await page.evaluate(focusOn, TAG, '.context-figure'));
        await page.press('ArrowRight');
        await page.waitFor(moved, [TAG, 1], { what: 'the arrow key to step the ring' });
        await page.press('End');
        await page.waitFor((win, tag) => win.document.querySelector(tag).shadowRoot.querySelector('.context-figure').getAttribute('aria-valuenow') === '4', [TAG], { what: 'End' });
        await page.press('Home');
        await page.waitFor(moved, [TAG, 4], { what: 'Home' });
        await page.evaluate(setControl, TAG, 'select[name="variant"]', 'all-gather');
        const g = await page.evaluate(shown, TAG);
        assert.equal(g.positions, 2);
        assert.equal(g.exposed, String(answer({ sequence: SEQUENCES.at(-1) }).all_gather.exposed_per_step));
        await page.evaluate(setControl, TAG, 'select[name="split"]', 'contiguous');
        assert.equal((await page.evaluate(shown, TAG)).balance, String(a.balance.contiguous_max_over_mean));
        // The lanes: the all-gather's own attention time under contiguous chunks, then the contiguous ring's steps.
        const last = answer({ sequence: SEQUENCES.at(-1), split: 'contiguous' });
        assert.ok((await page.evaluate(shown, TAG)).lanes.includes(seconds(last.all_gather.contiguous_forward_compute_time)));
        await page.evaluate(setControl, TAG, 'select[name="variant"]', 'p2p');
        const c = await page.evaluate(shown, TAG);
        assert.ok(c.lanes.includes(seconds(last.p2p.contiguous.forward.compute_time)), c.lanes);
        assert.deepEqual(c.computeBars, last.p2p.contiguous.forward.steps.map((x) => `compute: ${seconds(x.compute_time)}`));
      });
    });

    // Issue 30: a cp not visited yet asked the engine for its answer and its chart's ladder and built its drawing (4cp²
    // blocks) in the press's frame, 32–59 ms at cp 16. While the page is idle after the first drawing, the figure now
    // asks every cp's answers and builds every drawing, so a first press finds them kept: no request, its chart drawn.
    test("while the page is idle, every cp's answers and drawing are made: a first press asks nothing", async () => {
      let reference;
      await onPage('#context.cp=16', async (page) => {
        reference = await page.waitFor(filledCurve, [TAG], { what: 'the chart at cp 16' });
      });
      await onPage('', async (page) => {
        await page.waitFor(warmed, [TAG], { what: 'the idle work done' });
        assert.deepEqual(await page.evaluate(drawings, TAG), { built: CP_VALUES.length, shown: 1 });
        await page.evaluate(countRequests, TAG);
        const height = (await page.evaluate(filledCurve, TAG)).height;
        for (const cp of [8, 16, 2]) {
          const press = await page.evaluate(pressCp, TAG, [CP_VALUES.indexOf(cp)]);
          assert.deepEqual(press, { asked: 0, pending: false }, `cp ${cp}: no request, the chart drawn in its frame`);
        }
        await page.evaluate(pressCp, TAG, [CP_VALUES.indexOf(16)]);
        const chart = await page.evaluate(filledCurve, TAG);
        assert.deepEqual(chart, { svg: reference.svg, height }, "the chart is cp 16's, at the same height");
        assert.deepEqual(await page.evaluate(drawings, TAG), { built: CP_VALUES.length, shown: 1 });
        await page.waitFor(warmed, [TAG], { what: 'nothing left to do' });
        assert.equal(await page.evaluate((win) => win.__asked), 0, 'nothing asked twice');
      });
    });

    // A press before the idle work reaches its setting (here with the model changed in the same task) paints with the
    // requests of its own settings; the break-even chart's ladder is asked after its frame, and the chart drawn is the
    // newest cp's, never an older press's.
    test("a press before the idle work paints with its own requests; the chart then fills for the newest cp", async () => {
      const model = 'llama3-70b';
      let reference;
      await onPage(`#context.cp=16&context.model=${model}`, async (page) => {
        reference = await page.waitFor(filledCurve, [TAG], { what: 'the chart at cp 16' });
      });
      await onPage('', async (page) => {
        await page.waitFor(warmed, [TAG], { what: 'the idle work done' });
        await page.evaluate(countRequests, TAG);
        const height = (await page.evaluate(filledCurve, TAG)).height;
        // The model's change asks cp 4; the presses cp 2 and 16: one request each before the frame, none at it.
        const two = await page.evaluate(pressCp, TAG, [CP_VALUES.indexOf(2), CP_VALUES.indexOf(16)], model);
        assert.deepEqual(two, { asked: 3, pending: true }, 'a request per setting, the chart marked pending');
        const atFrame = await page.waitFor((win) => win.__atFrame !== null && { asked: win.__atFrame });
        assert.equal(atFrame.asked, 3, "no request between the presses and their frame");
        const filled = await page.waitFor(filledCurve, [TAG], { what: 'the chart at cp 16 filled' });
        assert.deepEqual(filled, { svg: reference.svg, height }, "the chart is cp 16's, at the same height");
        // Away and back at once: the chart drawn is current again.
        const back = await page.evaluate(pressCp, TAG, [CP_VALUES.indexOf(2), CP_VALUES.indexOf(16)]);
        assert.deepEqual(back.pending, false);
        await page.waitFor(warmed, [TAG], { what: "the idle work done for the model's settings" });
        const cached = await page.evaluate(pressCp, TAG, [CP_VALUES.indexOf(8)]);
        assert.deepEqual(cached, { asked: 0, pending: false });
      });
    });

    test('a press on either slider writes only what it changes: no line or attribute rewritten as it was', async () => {
      await onPage('', async (page) => {
        for (const name of ['cp', 'sequence']) {
          const writes = await page.evaluate(unchangedWrites, TAG, `input[name="${name}"]`, [1, 2, 1, 3, 2]);
          assert.deepEqual(writes, [], name);
        }
      });
    });

    test('a split the sequence cannot take reads as a sentence, and a good one brings the numbers back', async () => {
      await onPage('#context.cp=6&context.sequence=32768', async (page) => {
        const s = await page.evaluate(shown, TAG);
        assert.match(s.problem, /do not cut into 12 equal chunks for 6 GPUs/);
        assert.ok(!/must divide/.test(s.text), "the engine's own message is not shown");
        await page.evaluate(setControl, TAG, 'input[name="cp"]', 0);
        const t = await page.evaluate(shown, TAG);
        assert.equal(t.problem, null);
        assert.equal(t.exposed, String(answer({ cp: 2 }).p2p.exposed_per_step));
      });
    });

    // The walk found "backward" running into its lane's first bar in WebKitGTK (its sans is the widest of the three).
    test("each lane's name ends before its bars start, in both variants and at both widths", async () => {
      for (const width of [1280, 360]) {
        for (const variant of ['p2p', 'all-gather']) {
          await onPage(
            `#context.variant=${variant}`,
            async (page) => {
              const gap = await page.evaluate((win, tag) => {
                const lanes = win.document.querySelector(tag).shadowRoot.querySelector('.context-lanes');
                const names = [...lanes.querySelectorAll('.context-label.lane')].map((t) => t.getBBox());
                const bars = [...lanes.querySelectorAll('rect.context-bar')].map((r) => r.getBBox().x);
                return Math.min(...bars) - Math.max(...names.map((b) => b.x + b.width));
              }, TAG);
              assert.ok(gap >= 4, `${variant} at ${width} px: a lane's name reaches ${-gap} units past its bars' start`);
            },
            { width, height: 1000 },
          );
        }
      }
    });

    test('light and dark at 1280 and 360 px: drawn, nothing wider than the page', async () => {
      const dir = new URL(`./screenshots/${name}/`, import.meta.url);
      await mkdir(dir, { recursive: true });
      for (const scheme of ['light', 'dark']) {
        const themed = await launchEngine(name, { colorScheme: scheme });
        try {
          for (const width of [1280, 360]) {
            const page = await themed.open(`${site.url}#context`, { width, height: 1000 });
            try {
              await startFigure(page, TAG);
              const wide = await page.evaluate((win) => win.document.documentElement.scrollWidth <= win.innerWidth + 1);
              assert.ok(wide, `${width} px: the page scrolls sideways`);
              await page.screenshot(new URL(`context-${width}-${scheme}.png`, dir).pathname);
              assert.deepEqual(await page.problems(), []);
            } finally {
              await page.close();
            }
          }
        } finally {
          await themed.close();
        }
      }
    });
  });
}
