// A widget's permalink (one concern of the widget base, lib/widget.js): its key in the URL hash, opening (and
// scrolling to) the figure a link names, and the address following every change of state, so the address bar is
// always a link to what is on screen. The hash's format is model/link-hash.js's.
import { firstKey, hashNames, writeHash } from './model/link-hash.js';

const LINK_WRITE_MS = 150;
const LINK_IDLE_MS = 500;

/** The mixin: `Base` (a widget with linkState(), startNow() and `linked`) with permalinks. */
export const WithLinks = (Base) =>
  class extends Base {
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
      const same = [...document.querySelectorAll(`${tag}[permalink]`)].filter(
        (el) => !/^[\w-]{1,40}$/.test((el.getAttribute('permalink') ?? '').trim()),
      );
      const n = same.indexOf(this) + 1;
      return `${tag.replace(/^parascope-/, '')}${n > 1 ? `-${n}` : ''}`;
    }

    /**
     * The hash names this widget: start now (true). Scroll to it when its values come first in the hash (the figure
     * whose link was copied), or, for a hash whose first key no figure here has, when no other widget claimed the
     * page's opening.
     */
    openedByLink() {
      const hash = globalThis.location?.hash;
      if (!this.hasAttribute('permalink') || this.linkKeyOverride === '' || !hashNames(hash, this.linkKey))
        return false;
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
        } catch {
          /* a document without history (sandboxed): the copy-link control still works */
        }
      };
      this.linkWrite = write;
      // replaceState costs a few ms: written once input pauses, and then when the browser is idle (never inside a frame
      // the reader waits for), at most LINK_IDLE_MS later.
      this.linkTimer = setTimeout(() => {
        if (typeof requestIdleCallback === 'function')
          this.linkIdle = requestIdleCallback(write, { timeout: LINK_IDLE_MS });
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
  };
