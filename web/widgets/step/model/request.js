// The `timeline` requests the figure sends: the reader's configuration as a step request, the stages on screen, the
// compact columns form (engine/API.md, `timeline`). Pure: no DOM, no engine call; no number here is the engine's.
import { withNetwork } from '../../../lib/model/network.js';
import { stepParallel, withOffload } from '../../../lib/model/step-state.js';

/**
 * The figure's starting step: GPT-3 175B on 128 A100s (80 GB), tp 8 inside a node, pp 8, two data-parallel
 * replicas of 32 microbatches each (the engine's README example split, doubled in dp so the gradient all-reduce after
 * the pipeline shows); small enough to answer in a few ms.
 */
export const STEP_FIGURE_DEFAULTS = {
  model: 'gpt3-175b',
  hardware: 'a100-80gb',
  gpus: 128,
  tp: 8,
  pp: 8,
  globalBatch: 64,
};

/** Powers of two from 1 to `most`, and `keep` among them when it is not one (a planner row's odd size). */
export function powersUpTo(most, keep) {
  const out = [];
  for (let v = 1; v <= most; v *= 2) out.push(v);
  if (Number.isInteger(keep) && keep >= 1 && !out.includes(keep)) out.push(keep);
  return out.sort((a, b) => a - b);
}

/** GPUs per data-parallel replica (tp · pp · cp). */
export const replicaGpus = (s) => s.tp * s.pp * s.cp;

/** Data-parallel replicas of state `s`, or null when the GPUs do not divide into replicas. */
export function dataParallel(s) {
  const dp = s.gpus / replicaGpus(s);
  return Number.isInteger(dp) && dp >= 1 ? dp : null;
}

/** Microbatches each pipeline runs per step (global batch / (dp · microbatch size)), or null when it does not divide. */
export function microbatches(s) {
  const dp = dataParallel(s);
  if (!dp) return null;
  const m = s.globalBatch / (dp * s.microbatchSize);
  return Number.isInteger(m) && m >= 1 ? m : null;
}

/** State `s` with `dp` replicas, the microbatches per pipeline held (the batch follows). */
export function withDataParallel(s, dp) {
  const m = microbatches(s) ?? 1;
  return { ...s, gpus: replicaGpus(s) * dp, globalBatch: m * dp * s.microbatchSize };
}

/** State `s` with `m` microbatches per pipeline, the replicas held. */
export function withMicrobatches(s, m) {
  const dp = dataParallel(s) ?? 1;
  return { ...s, globalBatch: m * dp * s.microbatchSize };
}

/** State `s` with a new tp, pp or cp (`key`), the replicas and microbatches held (the GPU count follows). */
export function withSplit(s, key, value) {
  const dp = dataParallel(s) ?? 1;
  const m = microbatches(s) ?? 1;
  const next = { ...s, [key]: value };
  return { ...next, gpus: replicaGpus(next) * dp, globalBatch: m * dp * s.microbatchSize };
}

/**
 * The step of state `s` as request fields, without an op (fields the state leaves empty are the engine's defaults):
 * every request of the figure is a `timeline` one, so its embedded module need not answer `step`.
 */
export function stepFields(s) {
  // your cluster's links ride GPU runs only: a TPU slice's chips have their own ICI
  const network = s.gpuChips?.includes(s.hardware) ? s.network : null;
  return {
    model: s.model,
    hardware: s.hardware,
    cluster: withNetwork({ gpus: s.gpus }, network),
    parallel: withOffload(stepParallel(s), s.offload),
  };
}

/**
 * The `timeline` request for `stages` (indices in [0, pp)) in `format` ('columns' or 'chrome'; null: every stage),
 * for the time window `window` ({ from, to }, s: the engine's `from`/`to`) or the whole step (null).
 */
export function timelineRequest(s, stages, format = 'columns', window = null) {
  const request = { op: 'timeline', ...stepFields(s), format };
  if (stages) request.stages = [...stages];
  if (window) Object.assign(request, { from: window.from, to: window.to });
  return request;
}

/** A key naming the step itself (not the stages or format): answers held for one key belong together. */
export const stepKey = (s) => JSON.stringify(stepFields(s));

/** The stages shown: `count` of them from `first`, within [0, pp). */
export function stagesShown(pp, first, count) {
  const n = Math.max(1, Math.min(pp, count));
  const from = Math.max(0, Math.min(pp - n, first));
  return Array.from({ length: n }, (_, i) => from + i);
}
