// <parascope-memory>'s attributes: kind, range, default and what each does (lib/model/attributes.js gathers every
// element's). The lists (models, chips, schedules, recomputation, ZeRO, precisions) are the engine's presets answer.
import { int, choice, THEME, PERMALINK } from '../../lib/model/attribute-kinds.js';
import { MEMORY_DEFAULTS as D } from './model/request.js';

export const ATTRIBUTES = {
  model: choice(null, D.model, 'model preset', { engine: 'models' }),
  hardware: choice(null, D.hardware, 'accelerator preset', { engine: 'hardware' }),
  gpus: int(1, 10_000_000, D.gpus, 'GPUs (or TPU chips) of the run; dp = gpus / (tp · pp · cp)'),
  tp: int(1, 1_000_000, D.tp, 'tensor-parallel size'),
  pp: int(1, 1_000_000, D.pp, 'pipeline stages'),
  vpp: int(1, 1_000_000, 1, 'virtual stages per pipeline rank (interleaved schedule)'),
  cp: int(1, 1_000_000, 1, 'context-parallel size'),
  ep: int(1, 1_000_000, 1, 'expert-parallel size (MoE models)'),
  'microbatch-size': int(1, 1_000_000, 1, 'sequences per microbatch'),
  'global-batch': int(1, 1_000_000, D.globalBatch, 'sequences per step'),
  seq: int(1, 10_000_000, null, 'sequence length, tokens', { defaultText: "the model preset's" }),
  recompute: choice(null, null, 'activation recomputation', { defaultText: "the engine's", engine: 'recompute' }),
  schedule: choice(null, null, 'pipeline schedule', { defaultText: "the engine's", engine: 'schedules' }),
  zero: choice(null, D.zero, 'ZeRO stage (3 = FSDP)', { engine: 'zero' }),
  reshard: choice(['true', 'false'], null, 'ZeRO 3 / FSDP: free gathered weights after each forward', {
    defaultText: "the engine's (true without a pipeline, false with one)",
  }),
  precision: choice(null, null, 'precision of the weight GEMMs', { defaultText: "the engine's", engine: 'precisions' }),
  'sequence-parallel': choice(['true', 'false'], D.sequenceParallel ? 'true' : 'false', 'sequence parallelism'),
  stage: int(0, 1_000_000, null, 'the pipeline stage drawn', { defaultText: 'the most loaded' }),
  theme: THEME,
  permalink: PERMALINK,
};
