// The iframe route (embed.html): reads "#widget=bubble&stages=8&…", shows that one widget with the rest of the hash as
// its state (parsed, checked and clamped by the widget's own attribute rules), and posts its height to the parent.
// Only that widget's module is imported (its own chunk in the production build), through lib/register-widgets.js: a
// widget whose script fails shows why in its place. The page links no css/embed.css: the shared code holds its text and
// adopts it (lib/widget.js, ensurePageSheet) before this module makes the widget, so a link would fetch it twice.
import { readHash } from './lib/model/link-hash.js';
import { registerWidgets } from './lib/register-widgets.js';
import { useWidgetEngine } from './lib/widget-engines.js';
import { WIDGET_MODULES } from './lib/widget-modules.js';
import { FIGURES } from './widgets/index.js';

/** The message the parent page receives after every change of height (the guide's snippet reads it). */
export const HEIGHT_MESSAGE = 'parascope:height';

const WIDGETS = FIGURES.map((f) => f.name);
const THEMES = ['light', 'dark'];

const params = readHash(location.hash, '');
const name = params.get('widget') ?? '';
const box = document.getElementById('figure');

if (!WIDGETS.includes(name)) {
  const p = document.createElement('p');
  p.className = 'embed-unknown';
  p.textContent =
    `This link names no parascope figure. Put one of ${WIDGETS.join(', ')} after "#widget=", ` +
    'for example embed.html#widget=bubble&stages=8&microbatches=32&schedule=1f1b.';
  box.append(p);
} else {
  const tag = `parascope-${name}`;
  useWidgetEngine(tag); // its own small engine (only the ops it asks), downloading while its script loads
  const widget = document.createElement(tag);
  widget.linkKeyOverride = ''; // the hash's bare names are this widget's attributes
  widget.linkKeep = ['widget', 'theme'];
  widget.setAttribute('permalink', '');
  const theme = params.get('theme');
  if (THEMES.includes(theme)) widget.setAttribute('theme', theme);
  box.append(widget);
  registerWidgets({ [tag]: WIDGET_MODULES[tag] }).then(() => widget.startNow?.()); // absent when its script failed: that widget then shows why
}

/** Tells the parent page how tall this page is, whenever that changes (any origin may frame it: the height is public). */
let last = -1;
const post = () => {
  const height = Math.ceil(document.documentElement.getBoundingClientRect().height);
  if (height === last || window.parent === window) return;
  last = height;
  window.parent.postMessage({ type: HEIGHT_MESSAGE, widget: name || null, height }, '*');
};
new ResizeObserver(post).observe(document.documentElement);
post();
