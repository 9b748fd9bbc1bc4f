// The bubble widget's controls (ranges, defaults, schedule names) and the engine request a state makes.
import { SCHEDULES, scheduleLabel } from './schedules.js';

export { SCHEDULES, scheduleLabel };

/** Slider ranges: UI limits (the engine accepts far more; the chart stays legible up to these). */
export const LIMITS = { stages: [1, 32], microbatches: [1, 128], chunks: [1, 8] };

export const DEFAULTS = { stages: 4, microbatches: 8, schedule: '1f1b', chunks: 2, forwardOnly: false };

/** The controls, as the state's keys. */
export const CONTROLS = ['schedule', 'stages', 'microbatches', 'chunks', 'forwardOnly'];

/** The engine's request field behind each control. */
export const FIELDS = { schedule: 'schedule', stages: 'stages', microbatches: 'microbatches', chunks: 'chunks',
  forwardOnly: 'forward_only' };

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
