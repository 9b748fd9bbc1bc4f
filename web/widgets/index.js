// Every parascope figure, listed once: its name, its element's tag, its module, its attribute list and the wasm module
// that serves it embedded alone (its files follow from its name: filesOf). Everything that needs the list of figures reads it here: lib/widget-modules.js (what
// main.js and embed.js register), lib/widget-engines.js, lib/model/attributes.js, embed.js's names, scripts/bundle.mjs
// (the figures' stylesheets), the tests. A figure's folder <name>/ holds the rest of it (see lib/README.md).
// Data only, no import: any page may read it without loading a figure.

/**
 * name: the folder and the permalink/iframe key; tag: the custom element; engine: the wasm module (CMakeLists.txt,
 * PARASCOPE_WASM_MODULES) it runs on when embedded alone. In the article's order.
 */
export const FIGURES = [
  { name: 'axes', tag: 'parascope-axes', engine: 'parascope-axes-engine' },
  { name: 'ring', tag: 'parascope-ring', engine: 'parascope-ring-engine' },
  { name: 'bubble', tag: 'parascope-bubble', engine: 'parascope-bubble-engine' },
  { name: 'mfu', tag: 'parascope-mfu', engine: 'parascope-step-engine' },
  // The step module answers `timeline` too (CMakeLists.txt links it with step).
  { name: 'step', tag: 'parascope-step', engine: 'parascope-step-engine' },
  // The track record asks step for each stack's error band (its runs come from web/data/track-record.json).
  { name: 'track', tag: 'parascope-track', engine: 'parascope-step-engine' },
  // The planner's page thread asks only step (its search runs in a worker on the planner's own engine).
  { name: 'planner', tag: 'parascope-planner', engine: 'parascope-step-engine' },
  // run and nccl_fit: the article's engine (wasm/parascope.wasm) leaves them to the planner's module; embedded alone,
  // these two figures run on a module of their own (CMakeLists.txt).
  { name: 'run', tag: 'parascope-run', engine: 'parascope-run-engine' },
  { name: 'nccl', tag: 'parascope-nccl', engine: 'parascope-run-engine' },
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
