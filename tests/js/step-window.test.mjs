// The step figure zoomed in asks the engine only for the time near the screen (`from`/`to`, model/view.js askWindow):
// for runs of several shapes and windows across the step, what the figure draws from the window's answer (every
// event overlapping the view, per lane, and the lanes drawn) equals what it draws from the whole step's, in fewer
// bytes; the store says which stages a window still lacks; the tail's lanes (what a window answer may leave out) are
// the same on every stage, which the store relies on.
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { nodeEngine } from './node-engine.mjs';
import * as R from '../../web/widgets/step/model/request.js';
import { stepStore, usedLanes, visibleRange } from '../../web/widgets/step/model/lanes.js';
import { askWindow, wholeView, zoomView } from '../../web/widgets/step/model/view.js';

const engine = await nodeEngine();

const RUNS = [
  { model: 'gpt3-175b', hardware: 'a100-80gb', gpus: 128, tp: 8, pp: 8, globalBatch: 64 },
  { model: 'gpt3-175b', hardware: 'h100-sxm', gpus: 256, tp: 8, pp: 8, vpp: 2, globalBatch: 128, zero: 1 },
  { model: 'llama3-70b', hardware: 'h100-sxm', gpus: 64, tp: 4, pp: 4, cp: 2, globalBatch: 32, recompute: 'full' },
];
const state = (r) => ({ cp: 1, ep: 1, vpp: 1, microbatchSize: 1, sequenceParallel: true, ...r });

/** The events a GPU's lanes draw in [t0, t1]: per lane, [start, end, exposed, piece] of each visible event. */
function drawn(g, t0, t1) {
  const out = {};
  for (const [id, lane] of g.lanes) {
    const [a, b] = visibleRange(lane, t0, t1);
    const list = [];
    for (let k = a; k < b; k += 1) {
      if (lane.end[k] < t0 || lane.start[k] > t1) continue;
      list.push([lane.start[k], lane.end[k], lane.exposed[k], lane.piece[k]]);
    }
    if (list.length) out[id] = list;
  }
  return out;
}

test('askWindow: the view and its width either side, only once zoomed in past half the step', () => {
  assert.equal(askWindow(wholeView(10), 10), null);
  assert.equal(askWindow({ t0: 2, t1: 4 }, 10), null, '3 × 2 s = 6 s: not under half of 10 s');
  assert.deepEqual(askWindow({ t0: 4, t1: 5 }, 10), { from: 3, to: 6 });
  assert.deepEqual(askWindow({ t0: 0, t1: 1 }, 10), { from: 0, to: 2 });
  assert.deepEqual(askWindow({ t0: 9.5, t1: 10 }, 10), { from: 9, to: 10 });
});

test('a zoomed view drawn from its window’s answer is the whole step’s, in fewer bytes', () => {
  for (const run of RUNS) {
    const s = state(run);
    const stages = R.stagesShown(s.pp, 0, 3).concat([s.pp - 1]);
    const wholeText = engine.callText(JSON.stringify(R.timelineRequest(s, stages)));
    const whole = stepStore();
    whole.add(JSON.parse(wholeText));
    const stepTime = whole.head.step_time;
    for (const at of [0, 0.13, 0.5, 0.77, 1]) {
      for (const factor of [8, 40, 4000]) {
        const view = zoomView(wholeView(stepTime), factor, at * stepTime, stepTime);
        const window = askWindow(view, stepTime);
        assert.ok(window, `${factor}× is zoomed in`);
        const text = engine.callText(JSON.stringify(R.timelineRequest(s, stages, 'columns', window)));
        const part = stepStore();
        part.add(JSON.parse(text), window);
        const where = `${run.model} ${at} ${factor}×`;
        assert.deepEqual(part.missing(stages, { from: view.t0, to: view.t1 }), [], where);
        assert.ok(text.length < wholeText.length, `${where}: ${text.length} < ${wholeText.length} bytes`);
        const a = whole.gpusOf(stages);
        const b = part.gpusOf(stages);
        for (let i = 0; i < a.length; i += 1)
          assert.deepEqual(drawn(b[i], view.t0, view.t1), drawn(a[i], view.t0, view.t1), where);
      }
    }
  }
});

test('the lanes drawn from a window are the whole step’s: the tail’s lanes are the same on every stage', () => {
  for (const run of RUNS) {
    const s = state(run);
    const all = engine.call(R.timelineRequest(s, null));
    const lanesOf = (g) => new Set(Array.from(g.tail.piece, (p) => all.pieces[p].lane));
    const first = [...lanesOf(all.gpus[0])].sort();
    for (const g of all.gpus) assert.deepEqual([...lanesOf(g)].sort(), first, `${run.model} stage ${g.stage}`);
    const whole = stepStore();
    whole.add(all);
    const stepTime = all.step_time;
    const window = askWindow({ t0: 0.4 * stepTime, t1: 0.41 * stepTime }, stepTime);
    const part = stepStore();
    part.add(engine.call(R.timelineRequest(s, [0]))); // the first stages are asked whole when the step opens
    part.add(engine.call(R.timelineRequest(s, null, 'columns', window)), window);
    const stages = all.gpus.map((g) => g.stage);
    assert.deepEqual(
      usedLanes(all.lanes, part.gpusOf(stages)).map((l) => l.id),
      usedLanes(all.lanes, whole.gpusOf(stages)).map((l) => l.id),
    );
  }
});

test('the store asks again for what a window does not cover', () => {
  const s = state(RUNS[0]);
  const store = stepStore();
  const w = { from: 1, to: 2 };
  store.add(engine.call(R.timelineRequest(s, [0, 1])));
  store.add(engine.call(R.timelineRequest(s, [2], 'columns', w)), w);
  assert.deepEqual(store.missing([0, 1, 2, 3], { from: 1.2, to: 1.8 }), [3], 'a whole answer covers any window');
  assert.deepEqual(store.missing([0, 1, 2], { from: 1.5, to: 2.5 }), [2], 'past the window asked');
  assert.deepEqual(store.missing([0, 1, 2]), [2], 'the whole step');
  assert.deepEqual(R.timelineRequest(s, [2], 'columns', w).from, 1);
});
