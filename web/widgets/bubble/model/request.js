// The bubble's engine request for a state (apart from its controls, state.js, which other widgets read too).

/**
 * How the figure asks for its ops: as binary columns beside the JSON, whose limit (the engine's) is far above what
 * the controls reach. The checks ask in the same format, so a setting is judged by the limit of what is drawn.
 */
export const OPS_FORMAT = 'binary';

/**
 * The "pipeline" request for a state. `applies` says which optional controls the schedule takes (chunks,
 * forwardOnly); one that does not apply is left out of the request (the engine's default: 1 chunk, whole pass).
 */
export function pipelineRequest(state, applies = { chunks: true, forwardOnly: true }, extra = {}) {
  const request = { op: 'pipeline', schedule: state.schedule, stages: state.stages, microbatches: state.microbatches };
  if (applies.chunks) request.chunks = state.chunks;
  if (applies.forwardOnly && state.forwardOnly) request.forward_only = true;
  return Object.assign(request, extra);
}
