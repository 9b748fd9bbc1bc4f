// <parascope-run>'s attributes: kind, range, default and what each does (lib/model/attributes.js gathers every element's).
// Every run field left out is the engine's own default, with its source (engine/API.md, `run`).
import { choice, THEME, PERMALINK } from '../../lib/model/attribute-kinds.js';
import { stepAttributes } from '../../lib/model/step-state.js';
import { RUN_FIGURE_DEFAULTS as D } from './model/request.js';
import { NETWORK_ATTRIBUTES } from '../../lib/model/network.js';

const number = (min, max, fallback, about, extra = {}) => ({ kind: 'number', min, max, fallback, about, ...extra });
const ENGINE_DEFAULT = "the engine's (engine/API.md, run)";

export const ATTRIBUTES = {
  ...stepAttributes(D),
  'sequence-parallel': { kind: 'flag', fallback: false, about: 'sequence parallelism on' },
  tokens: number(1, 1e16, D.tokens, 'tokens the run trains on'),
  'failure-rate': number(0, 1, null, 'failures per GPU per hour', { defaultText: ENGINE_DEFAULT }),
  'checkpoint-mode': choice(['sync', 'async'], 'sync', 'checkpoint writes block training (sync) or are staged (async)'),
  'checkpoint-interval': number(0, 1e9, null, 's of training between checkpoints', {
    defaultText: "Daly's optimum",
  }),
  'storage-bandwidth': number(0, 1e16, null, 'checkpoint storage, bytes/s aggregate', { defaultText: ENGINE_DEFAULT }),
  price: number(-Number.MAX_VALUE, 1e6, null, '$ per GPU-hour (a negative one is left to the engine to refuse)', {
    defaultText: ENGINE_DEFAULT,
  }),
  pue: number(0, 5, null, 'power usage effectiveness of the data centre', { defaultText: ENGINE_DEFAULT }),
  ...NETWORK_ATTRIBUTES,
  theme: THEME,
  permalink: PERMALINK,
};
