// The base of every parascope custom element: its life on the page (start when on screen or before printing, restart
// from loaded values, clean up when removed) and the hooks a figure implements. Each other concern reads alone:
// widget-shell.js (the shadow root and its reserved size), widget-attributes.js (attributes, notes, announcements),
// widget-engine.js (asking the engine), widget-links.js (permalinks), widget-tools.js (the tools row and export).
import { ensurePageSheet } from './page-stylesheet.js';
import { readHash } from './model/link-hash.js';
import { sheet } from './sheets.js';
import { WithAttributes } from './widget-attributes.js';
import { WithEngine } from './widget-engine.js';
import { WithLinks } from './widget-links.js';
import { START_MARGIN_PX, addressHasHash, buildShell, nearWindow, showFailure } from './widget-shell.js';
import { widgetTools } from './widget-tools.js';

export { START_MARGIN_PX, addressHasHash, nearWindow, showFailure };

/** css/embed.css, for a page that did not link it (its text in the bundle: lib/sheets.js). */
const EMBED_STYLESHEET = sheet(new URL('../css/embed.css', import.meta.url));

/** Tells the console, once per page, why the engine did not load and what a Content-Security-Policy must allow. */
function warnOnce(err) {
  if (globalThis[WARNED]) return;
  globalThis[WARNED] = true;
  console.warn(
    `parascope: the figures' engine (WebAssembly) did not load: ${err?.message ?? err}. ` +
      "If this page sends a Content-Security-Policy, its script-src must allow 'wasm-unsafe-eval' " +
      "(README, Content-Security-Policy); otherwise check that the package's wasm/ folder is served beside its script.",
  );
}
const WARNED = Symbol.for('parascope.engineWarned');

/** Widgets that are on the page but not started yet: printing starts them all. */
const waiting = new Set();
function startAllWaiting() {
  for (const widget of [...waiting]) widget.startNow();
}
if (typeof window !== 'undefined') {
  window.addEventListener('beforeprint', startAllWaiting);
  window.matchMedia?.('print').addEventListener?.('change', (e) => e.matches && startAllWaiting());
  ensurePageSheet(document, EMBED_STYLESHEET);
}

/**
 * Subclasses implement setup(body) (build controls and first render; this.engine is ready) and may implement stop().
 * A bad attribute or a refused request shows a visible note; the widget keeps working with a fallback.
 *
 * Size: each widget holds its size from the first frame, before this module has even run; the numbers live in one block
 * per widget in css/embed.css (--reserve-narrow / --reserve-wide), which the page links in its <head> (this module
 * adds it when the page did not).
 */
export class ParascopeWidget extends WithLinks(WithEngine(WithAttributes(HTMLElement))) {
  #observer = null;
  #started = false;

  connectedCallback() {
    if (!this.shadowRoot) buildShell(this);
    if (this.#started) return;
    if (this.openedByLink()) return;
    if (nearWindow(this)) {
      // on screen already: start now rather than after the next frame's intersection check
      this.startNow();
      return;
    }
    waiting.add(this);
    this.#observer = new IntersectionObserver(
      (entries) => {
        if (entries.some((e) => e.isIntersecting)) this.startNow();
      },
      { rootMargin: `${START_MARGIN_PX}px` },
    );
    this.#observer.observe(this);
  }

  disconnectedCallback() {
    waiting.delete(this);
    this.#observer?.disconnect();
    this.quietAnnouncements();
    this.stop();
  }

  /** Starts the widget now if it has not started (it normally starts when scrolled near; printing starts it early). */
  startNow() {
    if (this.#started) return;
    this.#started = true;
    waiting.delete(this);
    this.#observer?.disconnect();
    this.#start();
  }

  async #start() {
    try {
      await this.connectEngine();
    } catch (err) {
      warnOnce(err);
      showFailure(
        this,
        `This figure cannot run here: its engine (WebAssembly) did not load (${err.message}). ` +
          'The page may block WebAssembly, or the engine file is missing next to the script.',
      );
      return;
    }
    this.body.replaceChildren();
    this.linked =
      this.loaded ?? (this.hasAttribute('permalink') ? readHash(globalThis.location?.hash, this.linkKey) : null);
    try {
      this.setup(this.body);
      this.tools = widgetTools(this);
      this.body.append(this.tools.element);
      this.dataset.ready = '';
      this.dispatchEvent(new CustomEvent('parascope-ready', { bubbles: true }));
    } catch (err) {
      this.setNote('setup', `This figure failed to start: ${err.message}`, 'error');
    }
  }

  /**
   * Restarts the figure from `values` ({ attribute: value }), read exactly as a link's values are (the same parsers,
   * ranges and notes; attributes not given keep the element's own): another figure on the page (the planner) loads a
   * configuration into this one so. A figure not started yet starts now with them.
   */
  loadState(values) {
    this.loaded = new Map(
      Object.entries(values)
        .filter(([, v]) => v !== null && v !== undefined)
        .map(([name, v]) => [name, String(v)]),
    );
    if (!this.hasAttribute('data-ready')) {
      // The reader loaded it (from the planner, or their network): their state, in the link once the figure starts.
      this.addEventListener('parascope-ready', () => this.stateChanged(), { once: true });
      this.startNow();
      return;
    }
    this.stop();
    this.clearNotes('attr-');
    this.linked = this.loaded;
    this.body.replaceChildren();
    try {
      this.setup(this.body);
      this.body.append(this.tools.element);
    } catch (err) {
      this.setNote('setup', `This figure failed to start: ${err.message}`, 'error');
    }
    this.stateChanged();
  }

  /** Hook: build the widget into `body`. */
  setup(_body) {}

  /** Hook: release timers and listeners when removed from the page. */
  stop() {}

  /**
   * Hook for permalinks and file names: the current state as attribute values ({ stages: 8, schedule: '1f1b' });
   * opening a link made of them restores this state. null: the widget has no state to link.
   */
  linkState() {
    return null;
  }

  /**
   * Hook for export (lib/export-figure.js), or null: { title, words (for the file name), root (the element drawn),
   * vector(canvas, box, drawers) (an <svg> for a canvas, optional), drawers() (a promise of what vector is handed:
   * the module that draws it, loaded only when a figure is downloaded), data
   * ({ request, response }: the JSON), table (rows for the CSV, or a function resolving to them, made only when the CSV
   * is asked for; optional: else the response field by field) }.
   */
  exportFigure() {
    return null;
  }
}
