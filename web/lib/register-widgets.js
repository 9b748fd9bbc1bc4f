// Loads and registers each widget from its own module, so one widget that fails (its script throws while loading,
// or its constructor throws) leaves the others working, and shows a note in its own place on the page. The widgets
// near the window register first; the others wait until the first of those has drawn (and that frame is painted),
// so none of their set-up competes with the first figure a reader sees.
import { failedText } from './failed-text.js';
import { addressHasHash, nearWindow, showFailure } from './widget.js';

/** Longest wait for the first figure before the others register anyway (its engine may be slow or failing). */
const LATER_MAX_MS = 3000;

/** Every element with this tag that is not :defined (never upgraded, or its upgrade threw) gets the note. */
function markFailed(tag, why) {
  for (const el of document.querySelectorAll(tag)) {
    if (!el.matches(':defined')) showFailure(el, failedText(why));
  }
}

/**
 * Loads one widget's module; resolves to [tag, true | false] (false: it failed, and its elements show why). Alone, for
 * a page that makes one widget (lib/embed-figure.js): none of the waiting below.
 */
export async function register(tag, load) {
  try {
    await load();
  } catch (err) {
    if (!customElements.get(tag)) {
      markFailed(tag, err?.message ?? String(err));
      return [tag, false];
    }
  }
  const Class = customElements.get(tag);
  if (!Class) {
    markFailed(tag, 'it defined no element');
    return [tag, false];
  }
  if ([...document.querySelectorAll(tag)].every((el) => el.matches(':defined'))) return [tag, true];
  let why = 'its constructor failed';
  try {
    new Class(); // the browser reported the upgrade's error, not us: constructing one again shows it
  } catch (err) {
    why = err?.message ?? String(err);
  }
  markFailed(tag, why);
  return [tag, false];
}

let printRequested = false;
const printing = () => printRequested || Boolean(globalThis.matchMedia?.('print').matches);

/**
 * Resolves once one of `tags`' elements has drawn (parascope-ready) or failed and the frame after it is painted, or
 * at once when the reader scrolls, the page prints or the hash changes (a link to another figure), or after
 * LATER_MAX_MS.
 */
function firstDrawn(tags) {
  return new Promise((resolve) => {
    const triggers = ['scroll', 'hashchange'];
    const print = globalThis.matchMedia?.('print');
    let timer = 0;
    const done = () => {
      clearTimeout(timer);
      for (const type of triggers) window.removeEventListener(type, done, true);
      document.removeEventListener('parascope-ready', drawn, true);
      print?.removeEventListener?.('change', onPrint);
      window.removeEventListener('beforeprint', beforePrint);
      resolve();
    };
    const onPrint = (e) => {
      if (!e.matches) return;
      printRequested = true;
      done();
    };
    const beforePrint = () => {
      printRequested = true;
      done();
    };
    const drawn = (e) => {
      if (!tags.includes(e.target.localName)) return;
      document.removeEventListener('parascope-ready', drawn, true);
      requestAnimationFrame(() => {
        setTimeout(done);
      }); // after the frame that paints it
    };
    for (const type of triggers) window.addEventListener(type, done, { capture: true, passive: true });
    document.addEventListener('parascope-ready', drawn, true);
    print?.addEventListener?.('change', onPrint);
    window.addEventListener('beforeprint', beforePrint);
    timer = setTimeout(done, LATER_MAX_MS);
    if (tags.some((tag) => [...document.querySelectorAll(tag)].some((el) => el.hasAttribute('data-failed')))) done();
  });
}

/**
 * `modules`: { tag: () => import('…') }, each module defining its tag. Resolves once every one has loaded or failed,
 * to { tag: true | false }. A constructor that throws is reported by the browser (not thrown here) and leaves its
 * elements "failed" (not :defined, though of the class): those are found after the define and get the note too.
 * Widgets near the window register first, the rest after the first of those has drawn (firstDrawn); when none is near
 * or the address names a figure (a link opens the page there), all register at once.
 */
export async function registerWidgets(modules) {
  const entries = Object.entries(modules);
  const linked = addressHasHash();
  const near = linked ? entries : entries.filter(([tag]) => [...document.querySelectorAll(tag)].some(nearWindow));
  const later = near.length === entries.length || near.length === 0 ? [] : entries.filter((e) => !near.includes(e));
  const first = await Promise.all((later.length ? near : entries).map(([tag, load]) => register(tag, load)));
  if (!later.length) return Object.fromEntries(first);
  await firstDrawn(near.map(([tag]) => tag));
  const rest = await Promise.all(later.map(([tag, load]) => register(tag, load)));
  // Registered because the page is printing: widget.js started the waiting widgets already, these start now.
  if (printing()) for (const [tag] of later) for (const el of document.querySelectorAll(tag)) el.startNow?.();
  const results = Object.fromEntries([...first, ...rest]);
  return Object.fromEntries(entries.map(([tag]) => [tag, results[tag]]));
}
