// <parascope-run> and <parascope-nccl> in Chromium, Firefox ESR and WebKitGTK: every position of the GPU-count and
// failure-rate sliders shows the engine's own answer for that run (the planner's module in node, the same request);
// the arrow keys move the sliders; a refused run reads as a sentence; a malformed nccl-tests paste names its line;
// a pasted output is fitted as the engine fits it, and "use my cluster" puts the fitted links into the whole-run
// figure and its permalink. PARASCOPE_ENGINES=firefox,webkit narrows the engines.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, test } from 'node:test';

import { ATTRIBUTES } from '../../web/widgets/run/attributes.js';
import { runValues } from '../../web/widgets/nccl/model/fit-view.js';
import { RATE_STEPS, rateAt, runRequest } from '../../web/widgets/run/model/request.js';
import { readState } from '../../web/widgets/run/model/state.js';
import { nodePlannerEngine } from '../js/node-engine.mjs';
import { ENGINES, serveSite, browserPages, startFigure, attributeReader, setControl, focusOn } from './figure-suite.mjs';

const engine = await nodePlannerEngine();
const presets = engine.call({ op: 'presets' });
const fixture = (name) => readFileSync(new URL(`../fixtures/nccl-tests/${name}`, import.meta.url), 'utf8');

/** The figure's state from attribute values, as the element reads them (defaults where none is given). */
function stateFrom(values) {
  return readState(attributeReader(values), ATTRIBUTES, presets);
}
const reference = engine.call(runRequest(stateFrom({}))).failures.rate_per_gpu_hour;

// ---- page functions (sent as source text: they see only their arguments; `win` is the page's window) ----

function ready(win, tag) {
  const el = win.document.querySelector(tag);
  return Boolean(el?.hasAttribute('data-ready') && !el.hasAttribute('data-loading'));
}

/** What the run figure shows: the scale slider's position and count, the goodput, days and the problem sentence. */
function runShown(win) {
  const root = win.document.querySelector('parascope-run').shadowRoot;
  const scale = root.querySelector('input[name="gpus"]');
  const value = (key) => root.querySelector(`[data-out="${key}"]`)?.dataset.value ?? null;
  const problem = root.querySelector('[data-out="problem"]');
  return {
    position: Number(scale.value),
    positions: Number(scale.max) + 1,
    gpus: Number(scale.getAttribute('aria-valuetext').replace(/,/g, '')),
    goodput: value('goodput'),
    days: value('days'),
    dots: root.querySelectorAll('.run-dot.goodput').length,
    problem: problem.hidden ? null : problem.textContent,
    config: root.querySelector('[data-out="config"]').textContent,
  };
}

/** Types `text` into the nccl figure's box (one input event, as a paste) and waits for nothing. */
function pasteInto(win, text) {
  const box = win.document.querySelector('parascope-nccl').shadowRoot.querySelector('textarea');
  box.value = text;
  box.dispatchEvent(new win.Event('input', { bubbles: true }));
  return true;
}

/** The nccl figure's status and fitted bandwidth once its paste is fitted (the status no longer the last one). */
function ncclShown(win, previous) {
  const root = win.document.querySelector('parascope-nccl').shadowRoot;
  const status = root.querySelector('[data-out="status"]');
  const text = status.textContent;
  if (text === previous || /Loading/.test(text)) return null;
  return { status: text, code: status.dataset.code, bandwidth: root.querySelector('[data-out="fit"]').dataset.bandwidth ?? null,
    invalid: root.querySelector('textarea').getAttribute('aria-invalid') };
}

/** The goodput curve's dots, as drawn (each its height in the plot). */
function goodputDots(win) {
  return [...win.document.querySelector('parascope-run').shadowRoot.querySelectorAll('.run-dot.goodput')]
    .map((d) => d.getAttribute('cy'));
}

function clickUse(win) {
  win.document.querySelector('parascope-nccl').shadowRoot.querySelector('button.nccl-use').click();
  return true;
}

function hash(win) {
  return win.location.hash;
}

// ---- the tests ----

const site = serveSite();

