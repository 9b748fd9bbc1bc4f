// The scatter's geometry: one square plot, both axes linear from 0 to a rounded maximum (predicted and measured
// share the scale, so y = x is the diagonal), ticks at a round step. Pure: numbers in, positions out.

export const VIEW_BOX = { width: 360, height: 320 };
export const MARGIN = { left: 46, right: 12, top: 12, bottom: 40 };

/** A round step giving about `target` ticks up to `max`. */
function niceStep(max, target) {
  const raw = max / target;
  const p = 10 ** Math.floor(Math.log10(raw));
  return [1, 2, 2.5, 5, 10].map((m) => m * p).find((s) => s >= raw);
}

/**
 * The scale for `points` ({x, y}): { max, ticks, px(x), py(y) } in viewBox units; the largest value and its band's
 * reach (`reach`, the high band ratio) fit inside.
 */
export function scatterScale(points, reach = 1) {
  const top = Math.max(1, ...points.flatMap((p) => [p.x * Math.max(1, reach), p.y]));
  const step = niceStep(top, 5);
  const max = Math.ceil(top / step) * step;
  const ticks = Array.from({ length: Math.round(max / step) + 1 }, (_, i) => +(i * step).toFixed(6));
  const w = VIEW_BOX.width - MARGIN.left - MARGIN.right;
  const h = VIEW_BOX.height - MARGIN.top - MARGIN.bottom;
  return {
    max,
    ticks,
    px: (x) => MARGIN.left + (Math.min(x, max) / max) * w,
    py: (y) => VIEW_BOX.height - MARGIN.bottom - (Math.min(y, max) / max) * h,
  };
}

/** The point nearest (sx, sy) in viewBox units within `radius`, or null. */
export function nearest(points, scale, sx, sy, radius = 14) {
  let best = null;
  let bestD = radius * radius;
  for (const p of points) {
    const d = (scale.px(p.x) - sx) ** 2 + (scale.py(p.y) - sy) ** 2;
    if (d <= bestD) {
      best = p;
      bestD = d;
    }
  }
  return best;
}
