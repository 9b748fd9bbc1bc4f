// Every parascope widget: its tag and how to load its module (main.js registers them through lib/register-widgets.js).
export const WIDGET_MODULES = {
  'parascope-mfu': () => import('../widgets/parascope-mfu.js'),
  'parascope-axes': () => import('../widgets/parascope-axes.js'),
  'parascope-ring': () => import('../widgets/parascope-ring.js'),
  'parascope-bubble': () => import('../widgets/parascope-bubble.js'),
  'parascope-planner': () => import('../widgets/parascope-planner.js'),
};
