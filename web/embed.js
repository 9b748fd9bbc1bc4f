// The iframe route's loader (embed.html): reads "#widget=bubble&stages=8&…", starts that figure's engine downloading
// and imports the figure's code (in the production build one file per figure: lib/embed-files.js, scripts/bundle.mjs),
// which shows it (lib/embed-figure.js); and posts the page's height to the parent. A figure whose code fails to load
// shows why in its place; a link naming no figure gets a note (lib/embed-unknown.js). Small on purpose: every embed
// loads it before its figure's own file.
import { EMBED_FILES } from './lib/embed-files.js';
import { failedText } from './lib/failed-text.js';
import { readHash } from './lib/model/link-hash.js';

/** The message the parent page receives after every change of height (the guide's snippet reads it). */
export const HEIGHT_MESSAGE = 'parascope:height';

const name = readHash(location.hash, '').get('widget') ?? '';
const box = document.getElementById('figure');
const files = Object.hasOwn(EMBED_FILES, name) ? EMBED_FILES[name] : null;

/** The wasm at `url` downloading and compiling (as lib/engine.js does), or null where the browser cannot stream it. */
const compile = (url) =>
  typeof WebAssembly.compileStreaming === 'function' &&
  WebAssembly.compileStreaming(fetch(url, { credentials: 'same-origin' }));

/** In the figure's place, why its code could not load. */
function failed(err) {
  const widget = document.createElement(`parascope-${name}`);
  const p = document.createElement('p');
  p.className = 'load-failed';
  p.dataset.out = 'load-failed';
  p.textContent = failedText(err?.message ?? String(err));
  widget.dataset.failed = '';
  widget.append(p);
  box.replaceChildren(widget);
}

/** The note for a link naming no figure: its own file (scripts/bundle.mjs), fetched only for such a link. */
const unknownUrl = () => new URL('./lib/embed-unknown.js', import.meta.url);

if (!files) {
  import(/* webpackIgnore: true */ /* @vite-ignore */ unknownUrl().href).then(({ showUnknown }) =>
    showUnknown(box, Object.keys(EMBED_FILES)),
  );
} else {
  const [code, wasm] = files;
  const url = wasm();
  const compiling = compile(url) || null; // its own small engine, downloading while the figure's code loads
  compiling?.catch(() => {}); // a failure is reported by the figure's engine loader, which tries again
  code().then((figure) => figure.showEmbed(name, url, compiling), failed);
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
