// <parascope-mfu>'s attributes: kind, range, default and what each does (lib/model/attributes.js gathers every element's).
import { PRESETS, YOUR_RUN } from './model/presets.js';
import { RUN_DEFAULTS } from './model/run.js';
import { MFU_CUSTOM } from './model/custom.js';
import { int, choice, THEME, PERMALINK } from '../../lib/model/attribute-kinds.js';
import { NETWORK_ATTRIBUTES } from '../../lib/model/network.js';
import { OFFLOAD } from '../../lib/model/step-state.js';

export const ATTRIBUTES = {
  preset: choice(
    [...PRESETS.map((p) => p.id), YOUR_RUN, MFU_CUSTOM],
    PRESETS[0].id,
    'published run, your-run (a measured throughput), or custom (model, hardware and gpus split as the split attributes say)',
    { defaultText: `${PRESETS[0].id} (your-run when a your-run attribute is given)` },
  ),
  tp: int(1, 1_000_000, null, 'tensor-parallel size', { defaultText: "the preset's" }),
  pp: int(1, 1_000_000, null, 'pipeline stages', { defaultText: "the preset's" }),
  vpp: int(1, 1_000_000, null, 'virtual stages per pipeline rank', { defaultText: "the preset's" }),
  'microbatch-size': int(1, 1_000_000, null, 'sequences per microbatch', { defaultText: "the preset's" }),
  'global-batch': int(1, 1_000_000, null, 'sequences per step', { defaultText: "the preset's" }),
  recompute: choice(null, null, 'activation recomputation', { defaultText: "the preset's", engine: 'recompute' }),
  schedule: choice(null, null, 'pipeline schedule', { defaultText: "the preset's", engine: 'schedules' }),
  zero: choice(null, null, 'ZeRO stage', { defaultText: "the preset's", engine: 'zero' }),
  cp: int(1, 1_000_000, 1, 'custom: context-parallel size'),
  ep: int(1, 1_000_000, 1, 'custom: expert-parallel size (MoE models)'),
  'sequence-parallel': { kind: 'flag', fallback: false, about: 'custom: sequence parallelism on' },
  offload: { ...OFFLOAD, about: `custom: ${OFFLOAD.about}` },
  model: choice(null, RUN_DEFAULTS.model, 'your-run and custom: model preset', { engine: 'models' }),
  hardware: choice(null, RUN_DEFAULTS.hardware, 'your-run and custom: accelerator preset', { engine: 'hardware' }),
  gpus: int(1, 10_000_000, Number(RUN_DEFAULTS.gpus), 'your-run and custom: GPUs (or TPU chips)'),
  'tokens-per-second': {
    kind: 'number',
    min: 0,
    max: Number.MAX_VALUE,
    fallback: Number(RUN_DEFAULTS.tokensPerSecond),
    about: 'your-run: measured throughput of the whole cluster, tokens/s',
  },
  attention: choice(null, RUN_DEFAULTS.attention, 'your-run: attention FLOP convention', { engine: 'attention' }),
  ...NETWORK_ATTRIBUTES,
  theme: THEME,
  permalink: PERMALINK,
};
