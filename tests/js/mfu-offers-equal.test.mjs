// The mfu figure's check path (step_check) against the per-step path it replaced (tests/js/mfu-split-by-step.mjs):
// for every preset the figure offers, and a planned ("custom") run of every model the engine publishes, the same
// starting split, the same offers on every control and the same move (split, moved controls, hints) for every value
// of every control, along a seeded walk of control values.
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { PRESETS } from '../../web/widgets/mfu/model/presets.js';
import { makeAsker } from '../../web/widgets/mfu/model/asker.js';
import { MFU_CUSTOM } from '../../web/widgets/mfu/model/custom.js';
import {
  KEYS,
  offered,
  presetSplit,
  resolve,
  settle,
  stepRequest,
  valuesOf,
} from '../../web/widgets/mfu/model/split.js';
import { seededRandom } from '../seeded-random.mjs';
import { offeredByStep, resolveByStep, settleByStep } from './mfu-split-by-step.mjs';
import { nodeEngine } from './node-engine.mjs';

const engine = await nodeEngine();
const { models } = engine.call({ op: 'presets' });

/** A planned run as <parascope-mfu preset="custom"> builds it (customRun): tp = pp = 1, global batch 256. */
const custom = (model, hardware, gpus, ep = 1) => ({
  id: `${MFU_CUSTOM} ${model} ${gpus}×${hardware}`,
  run: {
    model,
    hardware,
    cluster: { gpus },
    parallel: { tp: 1, pp: 1, global_batch: 256, cp: 1, ep, sequence_parallel: false },
  },
});

/** What a move shows: the split and each moved control with its hint (resolve's answer without the engine's numbers). */
const shown = (r) => r && { split: r.split, moved: r.moved };

/** Walks `steps` moves from the preset's start; at each split both paths must offer and move alike. */
function walk(p, seed, steps) {
  const rnd = seededRandom(seed);
  const pick = (list) => list[Math.floor(rnd() * list.length)];
  const byStep = makeAsker(engine);
  const byCheck = makeAsker(engine);
  const old = settleByStep(byStep, p, presetSplit(p));
  const now = settle(byCheck, p, presetSplit(p));
  assert.deepEqual([now.split, now.moved, now.fellBack], [old.split, old.moved, old.fellBack], `${p.id}: start`);
  let split = now.split;
  let moves = 0;
  for (let step = 0; step < steps; step += 1) {
    const where = `${p.id} seed ${seed} step ${step} ${JSON.stringify(split)}`;
    const offers = offered(byCheck, p, split);
    assert.deepEqual(offers, offeredByStep(byStep, p, split), `${where}: offers`);
    for (const key of KEYS) {
      for (const value of valuesOf(key, p, split)) {
        const r = resolve(byCheck, p, split, key, value);
        assert.deepEqual(shown(r), shown(resolveByStep(byStep, p, split, key, value)), `${where}: ${key} = ${value}`);
        if (r) assert.ok(!('error' in byCheck(stepRequest(p, r.split))), `${where}: ${key} = ${value} is answered`);
      }
    }
    const key = pick(KEYS);
    const value = pick(offers[key].length > 1 ? offers[key].filter((v) => v !== split[key]) : offers[key]);
    const r = resolve(byCheck, p, split, key, value);
    moves += r.moved.length;
    split = r.split;
  }
  return moves;
}

test("every preset: the same start, offers and moves as asking each split's whole step", () => {
  let moved = 0;
  for (const p of PRESETS) moved += walk(p, 1, 6);
  assert.ok(moved > 0, 'the walks moved no dependent control: no hint was compared');
});

test('every preset started from attributes the engine refuses: settled alike', () => {
  for (const p of PRESETS) {
    const base = presetSplit(p);
    for (const change of [
      { schedule: '1f1b' },
      { tp: 3 },
      { tp: 1 },
      { pp: 128 },
      { vpp: 8, schedule: 'interleaved' },
      { global_batch: 16, microbatch_size: 16 },
      { schedule: 'dualpipe' },
    ]) {
      const split = { ...base, ...change };
      const old = settleByStep(makeAsker(engine), p, split);
      const now = settle(makeAsker(engine), p, split);
      assert.deepEqual(
        [now.split, now.moved, now.fellBack],
        [old.split, old.moved, old.fellBack],
        `${p.id} ${JSON.stringify(change)}`,
      );
    }
  }
});

test('a planned run of every model the engine publishes: the same offers and moves', () => {
  const moe = (m) => (m.experts ?? 1) > 1;
  for (const m of models) walk(custom(m.id, 'h100-sxm', 256, moe(m) ? 8 : 1), 2, 2);
});
