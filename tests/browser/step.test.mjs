// <parascope-step> in Chromium, Firefox ESR and WebKitGTK: the step it draws is the engine's (the timeline op in node,
// the same request), every option of every control shows the engine's answer for that run or a sentence for a refusal;
// only the stages on screen are asked for; keys, the wheel and a drag move the window; pointing at an event reads its
// numbers; the Chrome trace download is the engine's file; 360 px fits. PARASCOPE_ENGINES=firefox,webkit narrows.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';

import { ATTRIBUTES } from '../../web/widgets/step/attributes.js';
import { readFileSync } from 'node:fs';
import { traceStep } from '../../web/widgets/step/model/kineto.js';
import { timelineRequest } from '../../web/widgets/step/model/request.js';
import { timelineErrorText } from '../../web/widgets/step/model/text.js';
import { eventsInView, stepStore } from '../../web/widgets/step/model/lanes.js';
import { readState } from '../../web/widgets/step/model/state.js';
import { nodeEngine } from '../js/node-engine.mjs';
import { ENGINES, serveSite, browserPages, startFigure, attributeReader, ready, setControl, focusOn } from './figure-suite.mjs';

const engine = await nodeEngine();
const presets = engine.call({ op: 'presets' });
const TAG = 'parascope-step';

/** The figure's state from attribute values, as the element reads them (defaults where none is given). */
function stateFrom(values) {
  return readState(attributeReader(values), ATTRIBUTES, presets);
}

/** The engine's answer (or refusal) for what the figure shows: its link state, the stages it draws. */
function expected(shown) {
  const s = stateFrom(shown.state);
  try {
    const a = engine.call(timelineRequest(s, shown.stages));
    return { stepTime: String(a.step_time), events: a.event_count, code: null };
  } catch (err) {
    return { stepTime: null, events: null, code: err.code, field: err.field, message: err.message, schedule: s.schedule };
  }
}

// ---- page functions (sent as source text: they see only their arguments; `win` is the page's window) ----

/** What the figure shows: its state, the stages drawn, the step time, the problem sentence, the window in view. */
function shown(win, tag) {
  const el = win.document.querySelector(tag);
  const root = el.shadowRoot;
  const problem = root.querySelector('[data-out="problem"]');
  return {
    state: el.linkState(),
    stages: [...root.querySelectorAll('.step-label')].map((l) => Number(l.dataset.stage)),
    stepTime: problem.hidden ? (root.querySelector('[data-out="step"]').dataset.value ?? null) : null,
    problem: problem.hidden ? null : problem.textContent,
    code: problem.hidden ? null : problem.dataset.code,
    // a refusal shows where the step's sentence was, over it: the stale sentence is hidden, not read as the answer
    sentenceShown: win.getComputedStyle(root.querySelector('[data-out="step"]')).visibility !== 'hidden',
    overSentence:
      Math.abs(problem.getBoundingClientRect().top - root.querySelector('[data-out="step"]').getBoundingClientRect().top) < 1,
    events: Number(root.querySelector('[data-out="drawn"]').dataset.value ?? NaN),
    view: root.querySelector('[data-out="chart"]').dataset.view ?? null,
    readout: root.querySelector('[data-out="event"]').textContent,
    width: el.getBoundingClientRect().width,
    scrollWidth: win.document.documentElement.scrollWidth,
    innerWidth: win.innerWidth,
  };
}

/** The options of each select of the figure: name -> [values]. */
function options(win, tag) {
  const root = win.document.querySelector(tag).shadowRoot;
  return Object.fromEntries(
    [...root.querySelectorAll('.step-controls select')].map((s) => [s.name, [...s.options].map((o) => o.value)]),
  );
}

/** Dispatches pointer or wheel events on the canvas at fractions (fx, fy) of its box. */
function onCanvas(win, tag, kind, fx, fy, extra) {
  const canvas = win.document.querySelector(tag).shadowRoot.querySelector('canvas');
  const box = canvas.getBoundingClientRect();
  const at = { clientX: box.left + fx * box.width, clientY: box.top + fy * box.height, bubbles: true, composed: true };
  const make = kind === 'wheel' ? win.WheelEvent : (win.PointerEvent ?? win.MouseEvent);
  canvas.dispatchEvent(new make(kind, { ...at, pointerId: 1, button: 0, ...extra }));
  return true;
}

