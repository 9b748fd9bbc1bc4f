// <parascope-memory>'s attributes: kind, range, default and what each does (lib/model/attributes.js gathers every
// element's). The lists (models, chips, schedules, recomputation, ZeRO, precisions) are the engine's presets answer.
import { int, choice, THEME, PERMALINK } from '../../lib/model/attribute-kinds.js';
import { OFFLOAD, stepAttributes } from '../../lib/model/step-state.js';
import { MEMORY_DEFAULTS as D } from './model/request.js';

const { recompute, schedule, zero, ...split } = stepAttributes(D, {
  gpus: 'GPUs (or TPU chips) of the run; dp = gpus / (tp · pp · cp)',
  vpp: 'virtual stages per pipeline rank (interleaved schedule)',
  zero: 'ZeRO stage (3 = FSDP)',
});

export const ATTRIBUTES = {
  ...split,
  seq: int(1, 10_000_000, null, 'sequence length, tokens', { defaultText: "the model preset's" }),
  recompute,
  schedule,
  zero,
  reshard: choice(['true', 'false'], null, 'ZeRO 3 / FSDP: free gathered weights after each forward', {
    defaultText: "the engine's (true without a pipeline, false with one)",
  }),
  precision: choice(null, null, 'precision of the weight GEMMs', { defaultText: "the engine's", engine: 'precisions' }),
  offload: OFFLOAD,
  'sequence-parallel': choice(['true', 'false'], D.sequenceParallel ? 'true' : 'false', 'sequence parallelism'),
  stage: int(0, 1_000_000, null, 'the pipeline stage drawn', { defaultText: 'the most loaded' }),
  theme: THEME,
  permalink: PERMALINK,
};
