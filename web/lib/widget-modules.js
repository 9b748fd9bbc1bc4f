// Every parascope widget: its tag and how to load its module (main.js registers them through lib/register-widgets.js),
// one per figure of widgets/index.js, in its order (tests/js/figures-index.test.mjs). Each import names its file
// literally (widgets/<name>/element.js: esbuild makes each its own chunk in a split build). Not one import of a
// template string over the list: esbuild answered that with a lookup helper in a chunk of its own, which every chunk
// then imported, one request and ~120 B gzip more for every figure embedded alone (issue 30).
export const WIDGET_MODULES = {
  'parascope-axes': () => import('../widgets/axes/element.js'),
  'parascope-context': () => import('../widgets/context/element.js'),
  'parascope-ring': () => import('../widgets/ring/element.js'),
  'parascope-bubble': () => import('../widgets/bubble/element.js'),
  'parascope-mfu': () => import('../widgets/mfu/element.js'),
  'parascope-step': () => import('../widgets/step/element.js'),
  'parascope-memory': () => import('../widgets/memory/element.js'),
  'parascope-track': () => import('../widgets/track/element.js'),
  'parascope-planner': () => import('../widgets/planner/element.js'),
  'parascope-run': () => import('../widgets/run/element.js'),
  'parascope-nccl': () => import('../widgets/nccl/element.js'),
};
