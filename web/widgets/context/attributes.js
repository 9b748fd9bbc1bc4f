// <parascope-context>'s attributes: kind, range, default and what each does (lib/model/attributes.js gathers every element's).
import { int, choice, THEME, PERMALINK } from '../../lib/model/attribute-kinds.js';

export const ATTRIBUTES = {
  model: choice(null, 'llama3-8b', 'model preset', { engine: 'models' }),
  hardware: choice(null, 'h100-sxm', 'accelerator preset', { engine: 'hardware' }),
  tp: int(1, 64, 2, 'tensor-parallel size inside each context-parallel rank (tp · cp GPUs in all)'),
  cp: int(2, 16, 4, 'context-parallel size: GPUs sharing one sequence'),
  sequence: int(1024, 1_048_576, 32_768, 'sequence length in tokens (must split into 2·cp chunks)'),
  split: choice(['zigzag', 'contiguous'], 'zigzag', 'how the 2·cp chunks are dealt to the GPUs'),
  variant: choice(['p2p', 'all-gather'], 'p2p', 'K/V passed around a ring (P2P) or gathered at once (all-gather)'),
  kernel: choice(
    ['fused', 'unfused'],
    'fused',
    'fused attention skips the causally masked blocks; unfused computes all',
  ),
  theme: THEME,
  permalink: PERMALINK,
};
