// The time window the chart shows and how the reader moves it: zoom about a point, pan, keys, the axis's ticks.
// Seconds throughout. Pure.

/** The shortest window the chart zooms to: 1 µs, finer than any event the cost model draws. */
export const MIN_SPAN = 1e-6;

/** The whole step: [0, stepTime]. */
export const wholeView = (stepTime) => ({ t0: 0, t1: stepTime > 0 ? stepTime : 1 });

/** `view` held inside [0, stepTime] and no shorter than MIN_SPAN (a window is never wider than the step). */
export function clampView({ t0, t1 }, stepTime) {
  const whole = stepTime > 0 ? stepTime : 1;
  let span = Math.min(whole, Math.max(MIN_SPAN, t1 - t0));
  if (!Number.isFinite(span)) span = whole;
  let from = Number.isFinite(t0) ? t0 : 0;
  from = Math.max(0, Math.min(whole - span, from));
  return { t0: from, t1: from + span };
}

/** Zooms by `factor` (> 1 in, < 1 out) keeping time `at` where it is on screen. */
export function zoomView(view, factor, at, stepTime) {
  const span = (view.t1 - view.t0) / factor;
  const k = (at - view.t0) / (view.t1 - view.t0 || 1);
  return clampView({ t0: at - k * span, t1: at - k * span + span }, stepTime);
}

/** Pans by `fraction` of the window (positive: later). */
export function panView(view, fraction, stepTime) {
  const d = (view.t1 - view.t0) * fraction;
  return clampView({ t0: view.t0 + d, t1: view.t1 + d }, stepTime);
}

/** The wheel's zoom factor for a wheel delta in px (a notch of ~100 px: ×1.25). */
export const wheelFactor = (deltaY) => Math.exp(-Math.max(-400, Math.min(400, deltaY)) * 0.00223);

/**
 * What a key does to the window: { view } for a move, { stages: ±n } to move the stages shown, or null for a key the
 * chart does not take. ← → pan a tenth, + − zoom about the middle, 0 / Home the whole step, ↑ ↓ one stage,
 * PageUp PageDown a screenful of stages; ] [ the next and previous event of the row read ({ event: ±1 }), . , the
 * row below and above ({ row: ±1 }).
 */
export function keyMove(key, view, stepTime, shown) {
  const mid = (view.t0 + view.t1) / 2;
  switch (key) {
    case 'ArrowLeft':
      return { view: panView(view, -0.1, stepTime) };
    case 'ArrowRight':
      return { view: panView(view, 0.1, stepTime) };
    case '+':
    case '=':
      return { view: zoomView(view, 1.5, mid, stepTime) };
    case '-':
    case '_':
      return { view: zoomView(view, 1 / 1.5, mid, stepTime) };
    case '0':
    case 'Home':
      return { view: wholeView(stepTime) };
    case 'ArrowUp':
      return { stages: -1 };
    case 'ArrowDown':
      return { stages: 1 };
    case 'PageUp':
      return { stages: -shown };
    case 'PageDown':
      return { stages: shown };
    case ']':
      return { event: 1 };
    case '[':
      return { event: -1 };
    case '.':
      return { row: 1 };
    case ',':
      return { row: -1 };
    default:
      return null;
  }
}

/** Ticks for [t0, t1] with about `count` of them: { step, ticks } (seconds, a 1-2-5 step). */
export function ticks(t0, t1, count) {
  const raw = (t1 - t0) / Math.max(1, count);
  if (!(raw > 0)) return { step: 0, ticks: [] };
  const power = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 5, 10].map((k) => k * power).find((s) => s >= raw * (1 - 1e-9)) ?? 10 * power;
  const out = [];
  for (let i = Math.ceil(t0 / step - 1e-9); i * step <= t1 + step * 1e-9; i += 1) out.push(i * step + 0);
  return { step, ticks: out };
}

/** A tick's label: milliseconds to the precision the step needs ("1,250 ms", "12.5 ms", "0.02 ms"). */
export function tickLabel(t, step) {
  const ms = t * 1e3;
  const digits = Math.max(0, Math.min(6, -Math.floor(Math.log10(step * 1e3) + 1e-9)));
  return `${ms.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits })} ms`;
}

/**
 * The time window to ask the engine for while `view` is on screen (`from`/`to` of the timeline request, s): the view
 * and one view's width either side, within the step; null (the whole step) unless that is under half the step.
 * Zoomed in, the answer holds only the ops near the screen (the engine keeps every event of an op overlapping it), so
 * what is drawn is the same and the bytes fewer; a pan or zoom past it asks again.
 */
export function askWindow(view, stepTime) {
  const span = view.t1 - view.t0;
  const from = Math.max(0, view.t0 - span);
  const to = Math.min(stepTime, view.t1 + span);
  return to - from < stepTime / 2 && to > from ? { from, to } : null;
}
