// The base of every parascope custom element: shadow DOM + stylesheets, reserved size, start when on screen (or before
// printing), attribute checks, notes, polite announcements.
import { h } from './dom.js';
import { EngineError, loadEngine } from './engine.js';
import { firstKey, hashNames, readHash, writeHash } from './model/link-hash.js';
import { ensurePageStylesheet } from './page-stylesheet.js';
import { widgetTools } from './widget-tools.js';
import { attributeNumber } from './model/attribute-number.js';
import { useEngineLists } from './model/engine-lists.js';

const STYLESHEET = new URL('../css/widget.css', import.meta.url).href;
const EMBED_STYLESHEET = new URL('../css/embed.css', import.meta.url).href;
const ANNOUNCE_QUIET_MS = 700;
const LINK_WRITE_MS = 150;
const LINK_IDLE_MS = 500;
const SHOWN_RAW = 60; // characters of a bad value quoted in a note
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
  return box.bottom > -START_MARGIN_PX && box.top < innerHeight + START_MARGIN_PX
    && box.right > -START_MARGIN_PX && box.left < innerWidth + START_MARGIN_PX;
}

/** The presets answer's text per engine: asked once a page, however many widgets read it (enginePresets). */
const presetsTexts = new WeakMap();

/** Widgets that are on the page but not started yet: printing starts them all. */
const waiting = new Set();
function startAllWaiting() {
  for (const widget of [...waiting]) widget.startNow();
}
if (typeof window !== 'undefined') {
  window.addEventListener('beforeprint', startAllWaiting);
  window.matchMedia?.('print').addEventListener?.('change', (e) => e.matches && startAllWaiting());
  ensurePageStylesheet(document, EMBED_STYLESHEET);
}

/**
 * Subclasses implement setup(body) (build controls and first render; this.engine is ready) and may implement stop().
 * A bad attribute or a refused request shows a visible note: an overlay at the bottom of the figure that follows the
 * bottom of the window while the figure is on screen, dismissible, never pushing the figure; the widget keeps working
 * with a fallback.
 *
 * Size: each widget holds its size from the first frame, before this module has even run; the numbers live in one block
 * per widget in css/embed.css (--reserve-narrow / --reserve-wide), which the page links in its <head> (this module
 * adds it when the page did not).
 *
 * Announcements: this.announce(text) tells a screen reader the figure's new state (one polite live region per widget);
 * repeated calls while a reader drags a slider are merged, and only the last text is spoken once input pauses.
 */
/**
 * The sheets a widget's shadow root links: css/widget.css (the rules every widget shares), then its class's own
 * (`stylesheet`, its widgets/<name>/<name>.css) unless both are one file (a bundle with every widget: scripts/bundle.mjs).
 */
function stylesheetsOf(host) {
  const own = host.constructor.stylesheet;
  return own && own !== STYLESHEET ? [STYLESHEET, own] : [STYLESHEET];
}

/** The widget's shadow root: stylesheets, frame, body (showing "Loading"), notes, announcer; kept on `host`. */
function buildShell(host) {
  const root = host.attachShadow({ mode: 'open' });
  const sheet = structureSheet();
  if (sheet) root.adoptedStyleSheets = [sheet];
  host.notesBox = h('div', { class: 'notes', role: 'status', 'aria-live': 'polite' });
  host.announcer = h('div', { class: 'announcer', role: 'status', 'aria-live': 'polite', 'aria-atomic': 'true',
    'data-out': 'announce' });
  host.body = h('div', { class: 'body' }, h('p', { class: 'loading' }, 'Loading the engine…'));
  root.append(...stylesheetsOf(host).map((href) => h('link', { rel: 'stylesheet', href })),
    h('div', { class: 'frame' }, host.body, h('div', { class: 'notes-anchor' }, host.notesBox), host.announcer));
}

/**
 * Shows `text` in place of a figure that cannot run (its engine or its own script failed), in the size the page
 * reserved for it. Works on an element whose class never loaded or whose constructor threw (lib/register-widgets.js).
 */
