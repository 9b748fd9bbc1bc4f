// A run imported from the reader's config (config_import's step request) as the planner's inputs: the model (a shape
// the engine checked, or a preset id), the accelerator, the GPU count and the global batch; the split is the search's.

/** The model select's value for an imported model (no engine preset id looks like it). */
export const IMPORTED = '(imported)';

/**
 * The planner's inputs with an imported request's model, hardware, GPUs, global batch and software stack (one of the
 * engine's; the rest kept).
 */
export function importedInputs(inputs, request, presets) {
  const hardware =
    typeof request.hardware === 'string' && presets.hardware.some((x) => x.id === request.hardware)
      ? request.hardware
      : inputs.hardware;
  return {
    ...inputs,
    model: request.model,
    hardware,
    gpus: request.cluster?.gpus ?? inputs.gpus,
    globalBatch: request.parallel?.global_batch ?? inputs.globalBatch,
    software: presets.software.includes(request.software) ? request.software : inputs.software,
  };
}

/** A model for titles ("Your model: 32 layers × 4,096") or, with `short`, for file names ("imported-32x4096"). */
export function modelLabel(model, short = false) {
  if (typeof model === 'string') return model;
  if (short) return `imported-${model.layers}x${model.hidden}`;
  return `Your model: ${model.layers} layers × ${Number(model.hidden).toLocaleString('en-US')}`;
}
