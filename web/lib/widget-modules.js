// Every parascope widget: its tag and how to load its module (main.js registers them through lib/register-widgets.js),
// one per figure of widgets/index.js. The import names its file by a pattern a bundler can read
// (widgets/<name>/element.js: esbuild makes each its own chunk in a split build), not by a computed URL.
import { FIGURES } from '../widgets/index.js';

export const WIDGET_MODULES = Object.fromEntries(
  FIGURES.map(({ tag, name }) => [tag, () => import(`../widgets/${name}/element.js`)]),
);
