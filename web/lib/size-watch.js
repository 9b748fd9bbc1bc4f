// Watches a box's size for a widget that repaints to fit it: the repaint runs in the next animation frame, never inside
// the ResizeObserver's callback, where changing the page makes the browser report "ResizeObserver loop completed with
// undelivered notifications" as an error event (WebKit as a page error; an embedding page's error monitor logs it).
// Any box observed anywhere on the page counts (embed.html observes its whole document to post its height), so the
// safe rule is that a callback changes nothing. Printing lays the page out at the paper's width with no frame before
// the snapshot: the repaint then runs at once, when the print media query starts (and ends) to apply.

/**
 * Calls `onResize()` in the frame after `element`'s size changes (several changes in one frame: once), once after it
 * is first laid out, and at once when printing starts or ends. Returns a function that stops all of it.
 */
export function watchSize(element, onResize) {
  let frame = 0;
  const observer = new ResizeObserver(() => {
    cancelAnimationFrame(frame);
    frame = requestAnimationFrame(() => {
      frame = 0;
      onResize();
    });
  });
  observer.observe(element);
  const print = globalThis.matchMedia?.('print');
  const now = () => {
    cancelAnimationFrame(frame);
    frame = 0;
    onResize();
  };
  print?.addEventListener?.('change', now);
  return () => {
    observer.disconnect();
    cancelAnimationFrame(frame);
    print?.removeEventListener?.('change', now);
  };
}
