// Loads and registers each widget from its own module, so one widget that fails (its script throws while loading,
// or its constructor throws) leaves the others drawing and working, and shows a note in its own place on the page.
import { showFailure } from './widget.js';

/** The note a reader sees in place of a figure that could not start. */
const failedText = (why) => `This figure could not start: its script failed (${why}). The other figures on this page `
  + 'are not affected; reloading the page may help.';

/** Every element with this tag that is not :defined (never upgraded, or its upgrade threw) gets the note. */
function markFailed(tag, why) {
  for (const el of document.querySelectorAll(tag)) {
    if (!el.matches(':defined')) showFailure(el, failedText(why));
  }
}

/**
 * `modules`: { tag: () => import('…') }, each module defining its tag. Resolves once every one has loaded or failed,
 * to { tag: true | false }. A constructor that throws is reported by the browser (not thrown here) and leaves its
 * elements "failed" (not :defined, though of the class): those are found after the define and get the note too.
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
    if ([...document.querySelectorAll(tag)].every((el) => el.matches(':defined'))) return [tag, true];
    let why = 'its constructor failed';
    try {
      new Class();  // the browser reported the upgrade's error, not us: constructing one again shows it
    } catch (err) {
      why = err?.message ?? String(err);
    }
    markFailed(tag, why);
    return [tag, false];
  }));
  return Object.fromEntries(results);
}
