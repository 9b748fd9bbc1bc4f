// A seeded random walk over every control of the bubble widget's model, with the real engine: after each move the
// settings are ones the engine draws, the texts are the engine's numbers (no NaN, ∞ or undefined), a known form and the
// simulation beside it agree or the text says when the form holds, and every moved control says why.
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { nodeEngine } from './node-engine.mjs';
import { seededRandom as random } from '../seeded-random.mjs';

const dist = new URL('../../dist/', import.meta.url);
const { engineCheck, settle } = await import(new URL('widgets/bubble/model/rules.js', dist));
const { LIMITS } = await import(new URL('widgets/bubble/model/state.js', dist));
const { scheduleChoices } = await import(new URL('lib/model/engine-lists.js', dist));
const { bubbleTexts } = await import(new URL('widgets/bubble/model/text.js', dist));

const engine = await nodeEngine();
const check = engineCheck(engine);

/** A move a reader can make: a control that is enabled, to a value it offers (a jump anywhere or a keyboard step). */
function randomMove(rand, settled) {
  const pick = (list) => list[Math.floor(rand() * list.length)];
  const controls = ['schedule', 'stages', 'microbatches', 'forwardOnly', 'chunks'].filter((c) =>
    c === 'chunks' ? settled.applies.chunks : c === 'forwardOnly' ? settled.applies.forwardOnly : true,
  );
  const key = pick(controls);
  if (key === 'schedule') return [key, pick(scheduleChoices())[0]];
  if (key === 'forwardOnly') return [key, !settled.shown.forwardOnly];
  const [lo, hi] = LIMITS[key];
  const now = settled.shown[key];
  if (rand() < 0.5) return [key, Math.min(hi, Math.max(lo, now + (rand() < 0.5 ? -1 : 1)))];
  return [key, lo + Math.floor(rand() * (hi - lo + 1))];
}

for (const seed of [1, 2, 3]) {
  test(`a random walk over every control (seed ${seed}) never leaves a refusal or a wrong number`, () => {
    const rand = random(seed);
    let settled = settle({ schedule: 'gpipe', stages: 4, microbatches: 8, chunks: 2, forwardOnly: true }, check);
    const seen = new Set();
    for (let step = 0; step < 150; step += 1) {
      const [key, value] = randomMove(rand, settled);
      const from = settled.state[key];
      settled = settle({ ...settled.state, [key]: value }, check, { moved: key, from });
      const where = `seed ${seed} step ${step}: ${key} ${from} → ${value}, settled ${JSON.stringify(settled.shown)}`;
      const { shown, request, hints } = settled;

      assert.equal(check(request), null, where);
      const r = engine.call({ ...request, include_ops: false });
      assert.equal(r.schedule, shown.schedule, where);
      assert.equal(r.stages, shown.stages, where);
      assert.equal(r.microbatches, shown.microbatches, where);
      assert.equal(r.chunks, shown.chunks, where);
      assert.equal(r.forward_only, shown.forwardOnly, where);
      for (const k of ['stages', 'microbatches', 'chunks']) {
        assert.ok(shown[k] >= LIMITS[k][0] && shown[k] <= LIMITS[k][1], where);
      }
      if (key !== 'schedule' && key !== 'forwardOnly' && shown[key] !== value) {
        assert.match(hints[key], new RegExp(`: ${value} → ${shown[key]}$`), `a moved control says why; ${where}`);
      }

      const texts = bubbleTexts(r);
      for (const [name, text] of Object.entries(texts)) {
        assert.doesNotMatch(text, /NaN|Infinity|undefined|null/, `${name}: ${text}; ${where}`);
      }
      assert.equal(texts.efficiency, `${(r.efficiency * 100).toFixed(1)} %`, where);
      assert.ok(texts.formula.includes(`= ${(r.efficiency * 100).toFixed(1)} %`), where);
      const cf = r.closed_form;
      if (cf.value === null) {
        assert.match(texts.closedForm, /which holds when/, where);
      } else {
        assert.ok(
          Math.abs(cf.value - r[cf.measure]) < 1e-9,
          `known form ${cf.value} vs simulated ${r[cf.measure]}; ${where}`,
        );
      }
      for (const hint of Object.values(hints)) assert.doesNotMatch(hint, /NaN|undefined/, where);
      seen.add(`${key}:${shown.schedule}`);
    }
    assert.ok(seen.size >= 17, `the walk reached ${seen.size} of 21 control × schedule pairs`);
  });
}
