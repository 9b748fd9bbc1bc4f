// The `run` requests the figure sends: the reader's configuration as a step request plus the run fields, and the
// ladder of GPU counts the scale curve asks the engine about. Pure: no DOM, no engine call; nothing computed here
// that the engine answers (goodput, days, failures all come back from it).
import { NETWORK_FIELDS } from '../../../lib/model/network.js';
import { given, stepParallel } from '../../../lib/model/step-state.js';

export { NETWORK_FIELDS }; // your cluster's links (<parascope-nccl>'s fit): state key -> `cluster` field -> attribute

/**
 * The figure's starting run: Llama 3 405B's 15.6 T tokens on 16,384 H100s (Dubey et al. 2024, Sec. 3.3: tp 8, pp 16,
 * a 2,048-sequence batch of 8,192 tokens at that scale), the engine's own anchor for `run` (tests/fixtures/api/run.txt).
 */
export const RUN_FIGURE_DEFAULTS = {
  model: 'llama3-405b',
  hardware: 'h100-sxm',
  gpus: 16_384,
  tp: 8,
  pp: 16,
  globalBatch: 2048,
  zero: '1',
  tokens: 15.6e12,
};

/** The run fields a state may set (state key -> the engine's field), each absent when the state leaves it null. */
const RUN_FIELDS = [
  ['failureRate', 'failure_rate'],
  ['checkpointInterval', 'checkpoint_interval'],
  ['storageBandwidth', 'storage_bandwidth'],
  ['price', 'price_per_gpu_hour'],
  ['pue', 'pue'],
];

/** The `cluster` block: the GPU count and, when the reader's own network was loaded, its links. */
export function clusterOf(s, gpus = s.gpus) {
  const cluster = { gpus };
  for (const [key, field] of NETWORK_FIELDS) if (given(s[key])) cluster[field] = s[key];
  return cluster;
}

/** The engine's `run` request for state `s` (the figure's state: model/state.js), at `gpus` GPUs. */
export function runRequest(s, gpus = s.gpus) {
  const request = {
    op: 'run',
    model: s.model,
    hardware: s.hardware,
    cluster: clusterOf(s, gpus),
    parallel: stepParallel(s),
    tokens: s.tokens,
    checkpoint_mode: s.checkpointMode,
  };
  for (const [key, field] of RUN_FIELDS) if (given(s[key])) request[field] = s[key];
  return request;
}

/**
 * The most microbatches per replica the curve goes down to. The engine keeps the pipeline schedules it compiled for
 * `step` only up to 2^16 ops together (engine/API.md, "Cost of the largest request"); a replica of 16 stages running
 * 2,048 microbatches is 65,536 ops alone, which evicts the other counts' schedules, so that every move of the
 * failure-rate slider compiled them again (80 ms a move in Chromium). At 256 the whole ladder stays compiled.
 */
export const MOST_MICROBATCHES = 256;

/**
 * The GPU counts the scale curve asks about: every power-of-two data-parallel size of the split (tp·pp·cp GPUs per
 * replica), from the one whose replicas each run MOST_MICROBATCHES microbatches up to as many replicas as the batch
 * has microbatches, and the reader's own count. The same counts whatever count the reader picked among them, so a
 * link opens the same curve. The engine answers each; a count it refuses (a batch that does not split over that many
 * replicas, a run that never finishes) is left off the curve, not guessed.
 */
export function scaleLadder(s) {
  const group = s.tp * s.pp * s.cp;
  const most = Math.floor(s.globalBatch / s.microbatchSize);
  const out = new Set([s.gpus]);
  for (let dp = 1; dp <= most && group * dp <= 10_000_000; dp *= 2) {
    if (most / dp <= MOST_MICROBATCHES) out.add(group * dp);
  }
  return [...out].sort((a, b) => a - b);
}

/** The failure-rate slider's positions: the reference rate × 2^(i/2), i from -6 to 6 (⅛× to 8×, √2 apart). */
export const RATE_STEPS = Array.from({ length: 13 }, (_, i) => (i - 6) / 2);

/** The rate at slider position `i` given the engine's default rate `reference` (failures per GPU per hour). */
export function rateAt(reference, i) {
  return reference * 2 ** RATE_STEPS[i];
}

/** The slider position nearest to `rate` (the reader's rate, which need not sit on a step). */
export function rateIndex(reference, rate) {
  if (!given(rate)) return RATE_STEPS.indexOf(0);
  const e = Math.log2(rate / reference);
  let best = 0;
  RATE_STEPS.forEach((x, i) => {
    if (Math.abs(x - e) < Math.abs(RATE_STEPS[best] - e)) best = i;
  });
  return best;
}
