// Watches a box's size for a widget that repaints to fit it: the repaint runs in the next animation frame, never inside
// the ResizeObserver's callback, where changing the page makes the browser report "ResizeObserver loop completed with
// undelivered notifications" as an error event (WebKit as a page error; an embedding page's error monitor logs it).
// Any box observed anywhere on the page counts (embed.html observes its whole document to post its height), so the
// safe rule is that a callback changes nothing.

/**
 * Calls `onResize()` in the frame after `element`'s size changes (several changes in one frame: once), and once after
 * it is first laid out. Returns a function that stops watching and cancels a pending call.
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
  return () => {
    observer.disconnect();
    cancelAnimationFrame(frame);
  };
}
