// <parascope-memory> in Chromium, Firefox ESR and WebKitGTK: the figure's total is the engine's `step`
// memory_per_gpu.total for its run (the page's engine against the same module in node); every option of every control,
// each from the starting run, shows the engine's own peak for that run or, where the engine refuses it, a sentence for
// readers, and the control that moved says what it bought; the stage picker draws the engine's timeline of that
// stage; the arrow keys walk the step on the chart; a link opens its state. PARASCOPE_ENGINES narrows the engines.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';

import { ATTRIBUTES } from '../../web/widgets/memory/attributes.js';
import { CONTROLS } from '../../web/widgets/memory/model/choices.js';
import { runFields, timelineRequest } from '../../web/widgets/memory/model/request.js';
import { readState } from '../../web/widgets/memory/model/state.js';
import { nodeEngine } from '../js/node-engine.mjs';
import { ENGINES, serveSite, browserPages, attributeReader, setControl, focusOn, unchangedWrites } from './figure-suite.mjs';

const engine = await nodeEngine();
const presets = engine.call({ op: 'presets' });
/** The `step` request for the run the figure sends as `memory_timeline`. */
const stepRequest = (s, p) => ({ op: 'step', ...runFields(s, p) });
const TAG = 'parascope-memory';

/** The figure's state from attribute values, as the element reads them (defaults where none is given). */
function stateFrom(values) {
  return readState(attributeReader(values), ATTRIBUTES, presets);
}

/** The engine's answers for a state, in node: { step, timeline } or { refused }. */
function answers(s) {
  try {
    return { step: engine.call(stepRequest(s, presets)), timeline: engine.call(timelineRequest(s, presets, s.stage)) };
  } catch (err) {
    return { refused: err };
  }
}

// ---- page functions (sent as source text: they see only their arguments; `win` is the page's window) ----

/**
 * What the figure shows: its total, the parts it stacks, the problem sentence, hints (the controls' descriptions, and
 * how many are drawn), what the last move bought, the controls' height, the moment walked to.
 */
function shown(win, tag) {
  const root = win.document.querySelector(tag).shadowRoot;
  const problem = root.querySelector('[data-out="problem"]');
  return {
    total: root.querySelector('[data-out="headline"]').dataset.value || null,
    parts: [...root.querySelectorAll('.mem-legend li')].map((li) => Number(li.dataset.value)),
    paths: root.querySelectorAll('.mem-part').length,
    problem: problem.hidden ? null : problem.textContent,
    hints: [...root.querySelectorAll('.hint:not([hidden])')].map((x) => x.textContent),
    hintsDrawn: [...root.querySelectorAll('.hint:not([hidden])')].filter((x) => x.getClientRects().length).length,
    buys: root.querySelector('.mem-buys').textContent,
    controlsHeight: root.querySelector('.mem-controls').getBoundingClientRect().height,
    segment: root.querySelector('[data-out="moment"]').dataset.segment ?? null,
    stage: root.querySelector('input[name="stage"]').value,
    options: Object.fromEntries(
      [...root.querySelectorAll('.mem-controls select')].map((s) => [s.name, [...s.options].map((o) => o.value)]),
    ),
    values: Object.fromEntries([...root.querySelectorAll('.mem-controls select')].map((s) => [s.name, s.value])),
  };
}

// ---- the tests ----

const site = serveSite();

