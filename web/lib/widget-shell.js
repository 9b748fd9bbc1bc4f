// The room every widget draws in, from its first frame: the shadow root (stylesheets, frame, body, notes, announcer),
// the structure that makes the frame fill the size css/embed.css reserves, whether a widget is near the window yet,
// and the failure text shown in its place when it cannot run.
import { h } from './dom.js';
import { applySheets, sheet } from './sheets.js';

/** The rules every widget shares (its text inside the bundle: scripts/bundle.mjs; lib/sheets.js). */
const STYLESHEET = sheet(new URL('../css/widget.css', import.meta.url));
/** A widget starts when it comes this close to the window (lib/register-widgets.js registers those first). */
export const START_MARGIN_PX = 200;

/**
 * The rules that must hold from the first frame, before widget.css has loaded: the widget's frame shares one grid cell
 * with the host's ::before, which holds the reserved size (css/embed.css), so the frame fills that size at once.
 * A constructed sheet is applied synchronously (and is not inline style, so the page's CSP allows it).
 */
let structure = null;
function structureSheet() {
  if (!structure && typeof CSSStyleSheet === 'function' && 'replaceSync' in CSSStyleSheet.prototype) {
    structure = new CSSStyleSheet();
    structure.replaceSync(`
      :host { display: grid; grid-template-columns: minmax(0, 1fr); container-type: inline-size; }
      .frame { grid-area: 1 / 1; display: flow-root; position: relative; min-width: 0; }
      .body { float: left; width: 100%; min-height: 100%; box-sizing: border-box; }
      .notes-anchor { position: absolute; inset: 0; pointer-events: none; display: flex; flex-direction: column;
        justify-content: flex-end; }
      .announcer { position: absolute; width: 1px; height: 1px; margin: -1px; padding: 0; overflow: hidden;
        clip-path: inset(50%); white-space: nowrap; border: 0; }`);
  }
  return structure;
}

/** Whether the page's address has a hash: a link to a figure, which may scroll the page once it opens. */
export function addressHasHash() {
  return (globalThis.location?.hash ?? '').length > 1;
}

/**
 * Whether `element` is laid out within START_MARGIN_PX of the window now (what a widget's IntersectionObserver would
 * report after the next frame). Only once the document is parsed (mid-parse, the reading would lay out half a page)
 * and when the address has no hash.
 */
export function nearWindow(element) {
  // A hash may scroll the page once it opens (a link to a figure further down): then the observer decides.
  if (document.readyState === 'loading' || addressHasHash() || !element.getClientRects().length) return false;
  const box = element.getBoundingClientRect();
  return (
    box.bottom > -START_MARGIN_PX &&
    box.top < innerHeight + START_MARGIN_PX &&
    box.right > -START_MARGIN_PX &&
    box.left < innerWidth + START_MARGIN_PX
  );
}

/**
 * The sheets a widget's shadow root has: css/widget.css (the rules every widget shares), then its class's own
 * (`stylesheet`: sheet() of its widgets/<name>/<name>.css).
 */
function stylesheetsOf(host) {
  const own = host.constructor.stylesheet;
  return own ? [STYLESHEET, own] : [STYLESHEET];
}

/** The widget's shadow root: stylesheets, frame, body (showing "Loading"), notes, announcer; kept on `host`. */
export function buildShell(host) {
  const root = host.attachShadow({ mode: 'open' });
  applySheets(root, stylesheetsOf(host), root);
  const structure = structureSheet(); // last, as it always came after the widget's sheets
  if (structure) root.adoptedStyleSheets = [...root.adoptedStyleSheets, structure];
  host.notesBox = h('div', { class: 'notes', role: 'status', 'aria-live': 'polite' });
  host.announcer = h('div', {
    class: 'announcer',
    role: 'status',
    'aria-live': 'polite',
    'aria-atomic': 'true',
    'data-out': 'announce',
  });
  host.body = h('div', { class: 'body' }, h('p', { class: 'loading' }, 'Loading the engine…'));
  root.append(
    h('div', { class: 'frame' }, host.body, h('div', { class: 'notes-anchor' }, host.notesBox), host.announcer),
  );
}

/**
 * Shows `text` in place of a figure that cannot run (its engine or its own script failed), in the size the page
 * reserved for it. Works on an element whose class never loaded or whose constructor threw (lib/register-widgets.js).
 */
export function showFailure(host, text) {
  try {
    if (!host.shadowRoot) buildShell(host);
    host.body.replaceChildren(h('p', { class: 'load-failed', 'data-out': 'load-failed' }, text));
  } catch {
    // no shadow root possible: the text as the element's own content
    host.textContent = text;
  }
  host.dataset.failed = '';
}
