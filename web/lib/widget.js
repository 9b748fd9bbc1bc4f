// The base of every parascope custom element: shadow DOM + stylesheet, start when on screen, attribute checks, notes.
import { h } from './dom.js';
import { EngineError, loadEngine } from './engine.js';

const STYLESHEET = new URL('../css/widget.css', import.meta.url).href;

/**
 * Subclasses implement setup(body) (build controls and first render; this.engine is ready) and may implement stop().
 * A bad attribute or a refused request shows a visible note; the widget keeps working with a fallback.
 */
export class ParascopeWidget extends HTMLElement {
  #observer = null;
  #started = false;
  #notes = new Map();

  connectedCallback() {
    if (!this.shadowRoot) {
      const root = this.attachShadow({ mode: 'open' });
      this.notesBox = h('div', { class: 'notes', role: 'status', 'aria-live': 'polite' });
      this.body = h('div', { class: 'body' });
      root.append(h('link', { rel: 'stylesheet', href: STYLESHEET }), h('div', { class: 'frame' }, this.notesBox, this.body));
    }
    if (this.#started) return;
    this.#observer = new IntersectionObserver(
      (entries) => {
        if (!entries.some((e) => e.isIntersecting)) return;
        this.#observer.disconnect();
        this.#start();
      },
      { rootMargin: '200px' },
    );
    this.#observer.observe(this);
  }

  disconnectedCallback() {
    this.#observer?.disconnect();
    this.stop();
  }

  async #start() {
    this.#started = true;
    this.body.replaceChildren(h('p', { class: 'loading' }, 'Loading the engine…'));
    try {
      this.engine = await loadEngine();
    } catch (err) {
      this.body.replaceChildren();
      this.setNote('load', `The engine could not load (${err.message}). Reload the page to try again.`, 'error');
      return;
    }
    this.body.replaceChildren();
    try {
      this.setup(this.body);
      this.dataset.ready = '';
      this.dispatchEvent(new CustomEvent('parascope-ready', { bubbles: true }));
    } catch (err) {
      this.setNote('setup', `This figure failed to start: ${err.message}`, 'error');
    }
  }

  /** Hook: build the widget into `body`. */
  setup(_body) {}

  /** Hook: release timers and listeners when removed from the page. */
  stop() {}

  /** Shows (or replaces) the note with this key; kind is "warning" or "error". */
  setNote(key, text, kind = 'warning') {
    let note = this.#notes.get(key);
    if (!note) {
      note = h('p', { class: `note ${kind}`, 'data-note': key });
      this.#notes.set(key, note);
      this.notesBox.append(note);
    }
    note.className = `note ${kind}`;
    note.textContent = text;
  }

  clearNote(key) {
    this.#notes.get(key)?.remove();
    this.#notes.delete(key);
  }

  /** Asks the engine; on a refusal shows the engine's message under `key` and returns null. */
  ask(request, key = 'engine') {
    return this.#attempt(key, () => this.engine.call(request));
  }

  /** Like ask, for requests whose numbers come beside the JSON: { response, attachment } or null on a refusal. */
  askWithAttachment(request, key = 'engine') {
    return this.#attempt(key, () => this.engine.callWithAttachment(request));
  }

  #attempt(key, question) {
    try {
      const answer = question();
      this.clearNote(key);
      return answer;
    } catch (err) {
      if (!(err instanceof EngineError)) throw err;
      this.setNote(key, `The engine refused these settings: ${err.message}`, 'warning');
      return null;
    }
  }

  /** An integer attribute within [min, max]; a bad value is noted and the fallback used. */
  intAttribute(name, { min, max, fallback }) {
    const raw = this.getAttribute(name);
    if (raw === null) return fallback;
    const value = Number(raw);
    if (raw.trim() === '' || !Number.isInteger(value) || value < min || value > max) {
      this.setNote(`attr-${name}`, `Attribute ${name}="${raw}" must be a whole number from ${min} to ${max}; using ${fallback}.`);
      return fallback;
    }
    return value;
  }

  /** A positive number attribute; a bad value is noted and the fallback used. */
  numberAttribute(name, { min = 0, max = Number.MAX_VALUE, fallback }) {
    const raw = this.getAttribute(name);
    if (raw === null) return fallback;
    const value = Number(raw);
    if (raw.trim() === '' || !Number.isFinite(value) || value <= min || value > max) {
      this.setNote(`attr-${name}`, `Attribute ${name}="${raw}" must be a number above ${min}; using ${fallback}.`);
      return fallback;
    }
    return value;
  }

  /** One of `allowed`; a bad value is noted and the fallback used. */
  choiceAttribute(name, allowed, fallback) {
    const raw = this.getAttribute(name);
    if (raw === null) return fallback;
    if (!allowed.includes(raw)) {
      this.setNote(`attr-${name}`, `Attribute ${name}="${raw}" must be one of ${allowed.join(', ')}; using ${fallback}.`);
      return fallback;
    }
    return raw;
  }
}
