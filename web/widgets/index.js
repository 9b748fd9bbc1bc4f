// Every parascope figure, listed once: its name, its element's tag, its module, its attribute list and the wasm module
// that serves it embedded alone (its files follow from its name: filesOf). Everything that needs the list of figures
// reads it here: lib/widget-modules.js (what main.js and embed.js register), lib/widget-engines.js,
// lib/model/attributes.js, embed.js's names, scripts/bundle.mjs (the figures' stylesheets), css/embed.css (written
// from it: lib/model/embed-css.js), the tests. A figure's folder <name>/ holds the rest of it (see lib/README.md).
// Data only, no import: any page may read it without loading a figure.

/**
 * name: the folder and the permalink/iframe key; title: the figure in a reader's words, in a sentence's middle; tag:
 * the custom element; engine: the wasm module (CMakeLists.txt, PARASCOPE_WASM_MODULES) it runs on when embedded
 * alone; reserve: the height in px it holds before it draws when 332 and when 760 px wide (css/embed.css says how;
 * tests/browser/steady.test.mjs measures it in Chromium, heights.test.mjs in all three engines: the tallest). In the
 * article's order.
 */
export const FIGURES = [
  {
    name: 'axes',
    title: 'the four axes',
    tag: 'parascope-axes',
    engine: 'parascope-axes-engine',
    reserve: { narrow: 2952, wide: 1515 },
  },
  // context_ring alone (engine/API.md): the fifth axis, right after the four.
  {
    name: 'context',
    title: 'context parallelism',
    tag: 'parascope-context',
    engine: 'parascope-context-engine',
    reserve: { narrow: 2644, wide: 1578 },
  },
  {
    name: 'ring',
    title: 'the ring all-reduce',
    tag: 'parascope-ring',
    engine: 'parascope-ring-engine',
    reserve: { narrow: 1910, wide: 1097 },
  },
  {
    name: 'bubble',
    title: 'the bubble',
    tag: 'parascope-bubble',
    engine: 'parascope-bubble-engine',
    reserve: { narrow: 1447, wide: 998 },
  },
  {
    name: 'mfu',
    title: 'the MFU figure',
    tag: 'parascope-mfu',
    engine: 'parascope-step-engine',
    reserve: { narrow: 3563, wide: 1679 },
  },
  // timeline (issue 29) on a module of its own: it runs on step's phases, as big as the step module again.
  {
    name: 'step',
    title: 'the step timeline',
    tag: 'parascope-step',
    engine: 'parascope-timeline-engine',
    reserve: { narrow: 1433, wide: 1022 },
  },
  // step and memory_timeline: a module of its own (the step module stays as small as the mfu figure needs).
  {
    name: 'memory',
    title: 'the memory figure',
    tag: 'parascope-memory',
    engine: 'parascope-memory-engine',
    reserve: { narrow: 2120, wide: 1338 },
  },
  // The track record asks step for each stack's error band (its runs come from web/data/track-record.json).
  {
    name: 'track',
    title: 'the track record',
    tag: 'parascope-track',
    engine: 'parascope-track-engine',
    reserve: { narrow: 1686, wide: 1274 },
  },
  // The planner's page thread asks only step (its search runs in a worker on the planner's own engine): the track
  // record's module serves it.
  {
    name: 'planner',
    title: 'the planner',
    tag: 'parascope-planner',
    engine: 'parascope-track-engine',
    reserve: { narrow: 1977, wide: 1341 },
  },
  // run and nccl_fit: the article's engine (wasm/parascope.wasm) leaves them to the planner's module; embedded alone,
  // these two figures run on a module each (CMakeLists.txt).
  {
    name: 'run',
    title: 'the whole run',
    tag: 'parascope-run',
    engine: 'parascope-run-engine',
    reserve: { narrow: 1590, wide: 1167 },
  },
  {
    name: 'nccl',
    title: 'your network',
    tag: 'parascope-nccl',
    engine: 'parascope-nccl-engine',
    reserve: { narrow: 1130, wide: 1065 },
  },
];

/**
 * A figure's files, relative to this folder: module (its element; lib/widget-modules.js imports
 * `../widgets/<name>/element.js`, a pattern a bundler reads), attributes (the ATTRIBUTES it reads its attributes with;
 * lib/model/attributes.js gathers them), stylesheet (its shadow root's own sheet, linked after css/widget.css).
 */
export function filesOf({ name }) {
  return { module: `./${name}/element.js`, attributes: `./${name}/attributes.js`, stylesheet: `./${name}/${name}.css` };
}

/** The figure with this tag, or undefined. */
export function figureOf(tag) {
  return FIGURES.find((f) => f.tag === tag);
}
