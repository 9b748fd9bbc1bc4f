// <parascope-step>'s attributes: kind, range, default and what each does (lib/model/attributes.js gathers every
// element's). The step's fields are `step`'s (engine/API.md); each one left out is the engine's own default.
import { int, choice, THEME, PERMALINK } from '../../lib/model/attribute-kinds.js';
import { STEP_FIGURE_DEFAULTS as D } from './model/request.js';
import { NETWORK_ATTRIBUTES } from '../../lib/model/network.js';

export const ATTRIBUTES = {
  model: choice(null, D.model, 'model preset', { engine: 'models' }),
  hardware: choice(null, D.hardware, 'accelerator preset', { engine: 'hardware' }),
  gpus: int(1, 10_000_000, D.gpus, 'GPUs (or TPU chips) of the run'),
  tp: int(1, 1_000_000, D.tp, 'tensor-parallel size'),
  pp: int(1, 1_000_000, D.pp, 'pipeline stages'),
  vpp: int(1, 1_000_000, 1, 'virtual stages per pipeline rank'),
  cp: int(1, 1_000_000, 1, 'context-parallel size'),
  ep: int(1, 1_000_000, 1, 'expert-parallel size (MoE models)'),
  'microbatch-size': int(1, 1_000_000, 1, 'sequences per microbatch'),
  'global-batch': int(1, 1_000_000, D.globalBatch, 'sequences per step'),
  recompute: choice(null, null, 'activation recomputation', { defaultText: "the engine's", engine: 'recompute' }),
  schedule: choice(null, null, 'pipeline schedule', { defaultText: "the engine's", engine: 'schedules' }),
  zero: choice(null, null, 'ZeRO stage', { defaultText: "the engine's", engine: 'zero' }),
  'sequence-parallel': { kind: 'flag', fallback: false, about: 'sequence parallelism on' },
  'first-stage': int(0, 1_000_000, 0, 'the first pipeline stage drawn (its first GPU)'),
  'stages-shown': int(1, 64, 8, 'how many stages (one GPU each) are drawn at once'),
  ...NETWORK_ATTRIBUTES,
  theme: THEME,
  permalink: PERMALINK,
};
