// <parascope-step>'s model code on the page's engine (wasm): the requests it sends (dp and microbatches moved without
// touching the split), the answers laid out per lane with nothing lost or reordered, partial answers for the stages on
// screen equal to the whole answer's GPUs, culling and hit testing against brute force, the rasteriser's pixels on
// known events, the view's moves, the words for events and refusals, and the Chrome trace the download writes.
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { nodeEngine } from './node-engine.mjs';
import * as R from '../../web/widgets/step/model/request.js';
import {
  eventAt,
  eventColumns,
  eventsInView,
  gpuLanes,
  stepStore,
  usedLanes,
  visibleRange,
} from '../../web/widgets/step/model/lanes.js';
import { rasterise } from '../../web/widgets/step/model/raster.js';
import { plotRows, rowAt } from '../../web/widgets/step/model/layout.js';
import { chartColours, PIECE_VARIABLES } from '../../web/widgets/step/model/colours.js';
import {
  clampView,
  keyMove,
  panView,
  ticks,
  tickLabel,
  wholeView,
  zoomView,
} from '../../web/widgets/step/model/view.js';
import { eventText, stepSentence, timelineErrorText } from '../../web/widgets/step/model/text.js';
import { traceStages, MOST_TRACE_EVENTS } from '../../web/widgets/step/trace-download.js';
import { readState, stateValues } from '../../web/widgets/step/model/state.js';
import { ATTRIBUTES } from '../../web/widgets/step/attributes.js';

const engine = await nodeEngine();
const presets = engine.call({ op: 'presets' });

/** The figure's starting state, read from no attributes at all. */
function defaults(values = {}) {
  const raw = (n) => (n in values ? String(values[n]) : null);
  const reader = {
    rawAttribute: raw,
    flagAttribute: (n) => raw(n) !== null && raw(n) !== 'false',
    intAttribute: (n, { fallback }) => (raw(n) === null ? fallback : Number(raw(n))),
    numberAttribute: (n, { fallback }) => (raw(n) === null ? fallback : Number(raw(n))),
    choiceAttribute: (n, allowed, fallback) => (raw(n) !== null && allowed.includes(raw(n)) ? raw(n) : fallback),
  };
  return readState(reader, ATTRIBUTES, presets);
}

const S = defaults();
const whole = engine.call(R.timelineRequest(S, null));

test('dp and microbatches move the GPU count and the batch, never the split', () => {
  assert.equal(R.dataParallel(S), 2);
  assert.equal(R.microbatches(S), 32);
  const wider = R.withDataParallel(S, 8);
  assert.deepEqual([wider.gpus, wider.globalBatch, R.microbatches(wider), wider.tp, wider.pp], [512, 256, 32, 8, 8]);
  const longer = R.withMicrobatches(S, 128);
  assert.deepEqual([longer.gpus, longer.globalBatch, R.dataParallel(longer)], [128, 256, 2]);
  const deeper = R.withSplit(S, 'pp', 16);
  assert.deepEqual([deeper.gpus, R.dataParallel(deeper), R.microbatches(deeper)], [256, 2, 32]);
  assert.equal(R.dataParallel({ ...S, gpus: 100 }), null);
  assert.deepEqual(R.powersUpTo(8, 6), [1, 2, 4, 6, 8]);
  assert.deepEqual(R.stagesShown(64, 60, 8), [56, 57, 58, 59, 60, 61, 62, 63]);
  assert.deepEqual(R.stagesShown(4, 2, 8), [0, 1, 2, 3]);
  const req = R.timelineRequest(S, [0, 3]);
  assert.equal(req.op, 'timeline');
  assert.deepEqual(req.stages, [0, 3]);
  assert.equal(req.format, 'columns');
  assert.deepEqual(defaults(stateValues(S)), S, 'the permalink values read back to the same state');
});

