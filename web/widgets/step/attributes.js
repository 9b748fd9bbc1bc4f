// <parascope-step>'s attributes: kind, range, default and what each does (lib/model/attributes.js gathers every
// element's). The step's fields are `step`'s (engine/API.md); each one left out is the engine's own default.
import { int, THEME, PERMALINK } from '../../lib/model/attribute-kinds.js';
import { OFFLOAD, stepAttributes } from '../../lib/model/step-state.js';
import { STEP_FIGURE_DEFAULTS as D } from './model/request.js';
import { NETWORK_ATTRIBUTES } from '../../lib/model/network.js';

export const ATTRIBUTES = {
  ...stepAttributes(D),
  offload: OFFLOAD,
  'sequence-parallel': { kind: 'flag', fallback: false, about: 'sequence parallelism on' },
  'first-stage': int(0, 1_000_000, 0, 'the first pipeline stage drawn (its first GPU)'),
  'stages-shown': int(1, 64, 8, 'how many stages (one GPU each) are drawn at once'),
  ...NETWORK_ATTRIBUTES,
  theme: THEME,
  permalink: PERMALINK,
};
