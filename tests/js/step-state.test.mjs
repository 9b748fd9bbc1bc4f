// lib/model/step-state.js, the step request's fields the step, memory and run figures share: read from attributes,
// written back in the order links have always carried them, the engine's defaults left out, and the `parallel` block
// the engine takes; each figure's state reads the shared fields through it and keeps its own beside them.
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { nodeEngine } from './node-engine.mjs';
import {
  given,
  presentValues,
  readChoice,
  readOptional,
  readStepState,
  stepAttributes,
  stepParallel,
  stepValues,
} from '../../web/lib/model/step-state.js';
import * as stepState from '../../web/widgets/step/model/state.js';
import * as memoryState from '../../web/widgets/memory/model/state.js';
import * as runState from '../../web/widgets/run/model/state.js';
import { ATTRIBUTES as STEP } from '../../web/widgets/step/attributes.js';
import { ATTRIBUTES as MEMORY } from '../../web/widgets/memory/attributes.js';
import { ATTRIBUTES as RUN } from '../../web/widgets/run/attributes.js';

const engine = await nodeEngine();
const presets = engine.call({ op: 'presets' });

/** An attribute reader over a plain map, like lib/widget-attributes.js's (a bad choice: the fallback, noted). */
function reader(values) {
  const notes = [];
  const raw = (n) => (n in values && values[n] !== null ? String(values[n]) : null);
  const fallbackNoted = (n, fallback) => {
    notes.push(n);
    return fallback;
  };
  return {
    notes,
    rawAttribute: raw,
    flagAttribute: (n) => raw(n) !== null && raw(n) !== 'false',
    intAttribute: (n, { fallback }) => (raw(n) === null ? fallback : Number(raw(n))),
    numberAttribute: (n, { fallback }) => (raw(n) === null ? fallback : Number(raw(n))),
    choiceAttribute: (n, allowed, fallback) => {
      if (raw(n) === null) return fallback;
      return allowed.includes(raw(n)) ? raw(n) : fallbackNoted(n, fallback);
    },
  };
}

const SHARED_ORDER = [
  'model',
  'hardware',
  'gpus',
  'tp',
  'pp',
  'vpp',
  'cp',
  'ep',
  'microbatch-size',
  'global-batch',
  'recompute',
  'schedule',
  'zero',
];

const D = { model: 'gpt3-175b', hardware: 'a100-80gb', gpus: 128, tp: 8, pp: 8, globalBatch: 64 };
const A = stepAttributes(D);

test('the shared attributes: the defaults given, the rest the engine’s, a figure’s own words where it has them', () => {
  assert.deepEqual(Object.keys(A), SHARED_ORDER);
  assert.deepEqual(
    [A.model.fallback, A.gpus.fallback, A.vpp.fallback, A['global-batch'].fallback],
    ['gpt3-175b', 128, 1, 64],
  );
  assert.equal(A.zero.fallback, null);
  assert.equal(A.zero.defaultText, "the engine's", 'no zero given: the engine picks it, and the docs say so');
  const own = stepAttributes({ ...D, zero: '1' }, { zero: 'ZeRO stage (3 = FSDP)' });
  assert.deepEqual(
    [own.zero.fallback, own.zero.about, 'defaultText' in own.zero],
    ['1', 'ZeRO stage (3 = FSDP)', false],
  );
  assert.equal(own.tp.about, 'tensor-parallel size', 'words not given stay the shared ones');
});

