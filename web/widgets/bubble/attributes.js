// <parascope-bubble>'s attributes: kind, range, default and what each does (lib/model/attributes.js gathers every element's).
import { DEFAULTS as BUBBLE, LIMITS as BUBBLE_LIMITS } from './model/state.js';
import { int, choice, THEME, PERMALINK } from '../../lib/model/attribute-kinds.js';

export const ATTRIBUTES = {
  stages: int(BUBBLE_LIMITS.stages[0], BUBBLE_LIMITS.stages[1], BUBBLE.stages, 'pipeline stages (GPUs)'),
  microbatches: int(
    BUBBLE_LIMITS.microbatches[0],
    BUBBLE_LIMITS.microbatches[1],
    BUBBLE.microbatches,
    'microbatches per step',
  ),
  schedule: choice(null, BUBBLE.schedule, 'pipeline schedule', { engine: 'schedules' }),
  chunks: int(BUBBLE_LIMITS.chunks[0], BUBBLE_LIMITS.chunks[1], BUBBLE.chunks, 'virtual chunks per GPU (interleaved)'),
  'forward-only': { kind: 'flag', fallback: false, about: 'draw the forward half only (gpipe, interleaved)' },
  theme: THEME,
  permalink: PERMALINK,
};
