// <parascope-nccl>'s attributes: kind, range, default and what each does (lib/model/attributes.js gathers every element's).
import { choice, THEME, PERMALINK } from '../../lib/model/attribute-kinds.js';
import { EXAMPLES } from './model/examples.js';

export const ATTRIBUTES = {
  example: choice(
    [...EXAMPLES.map((e) => e.id), 'none'],
    EXAMPLES[0].id,
    'the published nccl-tests output shown until the reader pastes their own (none: an empty box)',
  ),
  theme: THEME,
  permalink: PERMALINK,
};
