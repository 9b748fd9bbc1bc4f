// The page's hover channel between figures: a figure that a reader points at (or moves keyboard focus to) a cost in
// dispatches `parascope:focus` on `document` with detail { kind (lib/model/focus.js's FOCUS_KINDS, or null when the
// pointer leaves), key (focusKey: the step shown), source (the element) }; every other figure on the page whose key is
// the same shows that cost's parts. Figures of another step, and the source itself, ignore it.

export const FOCUS_EVENT = 'parascope:focus';

/** Says that `figure` (showing the step `key`) points at `kind` (null: at nothing). */
export function sendFocus(figure, key, kind) {
  if (!key) return;
  document.dispatchEvent(new CustomEvent(FOCUS_EVENT, { detail: { kind, key, source: figure } }));
}

/**
 * Calls `show(kind)` for every focus of another figure showing the same step as `element` (`keyOf()`: its key now,
 * null before it has one). Returns a function that stops listening.
 */
export function listenFocus(element, keyOf, show) {
  const on = ({ detail }) => {
    if (!detail || detail.source === element) return;
    const key = keyOf();
    if (key && detail.key === key) show(detail.kind ?? null);
  };
  document.addEventListener(FOCUS_EVENT, on);
  return () => document.removeEventListener(FOCUS_EVENT, on);
}