for (const name of ENGINES) {
  describe(`${name}: one GPU's memory through one step`, () => {
    const onPage = browserPages(name, site, { start: TAG, what: 'the memory figure to start' });

    test("the total is step's memory_per_gpu.total, and every option of every control is the engine's", async () => {
      await onPage('', async (page) => {
        const first = await page.evaluate(shown, TAG);
        const start = answers(stateFrom({}));
        assert.equal(first.total, String(start.step.memory_per_gpu.total), 'the figure total is step total');
        assert.equal(first.paths, 7);
        const stacked = first.parts.reduce((a, b) => a + b, 0);
        assert.ok(Math.abs(stacked / start.step.memory_per_gpu.total - 1) < 1e-12, 'the parts add up to it');
        let refused = 0;
        for (const [, attr] of CONTROLS) {
          const original = first.values[attr];
          for (const value of first.options[attr]) {
            if (value === original) continue;
            await page.evaluate(setControl, TAG, `select[name="${attr}"]`, value);
            const now = await page.evaluate(shown, TAG);
            const mine = answers(stateFrom({ [attr]: value === '' ? null : value }));
            const what = `${attr}=${value}`;
            if (mine.refused) {
              refused += 1;
              assert.ok(now.problem, `${what}: a sentence where the engine refuses`);
              assert.notEqual(now.problem, mine.refused.message, `${what}: not the engine's message`);
              assert.equal(now.total, null, `${what}: no number for a refused run`);
            } else {
              assert.equal(now.problem, null, what);
              assert.equal(now.total, String(mine.timeline.peak.total), what);
              assert.equal(now.total, String(mine.step.memory_per_gpu.total), `${what}: step's total`);
              assert.equal(now.hints.length, 1, `${what}: the moved control says what it bought`);
              assert.equal(now.buys, now.hints[0], `${what}: the line under the controls says it, once`);
              assert.equal(now.hintsDrawn, 0, `${what}: not drawn again under the control`);
              assert.equal(now.controlsHeight, first.controlsHeight, `${what}: the controls' rows keep their height`);
            }
            await page.evaluate(setControl, TAG, `select[name="${attr}"]`, original);
            assert.equal((await page.evaluate(shown, TAG)).total, first.total, `${what}: back to the start`);
          }
        }
        assert.ok(refused > 0 && refused < 60, `${refused} refusals`);
      });
    });

    test('the stage picker draws that stage; the arrow keys walk the step', async () => {
      await onPage('', async (page) => {
        await page.evaluate(setControl, TAG, 'input[name="stage"]', 5);
        const five = await page.evaluate(shown, TAG);
        const mine = answers({ ...stateFrom({}), stage: 5 });
        assert.equal(five.total, String(mine.timeline.peak.total));
        assert.equal(five.stage, '5');
        assert.ok(await page.evaluate(focusOn, TAG, '.mem-plot'), 'the chart takes focus');
        const at = five.segment;
        await page.press('ArrowRight');
        await page.waitFor((win, tag, s) => win.document.querySelector(tag).shadowRoot
          .querySelector('[data-out="moment"]').dataset.segment !== s, [TAG, at], { what: 'the arrow key to walk' });
        await page.press('Home');
        await page.waitFor((win, tag) => win.document.querySelector(tag).shadowRoot
          .querySelector('[data-out="moment"]').dataset.segment === '0', [TAG], { what: 'Home to the start' });
        await page.press('End');
        // the last drawn step: the last stretch, or the fullest of the last few grouped into its pixel
        const n = mine.timeline.segments.start.length;
        const end = await page.waitFor((win, tag) => {
          const s = win.document.querySelector(tag).shadowRoot.querySelector('[data-out="moment"]').dataset.segment;
          return s !== '0' ? Number(s) : null;
        }, [TAG], { what: 'End to the last stretch' });
        assert.ok(end >= n - 3 && end < n, `End at ${end} of ${n}`);
      });
    });

    test('a stage press writes only what it changes: no line or attribute rewritten as it was', async () => {
      await onPage('', async (page) => {
        const writes = await page.evaluate(unchangedWrites, TAG, 'input[name="stage"]', [1, 2, 3, 2, 7, 0]);
        assert.deepEqual(writes, []);
        assert.equal((await page.evaluate(shown, TAG)).stage, '0', 'the presses moved the stage');
      });
    });

    test('a link opens its state; a link the engine refuses reads as a sentence', async () => {
      await onPage('#memory.recompute=full&memory.tp=8&memory.zero=3', async (page) => {
        const now = await page.evaluate(shown, TAG);
        const mine = answers(stateFrom({ recompute: 'full', tp: 8, zero: '3' }));
        assert.equal(now.total, String(mine.step.memory_per_gpu.total));
        assert.deepEqual([now.values.recompute, now.values.tp, now.values.zero], ['full', '8', '3']);
      });
      await onPage('#memory.tp=3', async (page) => {
        const now = await page.evaluate(shown, TAG);
        assert.match(now.problem, /Tensor parallelism must divide the attention heads/);
        assert.equal(now.total, null);
      });
    });
  });
}
