// A widget's attributes and notes (one concern of the widget base, lib/widget.js): each attribute read as a link's
// value or the element's own, checked against its range; a bad one shown as a note (an overlay at the bottom of the
// figure, dismissible, never pushing the figure) with the fallback used; polite announcements for screen readers.
import { h } from './dom.js';
import { attributeNumber } from './model/attribute-number.js';

const ANNOUNCE_QUIET_MS = 700;
const SHOWN_RAW = 60; // characters of a bad value quoted in a note

/** The mixin: `Base` (an HTMLElement with notesBox and announcer, lib/widget-shell.js) with attributes and notes. */
export const WithAttributes = (Base) =>
  class extends Base {
    #notes = new Map();
    #announceTimer = 0;
    #announced = '';

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

    /** An integer attribute within [min, max]; a bad value is noted and the fallback used. */
    intAttribute(name, { min, max, fallback }) {
      const raw = this.rawAttribute(name);
      if (raw === null) return fallback;
      const value = attributeNumber(raw, { whole: true });
      if (!Number.isInteger(value)) {
        this.setNote(
          `attr-${name}`,
          `${this.#named(name, raw)} must be a whole number from ${min} to ${max} in plain digits; using ${fallback}.`,
        );
        return fallback;
      }
      if (value < min || value > max) {
        // out of range: the nearest end of it
        const clamped = Math.min(max, Math.max(min, value));
        this.setNote(
          `attr-${name}`,
          `${this.#named(name, raw)} must be a whole number from ${min} to ${max}; using ${clamped}.`,
        );
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
        this.setNote(
          `attr-${name}`,
          `${this.#named(name, raw)} must be a decimal number above ${min} (like 2.5 or 1e9); using ${fallback}.`,
        );
        return fallback;
      }
      if (value > max) {
        // too large: the largest allowed
        this.setNote(
          `attr-${name}`,
          `${this.#named(name, raw)} must be a number above ${min} and at most ${max}; using ${max}.`,
        );
        return max;
      }
      return value;
    }

    /** One of `allowed`; a bad value is noted and the fallback used. */
    choiceAttribute(name, allowed, fallback) {
      const raw = this.rawAttribute(name);
      if (raw === null) return fallback;
      if (!allowed.includes(raw)) {
        this.setNote(
          `attr-${name}`,
          `${this.#named(name, raw)} must be one of ${allowed.join(', ')}; using ${fallback}.`,
        );
        return fallback;
      }
      return raw;
    }

    /**
     * Says `text` politely to a screen reader once the figure has been still for a moment: call it after every change
     * with the new state in words ("MFU 46.2 %"). Calls during a slider drag replace each other; a repeat is not spoken.
     */
    announce(text) {
      this.announcement = text; // the newest text asked for, spoken or not yet
      clearTimeout(this.#announceTimer);
      this.#announceTimer = setTimeout(() => {
        if (text === this.#announced) return;
        this.#announced = text;
        this.announcer.textContent = text;
      }, ANNOUNCE_QUIET_MS);
    }

    /** Stops an announcement still waiting (the widget left the page). */
    quietAnnouncements() {
      clearTimeout(this.#announceTimer);
    }

    /** Shows (or replaces) the note with this key; kind is "warning" or "error". */
    setNote(key, text, kind = 'warning') {
      let note = this.#notes.get(key);
      if (!note) {
        const message = h('span', { class: 'note-text' });
        note = h(
          'p',
          { class: `note ${kind}`, 'data-note': key },
          message,
          h(
            'button',
            {
              type: 'button',
              class: 'note-dismiss',
              'aria-label': 'Dismiss this note',
              onclick: () => this.clearNote(key),
            },
            '×',
          ),
        );
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

    /** Clears every note whose key starts with `prefix` ("attr-": the attributes' notes). */
    clearNotes(prefix) {
      for (const key of [...this.#notes.keys()]) if (key.startsWith(prefix)) this.clearNote(key);
    }
  };