for (const name of ENGINES) {
  describe(`${name}: the whole run and your cluster's network`, () => {
    const onPage = browserPages(name, site);
    const start = (page, tag) => startFigure(page, tag, { isReady: ready });

    test('every GPU count and failure rate on the sliders shows the engine\'s answer for that run', async () => {
      await onPage('', async (page) => {
        await start(page, 'parascope-run');
        const first = await page.evaluate(runShown);
        assert.equal(first.gpus, 16_384);
        assert.equal(first.goodput, String(engine.call(runRequest(stateFrom({}))).goodput));
        assert.equal(first.dots, first.positions, 'one dot per count the engine answered');
        for (let i = 0; i < first.positions; i += 1) {
          await page.evaluate(setControl, 'parascope-run', 'input[name="gpus"]', i);
          const shown = await page.evaluate(runShown);
          const a = engine.call(runRequest(stateFrom({}), shown.gpus));
          assert.deepEqual([shown.goodput, shown.days], [String(a.goodput), String(a.wall_clock_days)], `${shown.gpus} GPUs`);
        }
        await page.evaluate(setControl, 'parascope-run', 'input[name="gpus"]', first.position);
        for (let i = 0; i < RATE_STEPS.length; i += 1) {
          await page.evaluate(setControl, 'parascope-run', 'input[name="failure-rate"]', i);
          const shown = await page.evaluate(runShown);
          const a = engine.call(runRequest({ ...stateFrom({}), failureRate: rateAt(reference, i) }));
          assert.equal(shown.goodput, String(a.goodput), `rate step ${i}`);
          assert.equal(shown.problem, null);
        }
        // keyboard: the arrow keys move a focused slider one step
        assert.ok(await page.evaluate(focusOn, 'parascope-run', 'input[name="failure-rate"]'));
        await page.waitFor((win) => !win.document.querySelector('parascope-run').shadowRoot
          .querySelector('[data-curve-pending]'), [], { what: 'the curve at the last rate' });
        const dotsBefore = await page.evaluate(goodputDots);
        const before = await page.evaluate(runShown);
        await page.press('ArrowLeft');
        await page.waitFor((win, g) => win.document.querySelector('parascope-run').shadowRoot
          .querySelector('[data-out="goodput"]')?.dataset.value !== g, [before.goodput], { what: 'the arrow key to move the rate' });
        const after = await page.evaluate(runShown);
        const a = engine.call(runRequest({ ...stateFrom({}), failureRate: rateAt(reference, RATE_STEPS.length - 2) }));
        assert.equal(after.goodput, String(a.goodput));
        assert.ok(Number(after.goodput) > Number(before.goodput));
        // the curve follows in the tasks after the move (one `run` call per count), ending at this rate's curve
        await page.waitFor((win) => !win.document.querySelector('parascope-run').shadowRoot
          .querySelector('[data-curve-pending]'), [], { what: 'the curve at the new rate' });
        const curve = await page.evaluate(goodputDots);
        assert.equal(curve.length, (await page.evaluate(runShown)).positions, 'one dot per count answered');
        assert.notDeepEqual(curve, dotsBefore, 'the curve is the new rate\'s');
      });
    });

    test('a refused run reads as a sentence, and the link keeps the reader\'s values', async () => {
      await onPage('#run.price=-2&run.gpus=4096', async (page) => {
        await start(page, 'parascope-run');
        const shown = await page.evaluate(runShown);
        assert.match(shown.problem, /price per GPU-hour/);
        assert.equal(shown.goodput, null, 'no number for a refused run');
        assert.equal(shown.gpus, 4096);
        await page.evaluate(setControl, 'parascope-run', 'input[name="price"]', 3);
        await page.waitFor((win) => Boolean(win.document.querySelector('parascope-run').shadowRoot
          .querySelector('[data-out="goodput"]')), [], { what: 'the run answered' });
        const a = engine.call(runRequest(stateFrom({ price: 3, gpus: 4096 })));
        const cost = await page.evaluate((win) => win.document.querySelector('parascope-run').shadowRoot
          .querySelector('[data-out="cost"]').dataset.value);
        assert.equal(cost, String(a.cost.dollars));
        await page.waitFor(hash, [], { what: 'the address to follow' });
        await page.waitFor((win) => win.location.hash.includes('run.price=3'), [], { what: 'the price in the link' });
      });
    });

    test('nccl-tests: a malformed paste names its line; a real one is fitted and runs the whole-run figure', async () => {
      await onPage('#nccl.example=none', async (page) => {
        await start(page, 'parascope-nccl');
        let status = await page.evaluate((win) => win.document.querySelector('parascope-nccl').shadowRoot
          .querySelector('[data-out="status"]').textContent);
        const broken = fixture('h200-2x8-all-reduce.txt').replace(/(\n\s+2147483648\s+\S+)/, '$1 garbage');
        await page.evaluate(pasteInto, broken);
        const refused = await page.waitFor(ncclShown, [status], { what: 'the paste refused' });
        assert.equal(refused.status, 'Line 26 of the paste does not read as an nccl-tests row; check that it was copied whole.');
        assert.equal(refused.invalid, 'true');
        status = refused.status;
        const text = fixture('a100-1x8-all-reduce.txt');
        await page.evaluate(pasteInto, text);
        const fitted = await page.waitFor(ncclShown, [status], { what: 'the paste fitted' });
        const fit = engine.call({ op: 'nccl_fit', text });
        assert.equal(fitted.bandwidth, String(fit.tables[0].bandwidth));
        assert.equal(fitted.invalid, 'false');
        // two outputs in one paste: one table each, the second picked from the table menu
        status = fitted.status;
        const both = `${text}\n${fixture('h200-2x8-all-reduce.txt')}`;
        await page.evaluate(pasteInto, both);
        await page.waitFor(ncclShown, [status], { what: 'the two tables fitted' });
        const twoFits = engine.call({ op: 'nccl_fit', text: both });
        assert.equal(await page.evaluate(setControl, 'parascope-nccl', 'select[name="table"]', 1), '1');
        const second = await page.evaluate((win) => {
          const root = win.document.querySelector('parascope-nccl').shadowRoot;
          return { hidden: root.querySelector('select[name="table"]').closest('label').hidden,
            options: root.querySelectorAll('select[name="table"] option').length,
            bandwidth: root.querySelector('[data-out="fit"]').dataset.bandwidth,
            dots: root.querySelectorAll('.nccl-dot').length };
        });
        assert.deepEqual(second, { hidden: false, options: 2, bandwidth: String(twoFits.tables[1].bandwidth), dots: 5 });
        await start(page, 'parascope-run');
        await page.evaluate(clickUse);
        await page.waitFor((win) => /your measured network/.test(win.document.querySelector('parascope-run').shadowRoot
          .querySelector('[data-out="config"]').textContent), [], { what: 'the run on your network' });
        const shown = await page.evaluate(runShown);
        const a = engine.call(runRequest(stateFrom(runValues(twoFits))));
        assert.equal(shown.goodput, String(a.goodput));
        assert.notEqual(a.step_time, engine.call(runRequest(stateFrom({}))).step_time, 'the fitted links change the step');
        await page.waitFor((win) => win.location.hash.includes('run.intra-bandwidth=')
          && win.location.hash.includes('run.inter-bandwidth='), [], { what: 'the links in the link' });
        // the axes, the MFU figure, the step timeline and the planner take the same links (lib/model/network.js), say
        // so, and keep them
        for (const key of ['axes', 'mfu', 'step', 'planner']) {
          await page.waitFor((win, k) => win.location.hash.includes(`${k}.inter-bandwidth=`)
            && /your measured network/.test(win.document.querySelector(`parascope-${k}`).shadowRoot
              .querySelector('[data-note="network"]')?.textContent ?? ''), [key], { what: `the links in ${key}` });
        }
        const used = await page.evaluate((win) => win.document.querySelector('parascope-nccl').shadowRoot
          .querySelector('[data-out="used"]').textContent);
        assert.match(used, /^the four axes, the MFU figure, the step timeline, the planner, the whole run now run on your links/);
      });
    });
  });
}
