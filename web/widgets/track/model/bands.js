// The engine's error band per stack family, as the lines beside y = x: asked of the engine (a `step` answer's
// error_band, engine/src/error_band.cpp, from engine/data/error_bands.json), never recomputed here. The band is a
// ratio to the prediction (measured / predicted, 10th and 90th percentile over held-out runs), so the answer's
// [low, high] over its own prediction gives it back whatever run is asked: a small one is asked.

import { familyLabel } from './families.js';

/** The step request whose answer carries family `family`'s band (the band depends on the stack, not the run). */
export function bandRequest(family) {
  return {
    op: 'step',
    model: 'gpt2-124m',
    hardware: 'h100-sxm',
    cluster: { gpus: 8 },
    parallel: { global_batch: 8 },
    software: family,
  };
}

/**
 * The band of `view` from a step answer: { low, high, median (measured / predicted), basis (the stack whose held-out
 * runs it comes from, or "all stacks…", in the legend's names: the engine's "all stacks and deepspeed" reads "all
 * stacks and Megatron-DeepSpeed"), runs (held-out runs it rests on) }.
 */
export function bandOf(answer, view) {
  const b = answer.error_band;
  if (view === 'memory') {
    const m = b.memory_total;
    const total = answer.memory_per_gpu.total;
    return {
      low: m.range[0] / total,
      high: m.range[1] / total,
      median: m.median_measured_over_predicted,
      basis: 'all stacks',
      runs: m.held_out_runs,
    };
  }
  return {
    low: b.mfu[0] / answer.mfu,
    high: b.mfu[1] / answer.mfu,
    median: b.median_measured_over_predicted,
    basis: b.basis
      .split(' and ')
      .map((part) => familyLabel(part))
      .join(' and '),
    runs: b.held_out_runs,
  };
}
