// <parascope-run>'s and <parascope-nccl>'s model code on the planner's engine (the module that answers run and
// nccl_fit): the figure's default request is the engine's own Llama 3 anchor (tests/fixtures/api/run.txt), every
// number it shows is a field of the answer, the wall clock's three parts add up to the engine's wall time, goodput
// falls as GPUs grow, refusals read as sentences for readers, and the nccl-tests fit drawn is within 5 % of the
// published H200 output (tests/fixtures/nccl-tests/).
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';

import { fixtureCases, nodePlannerEngine } from './node-engine.mjs';
import { curvePoints, curveSentence, neverFinishes } from '../../web/widgets/run/model/curve.js';
import { runErrorText } from '../../web/widgets/run/model/errors.js';
import { headline, wallParts, wallSentence } from '../../web/widgets/run/model/readout.js';
import {
  RATE_STEPS,
  RUN_FIGURE_DEFAULTS as D,
  rateAt,
  rateIndex,
  runRequest,
  scaleLadder,
} from '../../web/widgets/run/model/request.js';
import { readState, stateValues } from '../../web/widgets/run/model/state.js';
import { ATTRIBUTES as RUN_ATTRIBUTES } from '../../web/widgets/run/attributes.js';
import { algbwText, pasteErrorText, runValues, tablePoints, worstMiss } from '../../web/widgets/nccl/model/fit-view.js';
import { byteTicks, logTicks } from '../../web/widgets/nccl/model/ticks.js';
import { EXAMPLES } from '../../web/widgets/nccl/model/examples.js';

const engine = await nodePlannerEngine();
const presets = engine.call({ op: 'presets' });
const fixture = (name) => readFileSync(new URL(`../fixtures/nccl-tests/${name}`, import.meta.url), 'utf8');

/** An attribute reader like the element's (lib/widget-attributes.js), over a plain map, recording its notes. */
function reader(values) {
  const notes = [];
  const raw = (n) => (n in values ? String(values[n]) : null);
  return {
    notes,
    rawAttribute: raw,
    flagAttribute: (n) => raw(n) !== null && raw(n) !== 'false',
    intAttribute: (n, { fallback }) => (raw(n) === null ? fallback : Number(raw(n))),
    numberAttribute: (n, { min = 0, fallback }) => {
      const v = raw(n) === null ? fallback : Number(raw(n));
      if (!(v > min)) notes.push(n);
      return v > min ? v : fallback;
    },
    choiceAttribute: (n, allowed, fallback) => (allowed.includes(raw(n)) ? raw(n) : fallback),
  };
}

const defaultState = () => readState(reader({}), RUN_ATTRIBUTES, presets);

