// <parascope-track>'s attributes: kind, range, default and what each does (lib/model/attributes.js gathers every element's).
import { choice, THEME, PERMALINK } from '../../lib/model/attribute-kinds.js';
import { FAMILIES } from './model/families.js';

export const ATTRIBUTES = {
  view: choice(['speed', 'memory'], 'speed', 'what is compared: MFU (speed) or peak memory per GPU'),
  stack: choice(['all', ...FAMILIES.map((f) => f.id)], 'all', 'the software stack family shown (all: every family)'),
  theme: THEME,
  permalink: PERMALINK,
};
