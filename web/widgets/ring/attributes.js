// <parascope-ring>'s attributes: kind, range, default and what each does (lib/model/attributes.js gathers every element's).
import { int, choice, THEME, PERMALINK } from '../../lib/model/attribute-kinds.js';

export const ATTRIBUTES = {
  gpus: int(2, 16, 4, 'GPUs on the ring'),
  hardware: choice(null, 'h100-sxm', 'accelerator preset', { engine: 'hardware' }),
  link: choice(['intra', 'inter'], 'intra', 'inside a node or across nodes (a ring larger than a node runs on inter)'),
  bytes: { kind: 'number', min: 0, max: 1e18, fallback: 2 ** 30, about: 'array size per GPU, in bytes' },
  theme: THEME,
  permalink: PERMALINK,
};
