// The request the memory figure sends: the reader's configuration as one `memory_timeline` request (the time axis,
// and in its answer's `step` the memory per GPU, fits and the error band). Pure: no DOM, no engine call, and nothing
// here that the engine answers.
import { given, stepParallel, withOffload } from '../../../lib/model/step-state.js';

/**
 * The figure's starting run: Llama 3 70B on 64 H100s, tp 4 · pp 8 · dp 2 with sequence parallelism and ZeRO-1, 64
 * sequences of 8,192 tokens a step, no recomputation. Chosen because it only just fits (the engine answers 73.4 GiB of
 * 80), so every control has something to show; not a published run.
 */
export const MEMORY_DEFAULTS = {
  model: 'llama3-70b',
  hardware: 'h100-sxm',
  gpus: 64,
  tp: 4,
  pp: 8,
  globalBatch: 64,
  zero: '1',
  sequenceParallel: true,
};

/**
 * The request's `model`: the preset's id, or, when the reader set a sequence length of their own, the engine's own
 * preset entry sent back with that `seq` (engine/API.md, presets: an entry "can be sent back as a model unchanged";
 * `derived` is output only and left off).
 */
export function modelOf(s, presets) {
  if (!given(s.seq)) return s.model;
  const entry = presets.models.find((m) => m.id === s.model);
  if (!entry) return s.model;
  const { derived: _derived, ...shape } = entry;
  return { ...shape, seq: s.seq };
}

/** The `parallel` block of state `s`: the step's shared fields, resharding under ZeRO 3 and the optimizer's share
 * offloaded to the host (a field left empty is the engine's default). */
export function parallelOf(s) {
  const p = stepParallel(s);
  if (given(s.reshard) && Number(s.zero) === 3) p.reshard_after_forward = s.reshard === 'true';
  return withOffload(p, s.offload);
}

/**
 * The run of state `s` as the engine's step fields (model, hardware, cluster, parallel, precision), without an op: the
 * figure sends it as `memory_timeline`, whose answer carries `step`'s for the same fields (engine/API.md).
 */
export function runFields(s, presets) {
  const fields = {
    model: modelOf(s, presets),
    hardware: s.hardware,
    cluster: { gpus: s.gpus },
    parallel: parallelOf(s),
  };
  if (given(s.precision)) fields.precision = s.precision;
  return fields;
}

/**
 * The `memory_timeline` request for state `s`, drawing `stage` (null: the engine's most loaded one). `binary`: its
 * columns as the call's attachment (columns_format "binary": no numbers written as text and parsed back).
 */
export function timelineRequest(s, presets, stage = null, binary = false) {
  const request = { op: 'memory_timeline', ...runFields(s, presets) };
  if (stage !== null && stage !== undefined) request.stage = stage;
  if (binary) request.columns_format = 'binary';
  return request;
}
