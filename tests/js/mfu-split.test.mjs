// <parascope-mfu>'s split controls over the real engine: every offered value is answered, dependents move with a
// reason (issue 10 items 6 and 7), refused values are not offered.
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { PRESETS } from '../../web/widgets/mfu/model/presets.js';
import { makeAsker } from '../../web/widgets/mfu/model/asker.js';
import {
  KEYS,
  offered,
  presetSplit,
  resolve,
  settle,
  shortReason,
  stepRequest,
} from '../../web/widgets/mfu/model/split.js';
import { nodeEngine } from './node-engine.mjs';

const engine = await nodeEngine();
const preset = (id) => PRESETS.find((p) => p.id === id);
const start = (ask, id) => settle(ask, preset(id), presetSplit(preset(id))).split;

test('every preset starts on a split the engine answers, with the schedule it ran', () => {
  for (const p of PRESETS) {
    const ask = makeAsker(engine);
    const s = start(ask, p.id);
    const r = engine.call(stepRequest(p, s));
    assert.equal(s.schedule, r.parallel.schedule, p.id);
  }
});

test("GPT-3 and Llama 3: a schedule other than interleaved moves vpp to 1 with the engine's reason (item 6)", () => {
  for (const id of ['gpt3-175b', 'llama3-405b']) {
    const ask = makeAsker(engine);
    const s = start(ask, id);
    assert.ok(s.vpp > 1);
    for (const schedule of ['1f1b', 'gpipe', 'zb-h1']) {
      const r = resolve(ask, preset(id), s, 'schedule', schedule);
      assert.ok(r, `${id} ${schedule} has a valid figure`);
      assert.equal(r.split.vpp, 1);
      assert.deepEqual(
        r.moved.map((m) => [m.key, m.from, m.to]),
        [['vpp', s.vpp, 1]],
      );
      assert.match(r.moved[0].reason, /vpp > 1 needs schedule "interleaved"/);
      // And from there, recomputation and ZeRO changes are answered (the figure used to freeze here).
      for (const [key, value] of [
        ['recompute', 'full'],
        ['zero', 1],
        ['zero', 3],
      ]) {
        const next = resolve(ask, preset(id), r.split, key, value);
        assert.ok(next, `${id} ${schedule} then ${key} = ${value}`);
        assert.ok(engine.call(stepRequest(preset(id), next.split)).mfu > 0, `${id} ${schedule} then ${key} = ${value}`);
      }
    }
  }
});

test('a vpp above 1 on a non-interleaved schedule moves the schedule to interleaved', () => {
  const ask = makeAsker(engine);
  const s = resolve(ask, preset('gpt3-175b'), start(ask, 'gpt3-175b'), 'schedule', '1f1b').split;
  const r = resolve(ask, preset('gpt3-175b'), s, 'vpp', 2);
  assert.equal(r.split.schedule, 'interleaved');
  assert.deepEqual(
    r.moved.map((m) => m.key),
    ['schedule'],
  );
});

test('PaLM: pp = 128 and a global batch of 16 are not offered; tp = 16 moves the global batch (item 7)', () => {
  const ask = makeAsker(engine);
  const s = start(ask, 'palm-540b');
  const o = offered(ask, preset('palm-540b'), s);
  assert.ok(!o.pp.includes(128), 'pp = 128 needs more layers than PaLM has');
  assert.ok(!o.global_batch.includes(16));
  assert.ok(o.tp.includes(16) && !o.tp.includes(32));
  const r = resolve(ask, preset('palm-540b'), s, 'tp', 16);
  assert.deepEqual(
    r.moved.map((m) => [m.key, m.from, m.to]),
    [['global_batch', 2048, 1536]],
  );
  assert.match(r.moved[0].reason, /multiple of dp·microbatch_size = 384·4 = 1536$/);
});

test('every offered value of every control, in every preset, gives a split the engine answers', () => {
  for (const p of PRESETS) {
    const ask = makeAsker(engine);
    const s = start(ask, p.id);
    const o = offered(ask, p, s);
    for (const key of KEYS) {
      assert.ok(o[key].includes(s[key]), `${p.id}: ${key} offers its own value`);
      for (const v of o[key]) {
        const r = resolve(ask, p, s, key, v);
        assert.ok(r, `${p.id} ${key} = ${v}`);
        assert.equal(r.split[key], v);
        assert.doesNotThrow(() => engine.call(stepRequest(p, r.split)));
      }
    }
  }
});

test('attributes the engine refuses together are settled by moving dependents, or fall back to the preset', () => {
  const ask = makeAsker(engine);
  const gpt = preset('gpt3-175b');
  const r = settle(ask, gpt, { ...presetSplit(gpt), schedule: '1f1b' });
  assert.equal(r.fellBack, false);
  assert.equal(r.split.vpp, 1);
  const bad = settle(ask, gpt, { ...presetSplit(gpt), tp: 3 });
  assert.equal(bad.fellBack, true);
  assert.equal(bad.split.tp, 8);
});

test('the interleaving rule keeps its "or fewer": 12 microbatches on 16 stages is what the rule allows (item 9 of issue 25)', () => {
  const refusal = (() => {
    try {
      engine.call({
        op: 'step_check',
        model: 'gpt3-175b',
        hardware: 'a100-80gb',
        cluster: { gpus: 1024 },
        parallel: { tp: 8, pp: 16, vpp: 2, global_batch: 1640, schedule: 'interleaved' },
      });
    } catch (err) {
      return err;
    }
    return null;
  })();
  assert.ok(refusal, 'the engine refuses 17 microbatches on 16 stages');
  const reason = shortReason(refusal.message);
  assert.equal(reason, 'interleaved needs microbatches in a multiple of stages (16) or fewer');
});
