// A seeded random walk over <parascope-mfu>'s pure model with the real engine: every control (preset, the split's
// sliders and selects, "your run"'s fields) through its whole range in random order. After each step: no refusal is
// left standing, the figure is the engine's answer for the current controls, and no text reads NaN/Infinity/undefined.
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { percent } from '../../web/lib/format.js';
import { PRESETS, YOUR_RUN } from '../../web/widgets/mfu/model/presets.js';
import { makeAsker } from '../../web/widgets/mfu/model/asker.js';
import { deviceWords } from '../../web/widgets/mfu/model/devices.js';
import { RUN_DEFAULTS, runRequest, runView } from '../../web/widgets/mfu/model/run.js';
import {
  KEYS,
  offered,
  presetSplit,
  resolve,
  settle,
  stepRequest,
  valuesOf,
} from '../../web/widgets/mfu/model/split.js';
import { stepView } from '../../web/widgets/mfu/model/step-view.js';
import { nodeEngine } from './node-engine.mjs';
import { seededRandom as random } from '../seeded-random.mjs';

const engine = await nodeEngine();
const presets = engine.call({ op: 'presets' });

const BAD_TEXT = /NaN|Infinity|undefined|null/;
const TYPED = [
  '0',
  '-5',
  '',
  '1.5',
  '1e30',
  '5000000',
  '238300',
  '1',
  '64',
  '6144',
  '10000000',
  '20000000',
  'abc',
  '3.7e5',
];

function assertClean(texts, where) {
  for (const [k, t] of Object.entries(texts)) assert.doesNotMatch(String(t), BAD_TEXT, `${where}: ${k} = ${t}`);
}

for (const seed of [1, 2]) {
  test(`walk ${seed}: 150 random moves of every control leave a live figure equal to the engine's answer`, () => {
    const rnd = random(seed);
    const pick = (list) => list[Math.floor(rnd() * list.length)];
    const ask = makeAsker(engine);
    let mode = pick([...PRESETS.map((p) => p.id), YOUR_RUN]);
    let p = PRESETS.find((x) => x.id === mode) ?? PRESETS[0];
    let split = settle(ask, p, presetSplit(p)).split;
    const run = { ...RUN_DEFAULTS };
    for (let step = 0; step < 150; step += 1) {
      const roll = rnd();
      let where;
      if (roll < 0.08) {
        mode = pick([...PRESETS.map((x) => x.id), YOUR_RUN]);
        where = `preset ${mode}`;
        if (mode !== YOUR_RUN) {
          p = PRESETS.find((x) => x.id === mode);
          split = settle(ask, p, presetSplit(p)).split;
        }
      } else if (mode === YOUR_RUN) {
        const field = pick(['model', 'hardware', 'gpus', 'tokensPerSecond', 'attention']);
        if (field === 'model') run.model = pick(presets.models).id;
        else if (field === 'hardware') run.hardware = pick(presets.hardware).id;
        else if (field === 'attention') run.attention = pick(['full', 'causal']);
        else run[field] = pick(TYPED);
        where = `your run ${field} = ${run[field]}`;
      } else {
        const key = pick(KEYS);
        const offers = offered(ask, p, split)[key];
        // Mostly what the control offers; sometimes any value (an out-of-date offer): refused ones change nothing.
        const value = rnd() < 0.8 ? pick(offers) : pick(valuesOf(key, p, split));
        where = `${p.id} ${key} = ${value}`;
        const r = resolve(ask, p, split, key, value);
        if (offers.includes(value)) assert.ok(r, `${where}: an offered value is answered`);
        if (r) split = r.split;
      }
      if (mode === YOUR_RUN) {
        const words = deviceWords(presets, run.hardware);
        const v = runView(ask, run, words);
        assertClean({ ...v.texts, ...v.hints }, where);
        const request = runRequest(run);
        let fresh = null;
        try {
          fresh = request && engine.call(request);
        } catch {
          fresh = null;
        }
        if (fresh) {
          assert.equal(v.response.mfu, fresh.mfu, where);
          assert.ok(v.texts.mfu.startsWith(percent(fresh.mfu)), where);
        } else {
          assert.equal(v.texts.mfu, '—', `${where}: a refused field leaves no figure`);
          assert.ok(v.hints.gpus || v.hints.tokensPerSecond, `${where}: the refusal is said beside its field`);
        }
      } else {
        const fresh = engine.call(stepRequest(p, split)); // throws (fails the test) on a standing refusal
        const words = deviceWords(presets, p.run.hardware);
        const v = stepView(ask(stepRequest(p, split)).response, { gpus: p.run.cluster.gpus, words });
        assert.equal(v.modelled, percent(fresh.mfu), where);
        assertClean(v, where);
        const o = offered(ask, p, split);
        for (const key of KEYS) assert.ok(o[key].includes(split[key]), `${where}: ${key} offers its current value`);
      }
    }
  });
}
