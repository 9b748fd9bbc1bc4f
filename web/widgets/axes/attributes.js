// <parascope-axes>'s attributes: kind, range, default and what each does (lib/model/attributes.js gathers every element's).
import { TABS } from './model/tabs.js';
import { int, choice, THEME, PERMALINK } from '../../lib/model/attribute-kinds.js';
import { NETWORK_ATTRIBUTES } from '../../lib/model/network.js';

export const ATTRIBUTES = {
  axis: choice(TABS, 'all', 'the tab shown first'),
  model: choice(null, 'mixtral-8x7b', 'model preset', { engine: 'models' }),
  hardware: choice(null, 'h100-sxm', 'accelerator preset', { engine: 'hardware' }),
  gpus: int(1, 1_000_000, 64, 'GPUs in the run'),
  tp: int(1, 1024, 2, 'tensor-parallel size'),
  pp: int(1, 1024, 4, 'pipeline stages'),
  ep: int(1, 1024, 8, 'expert-parallel size (MoE models)', { defaultText: '8 for MoE models, else 1' }),
  'global-batch': int(1, 100_000_000, 256, 'sequences per step'),
  skew: {
    kind: 'number',
    min: -1e-9,
    max: 3,
    fallback: 1,
    about: 'router skew (Zipf exponent), 0 to 3 in steps of 0.1',
  },
  seed: int(0, 2 ** 53, 1, 'router seed'),
  ...NETWORK_ATTRIBUTES,
  theme: THEME,
  permalink: PERMALINK,
};
