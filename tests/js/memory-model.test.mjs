// <parascope-memory>'s model code on the page's engine: the figure's total (the timeline's peak, the sum of the parts
// it stacks there) is `step`'s memory_per_gpu.total for the same request over a grid of runs; every stretch's stacked
// parts add up to the engine's total for it; the drawn steps cover the step and keep the peak; the activation sets'
// lanes never overlap and are as many as the most sets in flight; a control's move reads as the difference of the
// engine's two answers; refusals read as sentences for readers; the state survives its own attribute values.
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { nodeEngine } from './node-engine.mjs';
import { ATTRIBUTES } from '../../web/widgets/memory/attributes.js';
import { bytes } from '../../web/lib/format.js';
import { buysText } from '../../web/widgets/memory/model/buys.js';
import { CONTROLS, controlChoices, controlValue } from '../../web/widgets/memory/model/choices.js';
import { memoryErrorText } from '../../web/widgets/memory/model/errors.js';
import { exportTable, legendParts } from '../../web/widgets/memory/model/export.js';
import { bandText, headline, momentText } from '../../web/widgets/memory/model/readout.js';
import { asArrays, withColumns } from '../../web/widgets/memory/model/columns.js';
import { MEMORY_DEFAULTS, runFields, timelineRequest } from '../../web/widgets/memory/model/request.js';
import { PARTS, drawnSteps, moment, segmentCount, setLanes } from '../../web/widgets/memory/model/stack.js';
import { readState, stateValues } from '../../web/widgets/memory/model/state.js';

const engine = await nodeEngine();
const presets = engine.call({ op: 'presets' });
/** The `step` request for the run the figure sends as `memory_timeline`. */
const stepRequest = (s, p) => ({ op: 'step', ...runFields(s, p) });

/** An attribute reader like the element's (lib/widget-attributes.js), over a plain map. */
function reader(values) {
  const raw = (n) => (n in values && values[n] !== null ? String(values[n]) : null);
  return {
    rawAttribute: raw,
    flagAttribute: (n) => raw(n) !== null && raw(n) !== 'false',
    intAttribute: (n, { fallback }) => (raw(n) === null ? fallback : Number(raw(n))),
    choiceAttribute: (n, allowed, fallback) => (raw(n) !== null && allowed.includes(raw(n)) ? raw(n) : fallback),
  };
}

const stateOf = (values = {}) => readState(reader(values), ATTRIBUTES, presets);
const refusal = (request) => {
  try {
    engine.call(request);
  } catch (err) {
    return err;
  }
  return null;
};

/** The runs the totals are checked on: the default, each recomputation, ZeRO stage and schedule, and other models. */
function grid() {
  const runs = [{}];
  for (const recompute of presets.recompute.filter((r) => r !== 'op')) runs.push({ recompute });
  for (const zero of presets.zero) runs.push({ zero: String(zero) });
  runs.push({ zero: '3', reshard: 'true' }, { zero: '3', reshard: 'false' });
  for (const s of presets.schedules) runs.push({ schedule: s.id, ...(s.interleaves ? { vpp: 2 } : {}) });
  runs.push({ precision: 'fp8' }, { 'microbatch-size': 2 }, { seq: 4096 }, { cp: 2 }, { stage: 7 }, { stage: 3 });
  runs.push({ offload: '0.5' }, { offload: '1', zero: '3' });
  runs.push({
    model: 'gpt3-175b',
    hardware: 'a100-80gb',
    tp: 8,
    pp: 8,
    'global-batch': 64,
    'sequence-parallel': 'false',
  });
  runs.push({ model: 'mixtral-8x7b', tp: 2, pp: 4, ep: 8, gpus: 64, 'global-batch': 64, seq: 4096 });
  runs.push({ model: 'gpt2-124m', hardware: 'a100-40gb', gpus: 8, tp: 1, pp: 1, 'global-batch': 64, zero: '0' });
  return runs;
}

test('binary columns read out of the attachment are the text answer, number for number', () => {
  for (const values of grid()) {
    const s = stateOf(values);
    const text = engine.call(timelineRequest(s, presets, s.stage));
    const { response, attachment } = engine.callWithAttachment(timelineRequest(s, presets, s.stage, true));
    assert.equal(response.segments.format, 'binary', JSON.stringify(values));
    const read = withColumns(response, attachment);
    assert.equal(read.segments.kind, text.segments.kind, JSON.stringify(values));
    assert.deepEqual(asArrays(read), text, JSON.stringify(values));
  }
});