export function showFailure(host, text) {
  try {
    if (!host.shadowRoot) buildShell(host);
    host.body.replaceChildren(h('p', { class: 'load-failed', 'data-out': 'load-failed' }, text));
  } catch {  // no shadow root possible: the text as the element's own content
    host.textContent = text;
  }
  host.dataset.failed = '';
}

export class ParascopeWidget extends HTMLElement {
  #observer = null;
  #started = false;
  #notes = new Map();
  #announceTimer = 0;
  #announced = '';
  #engine = null;

  connectedCallback() {
    if (!this.shadowRoot) buildShell(this);
    if (this.#started) return;
    if (this.#openedByLink()) return;
    if (nearWindow(this)) {  // on screen already: start now rather than after the next frame's intersection check
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
    clearTimeout(this.#announceTimer);
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
      this.#engine = await loadEngine();
      this.engine = this.#guarded(this.#engine);
    } catch (err) {
      showFailure(this, `This figure cannot run here: its engine (WebAssembly) did not load (${err.message}). `
        + 'The page may block WebAssembly, or the engine file is missing next to the script.');
      return;
    }
    this.body.replaceChildren();
    this.linked = this.loaded ?? (this.hasAttribute('permalink') ? readHash(globalThis.location?.hash, this.linkKey) : null);
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
   * The page's engine as this widget sees it: a call that fails other than by a refusal (the engine broke: a trap, a
   * bug) shows a note in this figure, wherever in the widget the call was made, and still throws.
   */
  #guarded(engine) {
    const guard = (method) => (...args) => {
      try {
        return method(...args);
      } catch (err) {
        if (!(err instanceof EngineError)) {
          this.setNote('engine-failed', `The engine failed on these settings (${err.message}); this figure cannot update.`, 'error');
        }
        throw err;
      }
    };
    return { ...engine, call: guard(engine.call), callWithAttachment: guard(engine.callWithAttachment),
      callText: guard(engine.callText) };
  }

  /**
   * Restarts the figure from `values` ({ attribute: value }), read exactly as a link's values are (the same parsers,
   * ranges and notes; attributes not given keep the element's own): another figure on the page (the planner) loads a
   * configuration into this one so. A figure not started yet starts now with them.
   */
  loadState(values) {
    this.loaded = new Map(Object.entries(values).filter(([, v]) => v !== null && v !== undefined)
      .map(([name, v]) => [name, String(v)]));
    if (!this.hasAttribute('data-ready')) {
      this.startNow();
      return;
    }
    this.stop();
    for (const key of [...this.#notes.keys()]) if (key.startsWith('attr-')) this.clearNote(key);
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
   * ({ request, response }: the JSON), table (rows for the CSV, optional: else the response field by field) }.
   */
  exportFigure() {
    return null;
  }

  /**
   * The key of this widget's values in the URL hash: the permalink attribute's value, else its tag without
   * "parascope-", numbered from the second widget of the same tag on the page ("bubble", "bubble-2").
   * An embed (embed.js) sets `linkKeyOverride` to '' for bare names.
   */
  get linkKey() {
    if (this.linkKeyOverride !== undefined) return this.linkKeyOverride;
    const own = (this.getAttribute('permalink') ?? '').trim();
    if (own && /^[\w-]{1,40}$/.test(own)) return own;
    const tag = this.localName;
    const same = [...document.querySelectorAll(`${tag}[permalink]`)]
      .filter((el) => !/^[\w-]{1,40}$/.test((el.getAttribute('permalink') ?? '').trim()));
    const n = same.indexOf(this) + 1;
    return `${tag.replace(/^parascope-/, '')}${n > 1 ? `-${n}` : ''}`;
  }

  /**
   * The hash names this widget: start now. Scroll to it when its values come first in the hash (the figure whose link
   * was copied), or, for a hash whose first key no figure here has, when no other widget claimed the page's opening.
   */
  #openedByLink() {
    const hash = globalThis.location?.hash;
    if (!this.hasAttribute('permalink') || this.linkKeyOverride === '' || !hashNames(hash, this.linkKey)) return false;
    const root = document.documentElement;
    const lead = firstKey(hash);
    // A figure not defined yet has no linkKey: if it leads, it scrolls later and so wins.
    const led = [...document.querySelectorAll('[permalink]')].some((el) => el !== this && el.linkKey === lead);
    const scroll = lead === this.linkKey || (!led && !root.hasAttribute('data-parascope-opened'));
    root.setAttribute('data-parascope-opened', '');
    this.startNow();
    if (scroll) requestAnimationFrame(() => this.scrollIntoView({ block: 'start' }));
    return true;
  }

  /**
   * Call after every change of state the reader made: with the permalink attribute, the URL's hash follows (without a
   * new history entry), so the address bar is always a link to what is on screen.
   */
  stateChanged() {
    if (!this.linked || !this.hasAttribute('permalink') || !this.hasAttribute('data-ready')) return;
    clearTimeout(this.linkTimer);
    globalThis.cancelIdleCallback?.(this.linkIdle);
    const write = () => {
      clearTimeout(this.linkTimer);
      globalThis.cancelIdleCallback?.(this.linkIdle);
      this.linkWrite = null;
      const state = this.linkState();
      if (!state) return;
      try {
        const hash = writeHash(location.hash, this.linkKey, state, { keep: this.linkKeep ?? [] });
        history.replaceState(history.state, '', `${location.pathname}${location.search}${hash}`);
      } catch { /* a document without history (sandboxed): the copy-link control still works */ }
    };
    this.linkWrite = write;
    // replaceState costs a few ms: written once input pauses, and then when the browser is idle (never inside a frame
    // the reader waits for), at most LINK_IDLE_MS later.
    this.linkTimer = setTimeout(() => {
      if (typeof requestIdleCallback === 'function') this.linkIdle = requestIdleCallback(write, { timeout: LINK_IDLE_MS });
      else write();
    }, LINK_WRITE_MS);
  }

  /** Writes a change of state still waiting for a pause into the address now (a copied link then equals the address). */
  writeLinkNow() {
    this.linkWrite?.();
  }

  /** A link to this widget as it stands: this page with this widget's values first in the hash. */
  linkHref() {
    return `${location.href.split('#')[0]}${writeHash(location.hash, this.linkKey, this.linkState() ?? {}, { keep: this.linkKeep ?? [] })}`;
  }

  /** The raw text of attribute `name`: the link's value when the hash names it (permalink), else the attribute's. */
  rawAttribute(name) {
    const linked = this.linked?.get(name);
    return linked !== undefined ? linked : this.getAttribute(name);
  }

  /** How a note names where a bad value came from ("Link value stages=…" or "Attribute stages=…"). */
  #named(name, raw) {
    const shown = raw.length > SHOWN_RAW ? `${raw.slice(0, SHOWN_RAW)}…` : raw;
    return `${this.linked?.has(name) ? 'Link value' : 'Attribute'} ${name}="${shown}"`;
  }

  /** A yes/no attribute: absent or "false" is no, anything else (present, "", "true") is yes. */
  flagAttribute(name) {
    const raw = this.rawAttribute(name);
    return raw !== null && raw !== 'false';
  }

  /** Hook: release timers and listeners when removed from the page. */
  stop() {}

  /**
   * Says `text` politely to a screen reader once the figure has been still for a moment: call it after every change
   * with the new state in words ("MFU 46.2 %"). Calls during a slider drag replace each other; a repeat is not spoken.
   */
  announce(text) {
    this.announcement = text;  // the newest text asked for, spoken or not yet
    clearTimeout(this.#announceTimer);
    this.#announceTimer = setTimeout(() => {
      if (text === this.#announced) return;
      this.#announced = text;
      this.announcer.textContent = text;
    }, ANNOUNCE_QUIET_MS);
  }

  /** Shows (or replaces) the note with this key; kind is "warning" or "error". */
  setNote(key, text, kind = 'warning') {
    let note = this.#notes.get(key);
    if (!note) {
      const message = h('span', { class: 'note-text' });
      note = h('p', { class: `note ${kind}`, 'data-note': key }, message,
        h('button', { type: 'button', class: 'note-dismiss', 'aria-label': 'Dismiss this note', onclick: () => this.clearNote(key) }, '×'));
      note.message = message;
      this.#notes.set(key, note);
      this.notesBox.append(note);
    }
    note.className = `note ${kind}`;
    note.message.textContent = text;
  }

  clearNote(key) {
    this.#notes.get(key)?.remove();
    this.#notes.delete(key);
  }

  /**
   * The engine's presets answer (hardware, models, schedules, every list of names it accepts): asked of the engine
   * once per page and shared by every widget (it never changes); each call returns a fresh copy to read or keep.
   */
  enginePresets() {
    let text = presetsTexts.get(this.#engine);
    if (text === undefined) {
      text = this.engine.callText('{"op":"presets"}');
      if (!JSON.parse(text).error) presetsTexts.set(this.#engine, text);
    }
    const answer = JSON.parse(text);
    if (answer.error) throw new EngineError(answer.error);
    useEngineLists(answer); // the schedules, modes and objectives the pure modules read (lib/model/engine-lists.js)
    return answer;
  }

  /** Asks the engine; on a refusal shows the engine's message under `key` and returns null. */
  ask(request, key = 'engine') {
    return this.#attempt(key, () => this.engine.call(request));
  }

  /**
   * Like ask, for requests whose numbers come beside the JSON: { response, attachment } or null on a refusal. `reuse`:
   * an earlier attachment whose memory may be overwritten (engine.callWithAttachment).
   */
  askWithAttachment(request, key = 'engine', reuse = null) {
    return this.#attempt(key, () => this.engine.callWithAttachment(request, reuse));
  }

  #attempt(key, question) {
    try {
      const answer = question();
      this.clearNote(key);
      return answer;
    } catch (err) {
      if (!(err instanceof EngineError)) return null;  // the engine broke (noted by #guarded): keep the last state
      this.setNote(key, `The engine refused these settings: ${err.message}`, 'warning');
      return null;
    }
  }

  /** An integer attribute within [min, max]; a bad value is noted and the fallback used. */
  intAttribute(name, { min, max, fallback }) {
    const raw = this.rawAttribute(name);
    if (raw === null) return fallback;
    const value = attributeNumber(raw, { whole: true });
    if (!Number.isInteger(value)) {
      this.setNote(`attr-${name}`, `${this.#named(name, raw)} must be a whole number from ${min} to ${max} in plain digits; using ${fallback}.`);
      return fallback;
    }
    if (value < min || value > max) {  // out of range: the nearest end of it
      const clamped = Math.min(max, Math.max(min, value));
      this.setNote(`attr-${name}`, `${this.#named(name, raw)} must be a whole number from ${min} to ${max}; using ${clamped}.`);
      return clamped;
    }
    return value;
  }

  /** A positive number attribute; a bad value is noted and the fallback used. */
  numberAttribute(name, { min = 0, max = Number.MAX_VALUE, fallback }) {
    const raw = this.rawAttribute(name);
    if (raw === null) return fallback;
    const value = attributeNumber(raw);
    if (!Number.isFinite(value) || value <= min) {
      this.setNote(`attr-${name}`, `${this.#named(name, raw)} must be a decimal number above ${min} (like 2.5 or 1e9); using ${fallback}.`);
      return fallback;
    }
    if (value > max) {  // too large: the largest allowed
      this.setNote(`attr-${name}`, `${this.#named(name, raw)} must be a number above ${min} and at most ${max}; using ${max}.`);
      return max;
    }
    return value;
  }

  /** One of `allowed`; a bad value is noted and the fallback used. */
  choiceAttribute(name, allowed, fallback) {
    const raw = this.rawAttribute(name);
    if (raw === null) return fallback;
    if (!allowed.includes(raw)) {
      this.setNote(`attr-${name}`, `${this.#named(name, raw)} must be one of ${allowed.join(', ')}; using ${fallback}.`);
      return fallback;
    }
    return raw;
  }
}