test("the figure's default run is the engine's Llama 3 405B anchor, answered the same", async () => {
  const anchor = (await fixtureCases()).find((c) => c.file === 'run.txt' && /Llama 3 405B's 15.6T tokens/.test(c.name));
  const mine = engine.call(runRequest(defaultState()));
  const theirs = JSON.parse(anchor.response);
  for (const key of ['goodput', 'wall_clock_days', 'effective_mfu', 'gpu_hours', 'steps', 'step_time'])
    assert.equal(mine[key], theirs[key], key);
  assert.deepEqual(mine.failures, theirs.failures);
  assert.deepEqual(mine.checkpoint, theirs.checkpoint);
  assert.ok(mine.goodput > 0.9, 'Llama 3: "higher than 90% effective training time"');
});

test('every headline number is a field of the answer, and the wall clock parts add up to its wall time', () => {
  const a = engine.call(runRequest(defaultState()));
  const rows = Object.fromEntries(headline(a).map((r) => [r.key, r.value]));
  assert.deepEqual(rows, {
    days: a.wall_clock_days,
    failures: a.failures.expected,
    checkpoint: a.checkpoint.interval,
    goodput: a.goodput,
    'effective-mfu': a.effective_mfu,
    'gpu-hours': a.gpu_hours,
    energy: a.energy.mwh,
    cost: a.cost.dollars,
  });
  const parts = wallParts(a);
  const total = parts.reduce((s, p) => s + p.seconds, 0);
  assert.ok(Math.abs(total / a.wall_time - 1) < 1e-6, `${total} against ${a.wall_time}`);
  assert.ok(Math.abs(parts[0].share - a.goodput) < 1e-12);
  // The sentence reads the answer's own numbers (111 days and 91.1 % for the default run today).
  const days = Math.round(a.wall_clock_days);
  const share = (100 * a.goodput).toFixed(1);
  assert.ok(
    wallSentence(a).startsWith(`Of ${days} days on the wall clock, ${share} % trains the model`),
    wallSentence(a),
  );
});

test('the scale ladder: power-of-two replicas of the split, the same whatever count is picked; goodput falls as GPUs grow', () => {
  const s = defaultState();
  const ladder = scaleLadder(s);
  assert.ok(ladder.includes(s.gpus));
  assert.deepEqual(
    ladder,
    [...ladder].sort((a, b) => a - b),
  );
  for (const g of ladder) assert.equal(g % (s.tp * s.pp * s.cp), 0);
  assert.equal(ladder[0], s.tp * s.pp * s.cp * 8); // 2,048 sequences over 8 replicas: 256 microbatches each
  assert.equal(ladder[ladder.length - 1], s.tp * s.pp * s.cp * s.globalBatch);
  for (const gpus of ladder) assert.deepEqual(scaleLadder({ ...s, gpus }), ladder, `picked ${gpus}`);
  assert.deepEqual(
    scaleLadder({ ...s, gpus: 1536 }),
    [...ladder, 1536].sort((a, b) => a - b),
  );
  const asked = ladder.map((gpus) => {
    try {
      return { gpus, answer: engine.call(runRequest(s, gpus)), error: null };
    } catch (error) {
      return { gpus, answer: null, error };
    }
  });
  const points = curvePoints(asked);
  // 16× Llama 3's cluster never finishes at its failure rate: the engine says so, and the curve stops before it
  assert.deepEqual(neverFinishes(asked), [262_144]);
  assert.equal(points.length, ladder.length - 1);
  for (let i = 1; i < points.length; i += 1) {
    assert.ok(points[i].goodput < points[i - 1].goodput, `goodput at ${points[i].gpus}`);
    assert.ok(points[i].mtbf < points[i - 1].mtbf, `MTBF at ${points[i].gpus}`);
  }
  const sentence = curveSentence(points, neverFinishes(asked));
  assert.match(sentence, /^From 1,024 to 131,072 GPUs goodput goes from 99\.0 % to 41\.4 %/);
  assert.match(sentence, /On 262,144 GPUs it never finishes/);
  // a count the engine refuses is left off the curve, not guessed
  const odd = curvePoints([
    { gpus: 3, answer: null },
    ...points.slice(0, 1).map((p) => ({ gpus: p.gpus, answer: engine.call(runRequest(s, p.gpus)) })),
  ]);
  assert.deepEqual(
    odd.map((p) => p.gpus),
    [points[0].gpus],
  );
});

test('the failure-rate slider: ⅛× to 8× the engine’s default rate, a given rate found at its step', () => {
  const a = engine.call(runRequest(defaultState()));
  const reference = a.failures.rate_per_gpu_hour;
  assert.equal(reference, 419 / (54 * 24 * 16_384));
  assert.equal(rateAt(reference, rateIndex(reference, null)), reference);
  assert.equal(rateAt(reference, 0), reference / 8);
  assert.equal(rateAt(reference, RATE_STEPS.length - 1), reference * 8);
  for (let i = 0; i < RATE_STEPS.length; i += 1) assert.equal(rateIndex(reference, rateAt(reference, i)), i);
  const faster = engine.call(runRequest({ ...defaultState(), failureRate: rateAt(reference, 8) }));
  assert.ok(faster.goodput < a.goodput);
  assert.equal(faster.failures.rate_per_gpu_hour, reference * 2);
});

test('the state reads its attributes and writes them back; engine defaults are left out of the link', () => {
  const values = {
    model: 'gpt3-175b',
    hardware: 'a100-80gb',
    gpus: 1024,
    tp: 8,
    pp: 8,
    'global-batch': 1536,
    zero: '1',
    price: 1.5,
    'inter-bandwidth': 5e10,
  };
  const s = readState(reader(values), RUN_ATTRIBUTES, presets);
  const back = stateValues(s);
  for (const [k, v] of Object.entries(values)) assert.equal(String(back[k]), String(v), k);
  assert.equal(back['failure-rate'], undefined);
  const request = runRequest(s);
  assert.equal(request.price_per_gpu_hour, 1.5);
  assert.equal(request.cluster.inter_bandwidth, 5e10);
  assert.equal('failure_rate' in request, false);
  assert.ok(engine.call(request).goodput > 0);
  const zero = reader({ 'failure-rate': 0 });
  assert.equal(readState(zero, RUN_ATTRIBUTES, presets).failureRate, null);
  assert.deepEqual(zero.notes, ['failure-rate']);
});

/** The engine's refusal of `patch` on the default run. */
function refusal(patch) {
  try {
    engine.call({ ...runRequest(defaultState()), ...patch });
  } catch (err) {
    return err;
  }
  throw new Error(`not refused: ${JSON.stringify(patch)}`);
}

test('refusals read as sentences for readers, never the engine message', () => {
  const cases = [
    [{ price_per_gpu_hour: -1 }, /price per GPU-hour/],
    [{ failure_rate: 0 }, /failure rate/],
    [{ failure_rate: 0.01 }, /never finishes/],
    [{ cluster: { gpus: 1000 } }, /does not run on this many GPUs/],
  ];
  for (const [patch, words] of cases) {
    const err = refusal(patch);
    const text = runErrorText(err);
    assert.match(text, words, `${err.code} ${err.field}: ${text}`);
    assert.ok(!text.includes(err.message));
  }
});

test('nccl: the H200 example is fitted within 5 % of every printed busbw, and its links go to the run figure', () => {
  const a = engine.call({ op: 'nccl_fit', text: fixture('h200-2x8-all-reduce.txt') });
  const { points, leftOff } = tablePoints(a, 0);
  assert.equal(points.length, 5);
  assert.equal(leftOff, 0);
  assert.ok(worstMiss(points) < 0.05);
  assert.deepEqual(
    points.map((p) => p.measured),
    a.points.map((p) => p.measured_busbw),
  );
  const values = runValues(a);
  assert.deepEqual(values, {
    'inter-bandwidth': a.cluster.inter_bandwidth,
    'inter-latency': a.cluster.inter_latency,
    'gpus-per-node': 8,
  });
  assert.match(
    algbwText(a.tables[0], points),
    /^At 16 GiB the test measured algbw 259 GB\/s .* busbw 486 GB\/s: × 1\.875 for 16 GPUs\.$/,
  );
  const s = readState(reader(values), RUN_ATTRIBUTES, presets);
  assert.ok(engine.call(runRequest(s)).goodput > 0, 'the run figure takes the fitted links');
});

test('nccl: rows printed as 0.00 GB/s are left off the log scale and counted', () => {
  const a = engine.call({ op: 'nccl_fit', text: fixture('a100-1x8-all-reduce.txt') });
  const { points, leftOff } = tablePoints(a, 0);
  assert.equal(points.length + leftOff, a.points.length);
  assert.equal(leftOff, a.points.filter((p) => p.measured_busbw === 0).length);
  assert.ok(leftOff > 0);
});

test('nccl: a malformed paste names its line in the reader’s words; the examples are the fixtures', () => {
  const text = fixture('h200-2x8-all-reduce.txt').replace(/(\n\s+2147483648\s+\S+)/, '$1 garbage');
  let err = null;
  try {
    engine.call({ op: 'nccl_fit', text });
  } catch (e) {
    err = e;
  }
  assert.equal(
    pasteErrorText(err),
    'Line 26 of the paste does not read as an nccl-tests row; check that it was copied whole.',
  );
  for (const e of EXAMPLES) {
    const shipped = readFileSync(new URL(`../../web/data/nccl-tests/${e.file}`, import.meta.url), 'utf8');
    assert.equal(shipped, fixture(e.file));
  }
});

test('nccl chart ticks: 1-2-5 decades inside the range, powers of two for sizes', () => {
  assert.deepEqual(logTicks(3e8, 6e11), [1e9, 1e10, 1e11]);
  assert.deepEqual(logTicks(3.5e11, 6.3e11), [3.9e11, 4.7e11, 5.6e11]); // one 1-2-5 value inside: three of its own
  assert.deepEqual(logTicks(1e6, 1e12), [1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12]);
  assert.deepEqual(byteTicks(64, 2 ** 33), [64, 2 ** 12, 2 ** 18, 2 ** 24, 2 ** 30]);
  assert.deepEqual(byteTicks(2 ** 30, 2 ** 34), [2 ** 30, 2 ** 31, 2 ** 32, 2 ** 33, 2 ** 34]);
});
