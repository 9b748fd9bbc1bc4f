// One eased move over a given time, drawn frame by frame: the ring's chunks and the context figure's key/value chips
// travelling to the next GPU. The caller draws each frame; this keeps the clock, the easing and the cancelling.

/** Ease in and out (quadratic): 0 at 0, 1 at 1, slow at both ends. */
const ease = (f) => (f < 0.5 ? 2 * f * f : 1 - (-2 * f + 2) ** 2 / 2);

/**
 * Calls draw(e) on each animation frame, e eased from 0 to 1 over `ms`. Returns { done, cancel }: `done` resolves
 * true when the move arrives, false when cancel() stopped it first.
 */
export function tween(ms, draw) {
  let raf = 0;
  let settle = null;
  const done = new Promise((resolve) => {
    settle = resolve;
    const start = performance.now();
    const frame = (now) => {
      const f = Math.min(1, (now - start) / ms);
      draw(ease(f));
      if (f < 1) raf = requestAnimationFrame(frame);
      else {
        settle = null;
        resolve(true);
      }
    };
    raf = requestAnimationFrame(frame);
  });
  return {
    done,
    cancel() {
      cancelAnimationFrame(raf);
      settle?.(false);
      settle = null;
    },
  };
}
