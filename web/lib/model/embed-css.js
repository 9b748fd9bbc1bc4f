// css/embed.css's lists of figures, written from the one list (widgets/index.js FIGURES): every run of figure tags in
// a selector, and each figure's reserved-height block (its `reserve`). The rest of the file is hand-written.
// tests/js/embed-css.test.mjs checks the file is what this makes of it; UPDATE=1 rewrites it. Pure.
import { FIGURES } from '../../widgets/index.js';

/** A selector list of every figure's tag (two or more tags, one per line, as the formatter writes them). */
const TAG_RUN = /^([ \t]*)parascope-[a-z]+,\n(?:\1parascope-[a-z]+,\n)*\1parascope-[a-z]+(?=[ \n{])/gm;

/** One figure's block: its reserved height at 332 px and at 760 px wide (css/embed.css says how they are used). */
const BLOCK =
  /\/\* <parascope-[a-z]+> \*\/\nparascope-[a-z]+ \{\n {2}--reserve-narrow: \d+;\n {2}--reserve-wide: \d+;\n\}\n\n/g;

const blockOf = ({ tag, reserve }) =>
  `/* <${tag}> */\n${tag} {\n  --reserve-narrow: ${reserve.narrow};\n  --reserve-wide: ${reserve.wide};\n}\n\n`;

/**
 * `css` (css/embed.css's text) with its figure lists and reserved-height blocks written from `figures` (FIGURES; one
 * figure: the rules of its own embed, scripts/bundle.mjs).
 */
export function embedCss(css, figures = FIGURES) {
  const tags = (indent) => figures.map(({ tag }) => `${indent}${tag}`).join(',\n');
  let blocks = 0;
  const out = css
    .replace(TAG_RUN, (_, indent) => tags(indent))
    .replace(BLOCK, () => (blocks++ === 0 ? figures.map(blockOf).join('') : ''));
  if (!blocks) throw new Error('css/embed.css has no reserved-height block to write the figures into');
  return out;
}
