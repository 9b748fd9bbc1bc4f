// The bubble widget's controls (ranges, defaults; the schedules and their names are the engine's: lib/model/
// engine-lists.js); the engine request a state makes is request.js's.
import { scheduleLabel } from '../../../lib/model/engine-lists.js';

export { scheduleLabel };

/** Slider ranges: UI limits (the engine accepts far more; the chart stays legible up to these). */
export const LIMITS = { stages: [1, 32], microbatches: [1, 128], chunks: [1, 8] };

export const DEFAULTS = { stages: 4, microbatches: 8, schedule: '1f1b', chunks: 2, forwardOnly: false };

/** The controls, as the state's keys. */
export const CONTROLS = ['schedule', 'stages', 'microbatches', 'chunks', 'forwardOnly'];

/** The engine's request field behind each control. */
export const FIELDS = {
  schedule: 'schedule',
  stages: 'stages',
  microbatches: 'microbatches',
  chunks: 'chunks',
  forwardOnly: 'forward_only',
};