test("the figure's total is step's memory_per_gpu.total for the same request, and its parts add up to it", () => {
  let checked = 0;
  for (const values of grid()) {
    const s = stateOf(values);
    const step = engine.call(stepRequest(s, presets));
    const t = engine.call(timelineRequest(s, presets, s.stage));
    const parts = legendParts(t);
    const stacked = parts.reduce((sum, p) => sum + p.bytes, 0);
    assert.ok(Math.abs(stacked / t.peak.total - 1) < 1e-12, `${JSON.stringify(values)}: ${stacked} vs ${t.peak.total}`);
    if (t.stage === t.most_loaded_stage) {
      assert.equal(t.peak.total, step.memory_per_gpu.total, JSON.stringify(values));
      checked += 1;
    } else assert.ok(t.peak.total <= step.memory_per_gpu.total, JSON.stringify(values));
    assert.equal(t.step_memory_total, step.memory_per_gpu.total);
  }
  assert.ok(checked >= grid().length - 2, `checked ${checked}`);
});

/** `step`'s answer less what memory_timeline's `step` leaves out (engine/API.md): the network what-if and notes. */
function stepWithoutExtras(step) {
  const { hfu_note: _note, network_fit: _fit, ...rest } = step;
  const { network: _network, ...band } = rest.error_band;
  return { ...rest, error_band: band };
}

test("the timeline's `step` is step's answer for the same request, so the figure asks the engine once", () => {
  let compared = 0;
  let withNetwork = 0;
  for (const values of grid()) {
    const s = stateOf(values);
    const step = engine.call(stepRequest(s, presets));
    const t = engine.call(timelineRequest(s, presets, s.stage));
    assert.deepEqual(t.step, stepWithoutExtras(step), JSON.stringify(values));
    if (step.error_band.network) withNetwork += 1;
    compared += 1;
  }
  assert.equal(compared, grid().length);
  assert.ok(withNetwork > 0, 'a run spanning nodes has the network what-if the timeline leaves out');
});

test('every stretch stacks to the engine total for it, and the CSV holds every stretch', () => {
  const t = engine.call(timelineRequest(stateOf(), presets));
  for (let i = 0; i < segmentCount(t); i += 1) {
    const m = moment(t, i);
    const stacked = PARTS.reduce((sum, [key]) => sum + m.parts[key], 0);
    assert.ok(Math.abs(stacked / m.total - 1) < 1e-12, `segment ${i}`);
  }
  const rows = exportTable(t);
  assert.equal(rows.length, segmentCount(t) + 1);
  assert.equal(rows[1 + t.peak.segment].at(-1), t.peak.total);
});

test('the drawn steps cover the step without gaps, keep the peak, and are at most one a pixel', () => {
  for (const values of [{}, { pp: 4, 'global-batch': 512, gpus: 32 }]) {
    const t = engine.call(timelineRequest(stateOf(values), presets));
    for (const width of [200, 700]) {
      const steps = drawnSteps(t, width);
      assert.equal(steps[0].from, 0);
      assert.equal(steps.at(-1).to, t.segments.end.at(-1));
      for (let i = 1; i < steps.length; i += 1) assert.equal(steps[i].from, steps[i - 1].to);
      assert.ok(
        steps.some((s) => s.index === t.peak.segment),
        'the peak is drawn',
      );
      assert.ok(steps.length <= width + 1, `${steps.length} steps on ${width} px`);
    }
  }
});

test('the activation sets get as many lanes as the most sets in flight, never two at once in one lane', () => {
  for (const schedule of ['gpipe', '1f1b', 'zb-h1']) {
    const t = engine.call(timelineRequest(stateOf({ schedule }), presets));
    const { sets, lanes } = setLanes(t);
    assert.equal(lanes, Math.max(...t.segments.sets), schedule);
    const byLane = new Map();
    for (const set of sets) byLane.set(set.lane, [...(byLane.get(set.lane) ?? []), set]);
    for (const held of byLane.values()) {
      held.sort((a, b) => a.from - b.from);
      for (let i = 1; i < held.length; i += 1) assert.ok(held[i].from >= held[i - 1].to, schedule);
    }
  }
});

test("a control's move is the difference of the engine's two answers", () => {
  const s = stateOf();
  const none = engine.call(stepRequest(s, presets));
  const full = engine.call(stepRequest({ ...s, recompute: 'full' }, presets));
  const text = buysText('full recomputation', none, full);
  assert.match(text, /^full recomputation: −[\d.]+ GiB of activations/);
  assert.match(text, /compute \+\d+ %/);
  assert.ok(full.memory_per_gpu.activations < none.memory_per_gpu.activations);
  assert.equal(buysText('the same', none, none), 'the same: no change in memory.');
  const big = engine.call(stepRequest({ ...s, microbatchSize: 1, globalBatch: 64, pp: 4, gpus: 32, tp: 8 }, presets));
  assert.match(buysText('x', none, big), /GiB/);
});

