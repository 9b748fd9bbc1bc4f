// The engine requests behind the context figure: one `context_ring` per setting, and the ladder of sequence lengths
// its break-even chart asks. A request only; every number comes back from the engine (engine/API.md, context_ring).

/** Sequence lengths the slider offers and the chart asks: 2,048 to 1,048,576 tokens, powers of two. */
export const SEQUENCES = Array.from({ length: 10 }, (_, i) => 2 ** (11 + i));
/** Context-parallel sizes the slider offers (the attribute takes any whole number from 2 to 16). */
export const CP_VALUES = [2, 4, 8, 16];
/** Tensor-parallel sizes the menu offers (the attribute takes others). */
export const TP_VALUES = [1, 2, 4, 8];

/** `values` with `value` in it, sorted: a setting from an attribute that the list does not hold joins it. */
export const withValue = (values, value) =>
  values.includes(value) ? values : [...values, value].sort((a, b) => a - b);

/**
 * The `context_ring` request for `state` ({ model, hardware, tp, cp, sequence, kernel }) at sequence length `seq`:
 * the preset model with its `seq` set (a preset entry is a shape object the engine takes back), one data-parallel
 * replica of tp · cp GPUs, one sequence per step. `models` is the engine's presets.models.
 */
export function contextRequest(models, state, seq = state.sequence) {
  const preset = models.find((m) => m.id === state.model);
  const request = {
    op: 'context_ring',
    model: { ...preset, seq },
    hardware: state.hardware,
    cluster: { gpus: state.tp * state.cp },
    parallel: { tp: state.tp, cp: state.cp, global_batch: 1 },
  };
  if (state.kernel === 'unfused') request.efficiency = { flash_attention: false };
  return request;
}

/** What the answer depends on besides the sequence length (the chart's ladder is asked once per key). */
export const ladderKey = (s) => JSON.stringify([s.model, s.hardware, s.tp, s.cp, s.kernel]);
