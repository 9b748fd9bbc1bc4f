// Work the context figure does while the page is idle, one small piece at a time (requestIdleCallback where the
// browser has it, else a task after each frame): a press that lands meanwhile waits for one piece at most.

const SLICE_MS = 4; // one idle callback runs pieces for this long at most (a piece: 0.5–20 ms), then yields

/**
 * Runs `next()` in idle time until it answers null; each answer is a piece of work (a function), run at once.
 * Returns { cancel() }.
 */
export function idleWork(next) {
  let cancelled = false;
  let handle = null;
  let frame = null;
  const idle = typeof requestIdleCallback === 'function';
  const schedule = () => {
    if (idle) handle = requestIdleCallback(run);
    else
      frame = requestAnimationFrame(() => {
        handle = setTimeout(run, 0); // a task posted inside the frame runs after it, not between a press and its frame
      });
  };
  const run = (deadline) => {
    handle = null;
    if (cancelled) return;
    const end = performance.now() + SLICE_MS;
    do {
      const piece = next();
      if (!piece) return;
      piece();
    } while (!cancelled && deadline && performance.now() < end && deadline.timeRemaining() >= SLICE_MS);
    if (!cancelled) schedule();
  };
  schedule();
  return {
    cancel() {
      cancelled = true;
      if (idle) cancelIdleCallback(handle);
      else {
        cancelAnimationFrame(frame);
        clearTimeout(handle);
      }
    },
  };
}
