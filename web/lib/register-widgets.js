// Loads and registers each widget from its own module, so one widget that fails (its script throws while loading,
// or its constructor throws) leaves the others drawing and working, and shows a note in its own place on the page.
import { showFailure } from './widget.js';

/** The note a reader sees in place of a figure that could not start. */
const failedText = (why) => `This figure could not start: its script failed (${why}). The other figures on this page `
  + 'are not affected; reloading the page may help.';

/** Every element with this tag on the page that is not an instance of `Class` (never upgraded) gets the note. */
function markFailed(tag, why, Class = null) {
  for (const el of document.querySelectorAll(tag)) {
    if (!Class || !(el instanceof Class)) showFailure(el, failedText(why));
  }
}

/**
 * `modules`: { tag: () => import('…') }, each module defining its tag. Resolves once every one has loaded or failed,
 * to { tag: true | false }. A constructor that throws is reported by the browser (not thrown here) and leaves its
 * elements un-upgraded: those are found after the define and get the note too.
 */
export async function registerWidgets(modules) {
  const results = await Promise.all(Object.entries(modules).map(async ([tag, load]) => {
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
    if ([...document.querySelectorAll(tag)].every((el) => el instanceof Class)) return [tag, true];
    let why = 'its constructor failed';
    try {
      new Class();  // the browser reported the upgrade's error, not us: constructing one again shows it
    } catch (err) {
      why = err?.message ?? String(err);
    }
    markFailed(tag, why, Class);
    return [tag, false];
  }));
  return Object.fromEntries(results);
}
