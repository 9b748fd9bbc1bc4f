// The planner's pure model on the real engine's `plan` answers: a seeded walk over the controls' values where every
// answer is drawn clean and no refusal is reachable, and every ranked row reproduced by the `step` op it loads.
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { ATTRIBUTES } from '../../web/lib/model/attributes.js';
import { loadValues, stepRequestOf } from '../../web/widgets/planner/model/load.js';
import { DEFAULTS, controlOptions, planRequest } from '../../web/widgets/planner/model/request.js';
import {
  bestText,
  emptyText,
  planErrorText,
  scatterLayout,
  summaryText,
  tableRows,
} from '../../web/widgets/planner/model/view.js';
import { seededRandom } from '../seeded-random.mjs';
import { nodeEngine, nodePlannerEngine } from './node-engine.mjs';

const engine = await nodePlannerEngine(); // the planner's module (its worker's)
const figures = await nodeEngine(); // the page's, which the figures a plan loads into use
const presets = engine.call({ op: 'presets' });
const hasPlan = (() => {
  try {
    engine.call(planRequest({ ...DEFAULTS, gpus: 8, globalBatch: 16 }));
    return true;
  } catch (err) {
    return !/unknown op/.test(err.message);
  }
})();
const BAD_TEXT = /NaN|Infinity|undefined|null|\[object/;
const capacityOf = (hardware) => presets.hardware.find((x) => x.id === hardware).memory_bytes;

test(
  'seeded walk: 30 random inputs, each a plan the engine answers and the figure draws clean',
  { skip: !hasPlan && 'no plan op in this engine' },
  () => {
    const rnd = seededRandom(1414);
    const pick = (list) => list[Math.floor(rnd() * list.length)];
    let inputs = { ...DEFAULTS, gpus: 64, globalBatch: 256 };
    for (let step = 0; step < 30; step += 1) {
      const options = controlOptions(presets, inputs);
      const key = pick(['model', 'hardware', 'gpus', 'globalBatch', 'objective', 'software']);
      // Large clusters are a few of the steps: a walk of only 4,096-GPU searches would take minutes under node.
      const values =
        key === 'gpus' ? options.gpus.filter(([v]) => Number(v) <= (rnd() < 0.1 ? 2048 : 256)) : options[key];
      const [value] = pick(values);
      inputs = { ...inputs, [key]: key === 'gpus' || key === 'globalBatch' ? Number(value) : value };
      let answer;
      assert.doesNotThrow(
        () => {
          answer = engine.call(planRequest(inputs));
        },
        `step ${step}: ${JSON.stringify(inputs)}`,
      );
      const capacity = capacityOf(inputs.hardware);
      const texts = [
        summaryText(answer),
        bestText(answer, capacity),
        emptyText(answer, capacity) ?? '',
        ...tableRows(answer, capacity).map((r) => r.label),
      ];
      for (const t of texts) assert.doesNotMatch(t, BAD_TEXT, `step ${step}: ${t}`);
      assert.ok(answer.results.length > 0 || emptyText(answer, capacity), `step ${step}: an empty answer says why`);
      const layout = scatterLayout(answer, { width: 700, height: 300, capacity });
      for (const p of layout.points) assert.ok(p.x >= 0 && p.x <= 700 && p.y >= 0 && p.y <= 300, `step ${step}`);
    }
  },
);

test(
  'every ranked row is reproduced by the step op it loads, and loads into values the figures accept',
  { skip: !hasPlan && 'no plan op in this engine' },
  () => {
    const cases = [
      { model: 'llama3-8b', hardware: 'h100-sxm', gpus: 16, globalBatch: 64, objective: 'mfu' },
      { model: 'gpt3-175b', hardware: 'a100-80gb', gpus: 64, globalBatch: 64, objective: 'mfu' },
      { model: 'mixtral-8x7b', hardware: 'h100-sxm', gpus: 64, globalBatch: 256, objective: 'step_time' },
      { model: 'llama3-70b', hardware: 'b200', gpus: 128, globalBatch: 512, objective: 'memory' },
      // fits only with the optimizer on the host: its rows' steps carry the share, and so do the loaded values
      { model: 'llama3-70b', hardware: 'h100-sxm', gpus: 16, globalBatch: 64, objective: 'mfu', offload: 1 },
      // another software stack: each row's step is costed for it too
      { model: 'llama3-8b', hardware: 'h100-sxm', gpus: 16, globalBatch: 64, objective: 'mfu', software: 'pytorch' },
      { model: 'llama3-8b', hardware: 'h100-sxm', gpus: 16, globalBatch: 64, objective: 'mfu', software: 'nanotron' },
      { model: 'llama3-8b', hardware: 'tpu-v5p', gpus: 16, globalBatch: 64, objective: 'mfu', software: 'xla' },
    ];
    for (const inputs of cases) {
      const answer = engine.call(planRequest(inputs));
      assert.ok(answer.results.length > 0, JSON.stringify(inputs));
      for (const r of answer.results) {
        const step = figures.call(stepRequestOf(inputs, r));
        assert.equal(step.mfu, r.mfu, `${inputs.model}: ${JSON.stringify(r.parallel)}`);
        assert.equal(step.step_time, r.step_time);
        const values = loadValues(inputs, r.parallel, step);
        for (const [tag, { values: v, note }] of Object.entries(values)) {
          assert.doesNotMatch(note, BAD_TEXT);
          for (const [name, value] of Object.entries(v)) {
            const spec = ATTRIBUTES[tag][name];
            if (spec.kind === 'int')
              assert.ok(Number.isInteger(value) && value >= spec.min && value <= spec.max, `${tag} ${name}=${value}`);
            if (spec.kind === 'choice' && spec.choices)
              assert.ok(spec.choices.includes(String(value)), `${tag} ${name}=${value}`);
          }
        }
        // The bubble figure draws what it is given: the engine's pipeline op answers it.
        const b = values['parascope-bubble'].values;
        if (b.stages > 1) {
          figures.call({
            op: 'pipeline',
            schedule: b.schedule,
            stages: b.stages,
            microbatches: b.microbatches,
            ...(b.schedule === 'interleaved' ? { chunks: b.chunks } : {}),
          });
        }
      }
    }
  },
);

test(
  'the software control changes the plan: each stack of the engine answers, and not all alike',
  { skip: !hasPlan && 'no plan op in this engine' },
  () => {
    const inputs = { ...DEFAULTS, model: 'llama3-8b', hardware: 'h100-sxm', gpus: 16, globalBatch: 64 };
    const best = new Map();
    for (const [software] of controlOptions(presets, inputs).software) {
      const answer = engine.call(planRequest({ ...inputs, software }));
      assert.ok(answer.results.length > 0, software);
      best.set(software, answer.results[0].mfu);
    }
    assert.deepEqual([...best.keys()], presets.software);
    assert.notEqual(best.get('pytorch'), best.get('megatron-core'), 'PyTorch eager and Megatron-Core cost differently');
    assert.ok(new Set(best.values()).size >= 3, `best MFUs: ${JSON.stringify([...best])}`);
  },
);

test(
  "Llama 3 70B on 16 H100s fits only with the optimizer on the host (the figure's megatron-core); a TPU refuses it",
  { skip: !hasPlan && 'no plan op in this engine' },
  () => {
    // Megatron-Core keeps the fp32 main weights on the GPU (engine/API.md offload_master_on_gpu): on one node of 8
    // nothing fits even offloaded; on two, only offloaded.
    const inputs = { ...DEFAULTS, model: 'llama3-70b', hardware: 'h100-sxm', gpus: 16, globalBatch: 64 };
    const without = engine.call(planRequest(inputs));
    assert.equal(without.results.length, 0);
    assert.match(emptyText(without, capacityOf('h100-sxm')), /^No configuration to rank: none fits/);
    const answer = engine.call(planRequest({ ...inputs, offload: 1 }));
    assert.ok(answer.results.length > 0);
    for (const r of answer.results) {
      assert.equal(r.parallel.offload_optimizer, 1);
      const step = figures.call(stepRequestOf(inputs, r));
      assert.ok(step.memory_per_gpu.host_offloaded > 0, 'the step it loads keeps the optimizer on the host');
      assert.equal(step.memory_per_gpu.total, r.memory_per_gpu.total ?? r.memory_per_gpu);
    }
    assert.throws(
      () => engine.call(planRequest({ ...inputs, hardware: 'tpu-v5p', offload: 0.5 })),
      (err) => err.field === 'offload_optimizer' && /TPUs/.test(planErrorText(err)),
    );
  },
);