test("each GPU's lanes hold every event once, in start order, and their exposed seconds sum to the step time", () => {
  for (const g of whole.gpus) {
    const laid = gpuLanes(g, whole.pieces);
    const ids = [];
    let exposed = 0;
    for (const [id, lane] of laid.lanes) {
      assert.ok(
        whole.lanes.some((l) => l.id === id),
        id,
      );
      for (let k = 0; k < lane.ids.length; k += 1) {
        const i = lane.ids[k];
        ids.push(i);
        assert.equal(whole.pieces[laid.events.piece[i]].lane, id);
        assert.equal(lane.start[k], laid.events.start[i]);
        assert.equal(lane.end[k], laid.events.end[i]);
        if (k > 0) assert.ok(lane.start[k] >= lane.start[k - 1]);
        assert.ok(lane.end[k] - lane.start[k] <= lane.longest);
        exposed += lane.exposed[k];
      }
    }
    assert.deepEqual(
      ids.sort((a, b) => a - b),
      [...laid.events.start.keys()],
    );
    // engine/API.md, timeline: what the compute row leaves uncovered during the pipeline (what the figure hatches) is
    // the GPU's idle seconds, and with them all its exposed seconds sum to step_time
    // busy: the compute stream's events and every exposed tail the stream waits for, as one sorted union
    const busy = [];
    for (const [id, lane] of laid.lanes) {
      for (let k = 0; k < lane.start.length; k += 1) {
        if (id === 'compute') busy.push([lane.start[k], lane.end[k]]);
        else if (lane.exposed[k] > 0) busy.push([lane.end[k] - lane.exposed[k], lane.end[k]]);
      }
    }
    busy.sort((a, b) => a[0] - b[0]);
    let gaps = 0;
    let at = 0;
    for (const [a, b] of busy) {
      if (a >= whole.pipeline_makespan) break;
      gaps += Math.max(0, a - at);
      at = Math.max(at, b);
    }
    gaps += Math.max(0, whole.pipeline_makespan - at);
    assert.ok(Math.abs(gaps - g.exposed.idle) <= 1e-9 * whole.step_time, `${gaps} vs ${g.exposed.idle}`);
    const sum = exposed + g.exposed.idle;
    assert.ok(Math.abs(sum - whole.step_time) <= 1e-9 * whole.step_time, `${sum} vs ${whole.step_time}`);
  }
});

test("a columns answer's ops and shapes give the objects answer's events, bit for bit", () => {
  const objects = engine.call({ ...R.timelineRequest(S, [0, 7]), format: 'objects' });
  const columns = engine.call(R.timelineRequest(S, [0, 7]));
  objects.gpus.forEach((o, g) => {
    const ev = eventColumns(columns.gpus[g]);
    assert.equal(ev.start.length, o.events.length);
    o.events.forEach((e, i) => {
      assert.equal(ev.start[i], e.start);
      assert.equal(ev.end[i], e.end);
      assert.equal(ev.exposed[i], e.exposed);
      assert.equal(ev.amount[i], e.flops ?? e.bytes ?? 0);
      assert.equal(columns.pieces[ev.piece[i]].id, e.piece);
      assert.equal(ev.op[i], e.op ?? '-');
      assert.equal(ev.microbatch[i], e.microbatch ?? -1);
      assert.equal(ev.chunk[i], e.chunk ?? -1);
      assert.equal(ev.to_stage[i], e.to_stage ?? -1);
    });
  });
});

test('the stages on screen asked in parts give the very GPUs of the whole answer', () => {
  const store = stepStore();
  store.add(engine.call(R.timelineRequest(S, [0, 1])));
  assert.deepEqual(store.missing([0, 1, 2, 3]), [2, 3]);
  store.add(engine.call(R.timelineRequest(S, store.missing([0, 1, 2, 3]))));
  assert.equal(store.size, 4);
  for (const g of store.gpusOf([0, 1, 2, 3])) {
    const same = whole.gpus.find((x) => x.stage === g.stage);
    assert.deepEqual(g.events, eventColumns(same));
    assert.deepEqual(g.exposed, same.exposed);
  }
  assert.equal(store.head.step_time, whole.step_time);
  const lanes = usedLanes(whole.lanes, store.gpusOf([0, 1, 2, 3]));
  assert.deepEqual(
    lanes.map((l) => l.id),
    ['compute', 'tp', 'dp', 'pp', 'optimizer'],
  );
});