test('no attributes: the defaults; values written read back to the same state, in the links’ order', () => {
  const none = readStepState(reader({}), A, presets);
  assert.deepEqual(none, {
    model: 'gpt3-175b',
    hardware: 'a100-80gb',
    gpus: 128,
    tp: 8,
    pp: 8,
    vpp: 1,
    cp: 1,
    ep: 1,
    microbatchSize: 1,
    globalBatch: 64,
    recompute: null,
    schedule: null,
    zero: null,
  });
  assert.deepEqual(Object.keys(presentValues(stepValues(none))), SHARED_ORDER.slice(0, 10));
  const values = {
    model: presets.models.at(-1).id,
    hardware: presets.hardware.at(-1).id,
    gpus: 512,
    tp: 4,
    pp: 4,
    vpp: 2,
    cp: 2,
    ep: 1,
    'microbatch-size': 2,
    'global-batch': 256,
    recompute: presets.recompute.at(-1),
    schedule: presets.schedules.at(-1).id,
    zero: String(presets.zero.at(-1)),
  };
  const s = readStepState(reader(values), A, presets);
  const back = stepValues(s);
  assert.deepEqual(Object.keys(back), SHARED_ORDER);
  for (const [k, v] of Object.entries(values)) assert.equal(String(back[k]), String(v), k);
  assert.deepEqual(readStepState(reader(back), A, presets), s);
});

test('a choice not in the engine’s list falls back (noted); an absent optional number is null, the engine’s', () => {
  const r = reader({ model: 'no-such-model', schedule: 'sideways', seq: 4096 });
  const s = readStepState(r, A, presets);
  assert.deepEqual([s.model, s.schedule], ['gpt3-175b', null]);
  assert.deepEqual(r.notes, ['model', 'schedule']);
  const S = { seq: { kind: 'int', min: 1, max: 1e7, fallback: null }, price: { kind: 'number', fallback: null } };
  assert.equal(readOptional(r, S, 'seq'), 4096);
  assert.equal(readOptional(r, S, 'price'), null);
  assert.equal(readChoice(reader({}), { x: { fallback: null } }, 'x', ['a']), null);
  assert.deepEqual(presentValues({ a: null, b: undefined, c: 0, d: 'false', e: '' }), { c: 0, d: 'false', e: '' });
  assert.deepEqual([given(0), given(''), given(null), given('1')], [true, false, false, true]);
});

test('the parallel block: empty fields left to the engine, vpp only above 1, zero as a number; the engine takes it', () => {
  const s = { ...readStepState(reader({}), A, presets), sequenceParallel: false };
  const p = stepParallel(s);
  assert.deepEqual(Object.keys(p), ['tp', 'pp', 'cp', 'ep', 'microbatch_size', 'global_batch', 'sequence_parallel']);
  const set = stepParallel({ ...s, vpp: 2, zero: '1', recompute: 'full', schedule: 'interleaved' });
  assert.deepEqual([set.vpp, set.zero, set.recompute, set.schedule], [2, 1, 'full', 'interleaved']);
  const answer = engine.call({
    op: 'step',
    model: s.model,
    hardware: s.hardware,
    cluster: { gpus: s.gpus },
    parallel: p,
  });
  assert.ok(answer.step_time > 0, JSON.stringify(answer).slice(0, 200));
});

test('the step, memory and run figures read the shared fields alike, each with its own beside them', () => {
  const values = {
    model: 'llama3-70b',
    hardware: 'h100-sxm',
    gpus: 64,
    tp: 4,
    pp: 8,
    cp: 1,
    'global-batch': 64,
    zero: '1',
  };
  for (const [name, module, attributes, own] of [
    ['step', stepState, STEP, ['first-stage', 'stages-shown']],
    ['memory', memoryState, MEMORY, ['seq', 'reshard', 'precision', 'stage']],
    ['run', runState, RUN, ['tokens', 'checkpoint-mode', 'price']],
  ]) {
    const s = module.readState(reader(values), attributes, presets);
    const shared = readStepState(reader(values), attributes, presets);
    for (const [k, v] of Object.entries(shared)) assert.deepEqual(s[k], v, `${name} ${k}`);
    for (const a of own) assert.ok(a in attributes, `${name} keeps ${a}`);
    const written = Object.keys(module.stateValues(s)).filter((k) => SHARED_ORDER.includes(k));
    assert.deepEqual(
      written,
      SHARED_ORDER.filter((k) => written.includes(k)),
      `${name} writes them in order`,
    );
  }
});
