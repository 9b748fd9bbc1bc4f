// Hand-made `plan` answers shaped like the engine's contract (issue 14), for testing the planner's pure model without
// the engine: deterministic from a seed, every field the widget reads, numbers in realistic ranges.
import { seededRandom } from '../seeded-random.mjs';

const SCHEDULES = ['1f1b', 'interleaved', 'gpipe', 'zb-h1', 'zb-h2', 'dualpipe'];

/** A configuration: { parallel, mfu, step_time, memory_per_gpu, fits } for `gpus` GPUs and memory `capacity`. */
function entry(rnd, gpus, capacity) {
  const tp = [1, 2, 4, 8][Math.floor(rnd() * 4)];
  const pp = [1, 2, 4, 8, 16][Math.floor(rnd() * 5)];
  const dp = Math.max(1, Math.floor(gpus / (tp * pp)));
  const vpp = rnd() < 0.3 ? 2 : 1;
  const memory = capacity * (0.2 + rnd() * 2.6);
  const mfu = 0.05 + rnd() * 0.5;
  return {
    parallel: {
      dp,
      tp,
      pp,
      cp: rnd() < 0.1 ? 2 : 1,
      ep: 1,
      vpp,
      microbatch_size: [1, 2, 4][Math.floor(rnd() * 3)],
      schedule: vpp > 1 ? 'interleaved' : SCHEDULES[Math.floor(rnd() * SCHEDULES.length)],
      recompute: ['none', 'selective', 'full'][Math.floor(rnd() * 3)],
      sequence_parallel: rnd() < 0.5,
      zero: Math.floor(rnd() * 4),
    },
    mfu,
    step_time: 1 / mfu,
    memory_per_gpu: memory,
    fits: memory <= capacity,
  };
}

/** A whole answer: `n` scattered configurations, the top_k best that fit as results, a Pareto front. */
export function fakeAnswer({ seed = 1, gpus = 64, capacity = 80 * 2 ** 30, n = 300, topK = 10, empty = false } = {}) {
  const rnd = seededRandom(seed);
  const scatter = Array.from({ length: n }, () => entry(rnd, gpus, capacity));
  const fitting = scatter.filter((e) => e.fits && !empty).sort((a, b) => b.mfu - a.mfu);
  const byMemory = [...scatter].sort((a, b) => a.memory_per_gpu - b.memory_per_gpu);
  const pareto = [];
  for (const e of byMemory) if (!pareto.length || e.mfu > pareto[pareto.length - 1].mfu) pareto.push(e);
  return {
    results: fitting.slice(0, topK),
    evaluated: n * 7,
    rejected: { does_not_divide: n * 3, out_of_memory: scatter.length - fitting.length },
    pareto: empty ? [] : pareto,
    scatter: empty ? scatter.map((e) => ({ ...e, fits: false })) : scatter,
    elapsed: 0.0123,
    ...(empty ? { why_empty: 'nothing fits in memory.' } : {}),
  };
}
