// The iframe route's figure (embed.html): shows the one widget the hash names, with the rest of the hash as its state
// (parsed, checked and clamped by the widget's own attribute rules), on its own small engine. embed.js (the loader)
// calls it once the widget's element is defined: in the production build it is in each figure's own bundle
// (js/embed-<name>-<hash>.js, scripts/bundle.mjs), with that element, its engine's glue and every module it needs, and
// no other figure's.
// The page links no css/embed.css: the shared code holds its text and adopts it (lib/widget.js, ensurePageSheet)
// before this module makes the widget, so a link would fetch it twice.
import { useModule } from './engine.js';
import { readHash } from './model/link-hash.js';
import { register } from './register-widgets.js';

const THEMES = ['light', 'dark'];

/**
 * Makes the figure `name` (of widgets/index.js, its element, <parascope-name>, already defined) in #figure, on its
 * engine: `wasm` its URL, `compiling` its download started by the loader (or null), `engine` its module's name (index.js)
 * and `importGlue` its glue's import(). Given, not read from widgets/index.js: the figure's file then need not hold it.
 */
export function showEmbed(name, wasm, compiling, [engine, importGlue]) {
  const tag = `parascope-${name}`;
  useModule(engine, wasm, importGlue, compiling);
  const widget = document.createElement(tag);
  widget.linkKeyOverride = ''; // the hash's bare names are this widget's attributes
  widget.linkKeep = ['widget', 'theme'];
  widget.setAttribute('permalink', '');
  const theme = readHash(location.hash, '').get('theme');
  if (THEMES.includes(theme)) widget.setAttribute('theme', theme);
  document.getElementById('figure').append(widget);
  // defined already: this reports a constructor that threw, in the widget's place
  return register(tag, () => Promise.resolve()).then(() => widget.startNow?.());
}