/** A seeded generator (mulberry32). */
function rng(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

test('culling and hit testing find exactly what brute force finds, on 500 random windows', () => {
  const next = rng(29);
  const gpus = whole.gpus.map((g) => gpuLanes(g, whole.pieces));
  for (let n = 0; n < 500; n += 1) {
    const g = gpus[Math.floor(next() * gpus.length)];
    const lanes = [...g.lanes.values()];
    const lane = lanes[Math.floor(next() * lanes.length)];
    const a = next() * whole.step_time;
    const b = a + next() ** 3 * whole.step_time * 0.3;
    const [from, to] = visibleRange(lane, a, b);
    const brute = [];
    for (let k = 0; k < lane.start.length; k += 1) if (lane.end[k] >= a && lane.start[k] <= b) brute.push(k);
    const culled = [];
    for (let k = from; k < to; k += 1) if (lane.end[k] >= a) culled.push(k);
    assert.deepEqual(culled, brute);
    const t = a;
    const hit = eventAt(lane, t);
    const covering = brute.filter((k) => lane.start[k] <= t && lane.end[k] >= t);
    assert.equal(hit, covering.length ? covering[covering.length - 1] : -1);
  }
  const all = eventsInView(
    gpus,
    whole.lanes.map((l) => l.id),
    0,
    whole.step_time,
  );
  assert.equal(all, whole.event_count);
});

const palette = {
  pieces: Object.fromEntries(Object.keys(PIECE_VARIABLES).map((id, i) => [id, [10 * i, 100, 200 - 10 * i]])),
  idle: [200, 100, 30],
  bg: [250, 250, 250],
  lane: [235, 235, 240],
  fg: [20, 20, 20],
  muted: [90, 90, 90],
};

test('the rasteriser paints a hidden part light, an exposed tail solid, and hatches only the idle compute gaps', () => {
  const pieces = [
    { id: 'kernels', lane: 'compute' },
    { id: 'tp', lane: 'tp' },
  ];
  const colours = chartColours(palette, pieces);
  const lane = (start, end, exposed, piece) => ({
    ids: Int32Array.from(start.map((_, i) => i)),
    start: Float64Array.from(start),
    end: Float64Array.from(end),
    exposed: Float64Array.from(exposed),
    piece: Uint8Array.from(piece),
    longest: Math.max(...end.map((e, i) => e - start[i])),
  });
  // 100 px for 1 s: kernels 0–0.2 and 0.5–0.7 s; a TP collective 0.1–0.4 s, its last 0.1 s exposed; the step ends at 0.9
  const compute = lane([0, 0.5], [0.2, 0.7], [0.2, 0.2], [0, 0]);
  const tp = lane([0.1], [0.4], [0.1], [1]);
  const rows = [
    { lane: compute, compute: true, tails: [tp], y0: 0, y1: 10 },
    { lane: tp, compute: false, y0: 12, y1: 20 },
  ];
  const px = new Uint32Array(100 * 20);
  const laid = rasterise(px, 100, 20, rows, { t0: 0, t1: 1 }, 0.9, colours, {});
  assert.equal(laid, 3);
  const at = (x, y) => px[y * 100 + x];
  assert.equal(at(10, 3), colours.solid[0]);
  assert.equal(at(0, 3), colours.edge[0], 'a wide kernel starts with its darker column');
  assert.ok([colours.hatch, colours.back].includes(at(25, 3)), 'idle between kernels is hatched');
  assert.ok(
    [0, 1, 2, 3, 4, 5, 6, 7].some((y) => at(25, y) === colours.hatch),
    'the hatch has its lines',
  );
  assert.equal(at(35, 3), colours.solid[1], "the compute row waits for the collective's exposed tail, in its colour");
  assert.equal(at(95, 3), colours.lane, 'after the step: not idle, the empty lane');
  assert.equal(at(15, 14), colours.light[1], 'the hidden part of the collective');
  assert.equal(at(35, 14), colours.solid[1], 'its exposed tail');
  assert.equal(at(60, 14), colours.lane);
  assert.equal(at(50, 11), colours.bg, 'between rows: the background');
  // zoomed into 0.3–0.35 s: only the collective, all of it exposed here, and the compute gap hatched
  const zoomed = rasterise(px, 100, 20, rows, { t0: 0.3, t1: 0.35 }, 0.9, colours, {});
  assert.equal(zoomed, 1);
  assert.equal(at(50, 14), colours.solid[1]);
  assert.equal(at(50, 3), colours.solid[1]);
});

test('the rows share the plot, a gutter between GPUs, and hit testing finds the row', () => {
  const gpus = whole.gpus.slice(0, 3).map((g) => gpuLanes(g, whole.pieces));
  const lanes = usedLanes(whole.lanes, gpus);
  const layout = plotRows(gpus, lanes, 300, 2);
  assert.equal(layout.rows.length, 3 * lanes.length);
  const last = layout.rows[layout.rows.length - 1];
  assert.ok(Math.abs(last.top + last.h - 300) < 1e-9);
  assert.equal(rowAt(layout, layout.rows[4].top + 1), layout.rows[4]);
  assert.equal(rowAt(layout, layout.groups[1].top - 2), null, 'the gutter');
  for (const r of layout.rows) assert.ok(r.y1 <= r.y0 + Math.ceil(r.h * 2) && r.y1 > r.y0);
});

test('the view zooms about a point, pans, and stays inside the step', () => {
  const T = 10;
  let v = wholeView(T);
  v = zoomView(v, 4, 5, T);
  assert.deepEqual(v, { t0: 3.75, t1: 6.25 });
  const z = zoomView(v, 2, 4, T);
  assert.ok(Math.abs((4 - z.t0) / (z.t1 - z.t0) - (4 - v.t0) / (v.t1 - v.t0)) < 1e-12, 'the point stays put');
  assert.deepEqual(panView({ t0: 8, t1: 10 }, 0.5, T), { t0: 8, t1: 10 });
  assert.deepEqual(zoomView(wholeView(T), 0.1, 3, T), { t0: 0, t1: 10 });
  assert.ok(clampView({ t0: 1, t1: 1 }, T).t1 - 1 >= 0.999e-6);
  assert.deepEqual(keyMove('0', v, T, 8).view, wholeView(T));
  assert.deepEqual(keyMove('PageDown', v, T, 8), { stages: 8 });
  assert.equal(keyMove('x', v, T, 8), null);
  assert.deepEqual(keyMove(']', v, T, 8), { event: 1 });
  assert.deepEqual(keyMove(',', v, T, 8), { row: -1 });
  const { step, ticks: at } = ticks(0, 8.56, 8);
  assert.equal(step, 2);
  assert.deepEqual(at, [0, 2, 4, 6, 8]);
  assert.equal(tickLabel(0, 2), '0 ms');
  assert.equal(tickLabel(0.0125, 0.0005), '12.5 ms');
});

test("the readout tells an event's numbers from the answer, and refusals read as sentences", () => {
  const g = gpuLanes(whole.gpus[1], whole.pieces);
  const tp = g.lanes.get('tp');
  const text = eventText(g, 'tp', 0, whole);
  const i = tp.ids[0];
  assert.match(text, /^GPU 16 · stage 1, TP collectives: tensor-parallel collectives, forward of microbatch 0/);
  assert.match(text, /over NVLink/);
  assert.ok(text.includes('exposed') || text.includes('hidden'), text);
  assert.ok(g.events.end[i] > g.events.start[i]);
  assert.match(stepSentence(whole), /^One step takes 8\.\d+ s/);
  const refusal = (patch) => {
    try {
      engine.call({ ...R.timelineRequest(S, [0]), ...patch });
    } catch (err) {
      return err;
    }
    throw new Error('not refused');
  };
  const odd = refusal({ parallel: { ...R.stepFields(S).parallel, global_batch: 63 } });
  assert.match(timelineErrorText(odd), /^The batch must split into whole microbatches/);
  const big = refusal({
    model: 'megatron-1t',
    cluster: { gpus: 3072 },
    parallel: { tp: 8, pp: 64, global_batch: 3072 },
    stages: undefined,
    format: 'objects',
  });
  assert.equal(big.code, 'too_large');
  assert.match(timelineErrorText(big), /too many events/);
  assert.ok(!timelineErrorText(odd).includes(odd.message));
});

// The figure's controls reach three of the engine's split rules; each refusal must name its own rule (the walk once
// found all three read "the GPUs must divide into the parallel groups", which none of them was about).
test('a refused split names the rule it breaks: heads for tp, layers for pp, microbatches for DualPipe', () => {
  const refusal = (s) => {
    try {
      engine.call(R.timelineRequest(s, [0]));
    } catch (err) {
      return err;
    }
    throw new Error('not refused');
  };
  const cases = [
    [R.withSplit(S, 'tp', 64), 'parallel.tp', /attention heads.*pick a smaller tp/], // GPT-3's 96 heads
    [R.withSplit({ ...S, model: 'llama3-8b' }, 'pp', 64), 'parallel.pp', /whole layers/], // 32 layers
    [{ ...R.withSplit(S, 'pp', 64), schedule: 'dualpipe' }, 'parallel.global_batch', /^DualPipe needs at least two/],
  ];
  for (const [s, field, words] of cases) {
    const err = refusal(s);
    assert.equal(err.field, field, err.message);
    assert.match(timelineErrorText(err, s.schedule), words, field);
    assert.ok(!timelineErrorText(err).includes(err.message));
  }
});

test('the trace download: the whole step when it fits, else the stages shown; the engine writes a Chrome trace', () => {
  assert.deepEqual(traceStages(8, [0, 1], 300), { stages: null, whole: true });
  const cut = traceStages(
    64,
    [10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30],
    5000,
  );
  assert.equal(cut.stages.length, MOST_TRACE_EVENTS / 5000);
  assert.equal(cut.stages[0], 10);
  const text = engine.callText(JSON.stringify(R.timelineRequest(S, null, 'chrome')));
  const trace = JSON.parse(text);
  const complete = trace.traceEvents.filter((e) => e.ph === 'X');
  assert.equal(complete.length, whole.event_count);
  assert.ok(complete.every((e) => e.dur >= 0 && Number.isFinite(e.ts)));
  const names = trace.traceEvents.filter((e) => e.ph === 'M' && e.name === 'process_name');
  assert.equal(names.length, S.pp);
});