/** Non-background pixels of the lanes: how much of the canvas the events and the hatch cover. */
function painted(win, tag) {
  const canvas = win.document.querySelector(tag).shadowRoot.querySelector('canvas');
  const data = canvas.getContext('2d').getImageData(0, 0, canvas.width, canvas.height).data;
  const distinct = new Set();
  for (let i = 0; i < data.length; i += 64) distinct.add((data[i] << 16) | (data[i + 1] << 8) | data[i + 2]);
  return distinct.size;
}

/** Starts the engine's Chrome trace as the download makes it; traceMade reads it (the file is made asynchronously). */
function startTrace(win, tag) {
  win.__trace = null;
  win.document
    .querySelector(tag)
    .traceFile()
    .then(
      (t) => {
        const parsed = JSON.parse(t.text);
        win.__trace = {
          name: t.name,
          stages: t.stages,
          complete: parsed.traceEvents.filter((e) => e.ph === 'X').length,
          processes: parsed.traceEvents.filter((e) => e.ph === 'M' && e.name === 'process_name').length,
          wasm: win.performance
            .getEntriesByType('resource')
            .map((r) => r.name.replace(/.*\//, '').replace(/-[A-Z2-7]{8}\./, '.'))
            .filter((n) => n.endsWith('.wasm')),
        };
      },
      (err) => {
        win.__trace = { error: `${err.code ?? ''} ${err.message}` };
      },
    );
  return true;
}

/** The trace startTrace made: its complete events and processes, and the wasm files the page had fetched by then. */
const traceMade = (win) => win.__trace;

/** The engine's Chrome trace as the download makes it (traceMade's fields). */
async function trace(page) {
  await page.evaluate(startTrace, TAG);
  const t = await page.waitFor(traceMade, [], { what: 'the trace file', timeout: 60_000 });
  assert.equal(t.error, undefined, t.error);
  return t;
}

/** From now on, records the figure's timeline requests in win.__asked (its engine's call, wrapped). */
function recordRequests(win, tag) {
  const engine = win.document.querySelector(tag).engine;
  const call = engine.call;
  win.__asked = [];
  engine.call = function (request, ...rest) {
    if (request?.op === 'timeline') win.__asked.push(JSON.parse(JSON.stringify(request)));
    return call.call(this, request, ...rest);
  };
  return true;
}

/** Drops a file of `base64` bytes named `name` on the figure's trace panel, as a reader's drop does. */
function dropTrace(win, tag, base64, name) {
  const bytes = Uint8Array.from(win.atob(base64), (c) => c.charCodeAt(0));
  const data = new win.DataTransfer();
  data.items.add(new win.File([bytes], name));
  const panel = win.document.querySelector(tag).shadowRoot.querySelector('[data-out="import"]');
  panel.open = true;
  panel.dispatchEvent(new win.DragEvent('drop', { dataTransfer: data, bubbles: true, cancelable: true }));
  return true;
}

/** The trace panel's table once filled (trace column: row -> seconds), or null. */
function imported(win, tag) {
  const root = win.document.querySelector(tag).shadowRoot;
  const table = root.querySelector('[data-out="import-table"]');
  if (!table || table.hidden) return null; // the panel fills on opening (trace-compare.js, loaded then)
  const cells = [...table.querySelectorAll('td[data-out^="import-trace-"]')];
  return {
    status: root.querySelector('[data-out="import-status"]').textContent,
    trace: Object.fromEntries(cells.map((c) => [c.dataset.out.slice(13), Number(c.dataset.value)])),
    engine: root.querySelector('td[data-out="import-engine-compute"]').dataset.value ?? null,
  };
}

// ---- the tests ----

const site = serveSite();

const viewOf = (s) => s.view.split(' ').map(Number);

for (const name of ENGINES) {
  describe(`${name}: one step, as a profiler would show it`, () => {
    const onPage = browserPages(name, site);
    const start = async (page) => {
      await startFigure(page, TAG);
      return page.waitFor(
        (win, tag) => win.document.querySelector(tag).shadowRoot.querySelector('[data-out="chart"]').dataset.view,
        [TAG],
        { what: 'the first draw' },
      );
    };
    const settled = (page, before) =>
      page.waitFor(
        (win, tag, prev) => {
          const root = win.document.querySelector(tag).shadowRoot;
          const key = `${root.querySelector('[data-out="chart"]').dataset.view} ${root.querySelector('[data-out="drawn"]').textContent} ${root.querySelector('[data-out="problem"]').hidden}`;
          return key !== prev ? key : null;
        },
        [TAG, before],
        { what: 'the figure to redraw' },
      );
    const keyOf = (page) =>
      page.evaluate((win, tag) => {
        const root = win.document.querySelector(tag).shadowRoot;
        return `${root.querySelector('[data-out="chart"]').dataset.view} ${root.querySelector('[data-out="drawn"]').textContent} ${root.querySelector('[data-out="problem"]').hidden}`;
      }, TAG);

    test("every option of every control shows the engine's step for it, or a sentence for a refusal", async () => {
      await onPage('#step', async (page) => {
        await start(page);
        const first = await page.evaluate(shown, TAG);
        const want = expected(first);
        assert.equal(first.stepTime, want.stepTime);
        assert.deepEqual(first.stages, [0, 1, 2, 3, 4, 5, 6, 7]);
        assert.equal(first.events, want.events, 'every event of the 8 stages is in view');
        assert.ok((await page.evaluate(painted, TAG)) > 8, 'the lanes are painted');
        const all = await page.evaluate(options, TAG);
        assert.deepEqual(
          all.model,
          presets.models.map((m) => m.id),
        );
        assert.deepEqual(
          all.hardware,
          presets.hardware.map((h) => h.id),
        );
        assert.deepEqual(all.schedule, ['', ...presets.schedules.map((s) => s.id)]);
        const original = first.state;
        for (const [control, values] of Object.entries(all)) {
          for (const value of values) {
            const before = await keyOf(page);
            await page.evaluate(setControl, TAG, `select[name="${control}"]`, value);
            await settled(page, before).catch(() => {}); // an option that changes nothing drawn redraws the same
            const s = await page.evaluate(shown, TAG);
            const e = expected(s);
            if (e.code) {
              assert.equal(s.code, e.code, `${control}=${value}: refused as the engine refuses`);
              assert.ok(
                s.problem && !s.problem.includes(e.message),
                `${control}=${value}: the reader's words, not the engine's`,
              );
              // the rule the engine names (its field), not a general one: tp 64 on 96 heads reads as heads
              assert.equal(s.problem, timelineErrorText(e, e.schedule), `${control}=${value}: ${e.message}`);
              assert.ok(!s.sentenceShown && s.overSentence, `${control}=${value}: the stale step's sentence still reads`);
            } else {
              assert.equal(s.stepTime, e.stepTime, `${control}=${value}`);
              assert.equal(s.problem, null);
              assert.ok(s.sentenceShown, `${control}=${value}: the step's sentence is shown`);
            }
          }
          // back to where the walk started, for the next control
          await page.evaluate((win, tag, values) => win.document.querySelector(tag).loadState(values), TAG, original);
          await page.waitFor(ready, [TAG]);
        }
      });
    });

    test("only the stages on screen: the window moves by slider and keys, each new stage the engine's", async () => {
      await onPage('#step.pp=16&step.gpus=256&step.stages-shown=4', async (page) => {
        await start(page);
        let s = await page.evaluate(shown, TAG);
        assert.deepEqual(s.stages, [0, 1, 2, 3]);
        assert.equal(s.events, expected(s).events);
        await page.evaluate(setControl, TAG, 'input[name="first-stage"]', 12);
        await page.waitFor(
          (win, tag) =>
            win.document.querySelector(tag).shadowRoot.querySelector('.step-label[data-stage="12"]') !== null,
          [TAG],
        );
        s = await page.evaluate(shown, TAG);
        assert.deepEqual(s.stages, [12, 13, 14, 15]);
        assert.equal(s.state['first-stage'], 12);
        assert.ok(await page.evaluate(focusOn, TAG, '[data-out="chart"]'), 'the chart takes focus');
        await page.press('ArrowUp');
        await page.waitFor(
          (win, tag) =>
            win.document.querySelector(tag).shadowRoot.querySelector('.step-label[data-stage="11"]') !== null,
          [TAG],
        );
        s = await page.evaluate(shown, TAG);
        assert.deepEqual(s.stages, [11, 12, 13, 14]);
        await page.waitFor(
          (win, tag, n) =>
            win.document
              .querySelector(tag)
              .shadowRoot.querySelector('[data-out="drawn"]')
              .textContent.startsWith('Stages 11'),
          [TAG],
        );
        s = await page.evaluate(shown, TAG);
        assert.equal(s.events, expected(s).events);
      });
    });

    test('zoomed in, only the time near the screen is asked for, and the same events are drawn', async () => {
      await onPage('#step.pp=16&step.gpus=256&step.stages-shown=4', async (page) => {
        await start(page);
        await page.evaluate(recordRequests, TAG);
        assert.ok(await page.evaluate(focusOn, TAG, '[data-out="chart"]'));
        for (let i = 0; i < 6; i += 1) {
          const before = await keyOf(page);
          await page.press('+'); // 1.5^6 ≈ 11× in: the window and its width either side is under half the step
          await settled(page, before);
        }
        await page.press('ArrowDown');
        await page.waitFor(
          (win, tag) =>
            win.document.querySelector(tag).shadowRoot.querySelector('.step-label[data-stage="4"]') !== null,
          [TAG],
        );
        const s = await page.evaluate(shown, TAG);
        assert.deepEqual(s.stages, [1, 2, 3, 4]);
        const [t0, t1] = viewOf(s);
        const asked = await page.evaluate((win) => win.__asked, []);
        const last = asked.at(-1);
        assert.deepEqual(last.stages, [4], 'only the stage not held yet');
        assert.ok(last.from <= t0 && last.to >= t1, `the window ${last.from}–${last.to} s covers the view ${t0}–${t1} s`);
        const whole = engine.call(timelineRequest(stateFrom(s.state), s.stages));
        assert.ok(last.to - last.from < whole.step_time / 2, 'not the whole step');
        const windowText = JSON.stringify(engine.call(last));
        const wholeText = JSON.stringify(engine.call({ ...last, from: undefined, to: undefined }));
        assert.ok(windowText.length < wholeText.length, `${windowText.length} bytes, not ${wholeText.length}`);
        const store = stepStore();
        store.add(whole);
        const lanes = whole.lanes.map((l) => l.id);
        await page.waitFor((win, tag) => win.document.querySelector(tag).shadowRoot.querySelector('[data-out="drawn"]').textContent.startsWith('Stages 1'), [TAG]);
        const drawn = (await page.evaluate(shown, TAG)).events;
        assert.equal(drawn, eventsInView(store.gpusOf(s.stages), lanes, t0, t1), 'the events in view are the whole step’s');
        const before = await keyOf(page);
        await page.press('0');
        await settled(page, before);
        const back = (await page.evaluate((win) => win.__asked, [])).at(-1);
        assert.deepEqual([back.stages, back.from, back.to], [[4], undefined, undefined], 'whole again: the whole step');
      });
    });

    /** Zooms, pans, wheels and drags the window back and forth, then points at events and walks them by keys. */
    const walkMoves = async (page) => {
      const whole = viewOf(await page.evaluate(shown, TAG));
      assert.equal(whole[0], 0);
      assert.ok(await page.evaluate(focusOn, TAG, '[data-out="chart"]'));
      let before = await keyOf(page);
      await page.press('+');
      await settled(page, before);
      const zoomed = viewOf(await page.evaluate(shown, TAG));
      assert.ok(
        Math.abs(zoomed[1] - zoomed[0] - (whole[1] - whole[0]) / 1.5) < 1e-9 * whole[1],
        `zoomed to ${zoomed}`,
      );
      before = await keyOf(page);
      await page.press('ArrowRight');
      await settled(page, before);
      const panned = viewOf(await page.evaluate(shown, TAG));
      assert.ok(panned[0] > zoomed[0]);
      before = await keyOf(page);
      await page.evaluate(onCanvas, TAG, 'wheel', 0.5, 0.5, { deltaY: -300, ctrlKey: true, cancelable: true });
      await settled(page, before);
      const wheeled = viewOf(await page.evaluate(shown, TAG));
      assert.ok(wheeled[1] - wheeled[0] < panned[1] - panned[0], 'the wheel zooms in');
      before = await keyOf(page);
      await page.evaluate(onCanvas, TAG, 'pointerdown', 0.6, 0.1, {});
      await page.evaluate(onCanvas, TAG, 'pointermove', 0.4, 0.1, { buttons: 1 });
      await page.evaluate(onCanvas, TAG, 'pointerup', 0.4, 0.1, {});
      await settled(page, before);
      const dragged = viewOf(await page.evaluate(shown, TAG));
      assert.ok(dragged[0] > wheeled[0], 'dragging left shows later time');
      before = await keyOf(page);
      await page.press('0');
      await settled(page, before);
      assert.deepEqual(viewOf(await page.evaluate(shown, TAG)), whole);
      // the first GPU's compute row, a fifth into the step: its kernels
      await page.evaluate(onCanvas, TAG, 'pointermove', 0.2, 0.012, {});
      const readout = (await page.evaluate(shown, TAG)).readout;
      assert.match(readout, /^GPU 0 · stage 0, compute stream: .+ ms/);
      // the keys read the events too: ] the next on the row, . the same time a row below
      assert.ok(await page.evaluate(focusOn, TAG, '[data-out="chart"]'));
      await page.press(']');
      const next = (await page.evaluate(shown, TAG)).readout;
      assert.match(next, /^GPU 0 · stage 0, compute stream: /);
      assert.notEqual(next, readout);
      await page.press('.');
      assert.match((await page.evaluate(shown, TAG)).readout, /^GPU 0 · stage 0, TP collectives: /);
    };

    test('keys, the wheel and a drag move the window; pointing at an event reads its numbers', async () => {
      await onPage('#step', async (page) => {
        await start(page);
        await walkMoves(page);
      });
    });

    test('embedded alone, what the moves do loads on the first one, and every move works', async () => {
      await onPage('embed.html#widget=step', async (page) => {
        const fetched = () =>
          page.evaluate((win) =>
            win.performance
              .getEntriesByType('resource')
              .map((r) => r.name)
              .filter((n) => /\/interact-[A-Z2-7]{8}\.js$/.test(n)),
          );
        await start(page);
        assert.deepEqual(await fetched(), [], 'the first paint fetches no move code (interact.js)');
        await walkMoves(page);
        assert.equal((await fetched()).length, 1, 'fetched once, on the first move');
      });
    });

    test("the trace download is the engine's Chrome trace of this step", async () => {
      await onPage('#step', async (page) => {
        await start(page);
        const t = await trace(page);
        const a = engine.call(timelineRequest(stateFrom({}), null));
        assert.equal(t.complete, a.event_count);
        assert.equal(t.processes, 8);
        assert.equal(t.stages, null, 'the whole step');
        assert.equal(t.name, 'parascope-step-gpt3-175b-a100-80gb-tp8-pp8-dp2.trace.json');
      });
    });

    test("embedded alone, the trace is the same file, from the figures' engine loaded on the first click", async () => {
      await onPage('embed.html#widget=step', async (page) => {
        await start(page);
        const before = await page.evaluate((win) =>
          win.performance
            .getEntriesByType('resource')
            .map((r) => r.name)
            .filter((n) => n.endsWith('.wasm')).length,
        );
        assert.equal(before, 1, 'the figure drew from its own module alone');
        const t = await trace(page);
        const a = engine.call(timelineRequest(stateFrom({}), null));
        assert.equal(t.complete, a.event_count);
        assert.equal(t.processes, 8);
        assert.deepEqual(t.wasm.sort(), ['parascope-timeline-engine.wasm', 'parascope.wasm']);
      });
    });

    test('a gzipped profiler trace dropped in is read in the worker and split as node splits it', async () => {
      await onPage('#step', async (page) => {
        await start(page);
        const gz = readFileSync(new URL('../fixtures/kineto/two-steps.json.gz', import.meta.url)).toString('base64');
        await page.evaluate(dropTrace, TAG, gz, 'two-steps.json.gz');
        const got = await page.waitFor(imported, [TAG], { what: 'the trace read', timeout: 30_000 });
        const want = traceStep(JSON.parse(readFileSync(new URL('../fixtures/kineto/two-steps.json', import.meta.url))));
        assert.deepEqual(got.trace, want.breakdown);
        assert.match(got.status, /^ProfilerStep#2 of rank 3 \(of 8\)/);
        assert.ok(Number(got.engine) > 0, "the engine's side beside it");
      });
    });

    test("at 360 px it fits the screen and still draws the engine's step", async () => {
      await onPage(
        '#step',
        async (page) => {
          await start(page);
          const s = await page.evaluate(shown, TAG);
          assert.equal(s.stepTime, expected(s).stepTime);
          assert.ok(s.scrollWidth <= s.innerWidth, `the page scrolls sideways (${s.scrollWidth} > ${s.innerWidth})`);
        },
        { width: 360, height: 800 },
      );
    });
  });
}