test("optimizer offload's move names the GPU's bytes freed, the host's and the time added, all the engine's", () => {
  const s = stateOf();
  const none = engine.call(timelineRequest(s, presets)).step;
  const all = engine.call(timelineRequest({ ...s, offload: '1' }, presets)).step;
  assert.ok(all.memory_per_gpu.optimizer_states < none.memory_per_gpu.optimizer_states);
  assert.ok(all.memory_per_gpu.host_offloaded > 0 && none.memory_per_gpu.host_offloaded === undefined);
  assert.ok(all.step_time > none.step_time);
  const text = buysText('all of the optimizer state on the host', none, all);
  const freed = none.memory_per_gpu.optimizer_states - all.memory_per_gpu.optimizer_states;
  assert.ok(text.includes(`−${bytes(freed)} of optimizer states`), text);
  assert.ok(text.includes(`+${bytes(all.memory_per_gpu.host_offloaded)} on the host`), text);
  assert.match(text, /step time \+\d+ % \(\+[\d.]+ (ms|s)\)/);
  assert.equal(all.parallel.offload_optimizer, 1);
});

test('refusals read as sentences for readers, never the engine message', () => {
  const cases = [
    { tp: 3 },
    { globalBatch: 63 },
    { ep: 2 },
    { precision: 'fp8', hardware: 'a100-80gb' },
    { vpp: 2, schedule: '1f1b' },
    { pp: 128 },
    { cp: 3 },
    { offload: '1', hardware: 'tpu-v5p' },
  ];
  for (const patch of cases) {
    const e = refusal(stepRequest({ ...stateOf(), ...patch }, presets));
    assert.ok(e, JSON.stringify(patch));
    const text = memoryErrorText(e);
    assert.notEqual(text, e.message);
    assert.doesNotMatch(text, /parallel\.|_/, JSON.stringify(patch));
    const same = refusal(timelineRequest({ ...stateOf(), ...patch }, presets));
    assert.equal(same.code, e.code);
    assert.equal(same.field, e.field);
  }
  const far = refusal(timelineRequest(stateOf(), presets, 8));
  assert.ok(far && memoryErrorText(far));
});

test('the readouts are made of the answers, and the band is the engine range', () => {
  const s = stateOf();
  const step = engine.call(stepRequest(s, presets));
  const t = engine.call(timelineRequest(s, presets));
  assert.match(
    headline(t, step),
    /^Stage 0 of 8 \(the most loaded\) peaks at [\d.]+ GiB, which fits in the GPU's 80 GiB/,
  );
  assert.match(momentText(moment(t, t.peak.segment)), /activation sets? in flight/);
  assert.match(bandText(step), /between [\d.]+ GiB and [\d.]+ GiB/);
  assert.deepEqual(step.error_band.memory_total.range.length, 2);
});

test('the state survives its own attribute values; the controls offer what the state holds', () => {
  for (const values of grid()) {
    const s = stateOf(values);
    assert.deepEqual(stateOf(stateValues(s)), s, JSON.stringify(values));
    const choices = controlChoices(s, presets);
    for (const [key] of CONTROLS) {
      const v = controlValue(key, s, null, presets);
      if (v === null) continue;
      assert.ok(
        choices[key].some(([x]) => x === v),
        `${key}=${v} offered`,
      );
    }
  }
  assert.equal(stateOf().model, MEMORY_DEFAULTS.model);
  assert.deepEqual(
    controlChoices(stateOf(), presets).schedule.map(([id]) => id),
    presets.schedules.map((x) => x.id),
  );
});

test("a sequence length of the model's own gives the preset's answer", () => {
  const s = stateOf();
  const model = presets.models.find((m) => m.id === s.model);
  const byId = engine.call(stepRequest(s, presets));
  const byShape = engine.call(stepRequest({ ...s, seq: model.seq }, presets));
  assert.equal(byShape.memory_per_gpu.total, byId.memory_per_gpu.total);
  assert.equal(typeof stepRequest({ ...s, seq: 4096 }, presets).model, 'object');
});

test("a move's words read as a phrase for every choice: resharding's default is the engine's default resharding", () => {
  const words = Object.fromEntries(CONTROLS.map(([key, , , say]) => [key, say]));
  const reshard = controlChoices(stateOf({ zero: '3' }), presets).reshard;
  assert.deepEqual(
    reshard.map(([v, label]) => words.reshard(v, label)),
    ["the engine's default resharding", 'resharding after each forward', 'resharding kept to the backward'],
  );
});
