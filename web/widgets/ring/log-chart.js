// A small log-log line chart in SVG: series of {x, y} points (already computed by the engine), axes, a marked point.
// Text is 14 user units: at least 11 px while the chart is drawn 283 px wide or more.
import { svg } from '../../lib/dom.js';

const W = 360;
const H = 240;
const M = { left: 58, right: 26, top: 14, bottom: 42 };

/** Powers of ten spanning [lo, hi]. */
function decades(lo, hi) {
  const out = [];
  for (let e = Math.floor(Math.log10(lo)); e <= Math.ceil(Math.log10(hi)); e += 1) out.push(10 ** e);
  return out;
}

/**
 * series: [{ name, className, points: [{x, y, dot}] }] (dot false: the line passes the point without a dot);
 * xTicks: values to label; format: { x(v), y(v) } labels;
 * marker: { x, y } draws a vertical line at x and a ring at (x, y); label: the accessible name. Returns the <svg>.
 */
export function logLogChart({ series, xTicks, format, marker, label, xTitle = 'GPUs' }) {
  const xs = series.flatMap((s) => s.points.map((p) => p.x));
  const ys = [...series.flatMap((s) => s.points.map((p) => p.y)), ...(marker ? [marker.y] : [])].filter((y) => y > 0);
  const [x0, x1] = [Math.min(...xs), Math.max(...xs)];
  const yTicks = decades(Math.min(...ys), Math.max(...ys));
  const [y0, y1] = [yTicks[0], yTicks[yTicks.length - 1]];
  const px = (x) => M.left + ((Math.log(x) - Math.log(x0)) / (Math.log(x1) - Math.log(x0))) * (W - M.left - M.right);
  const py = (y) =>
    H - M.bottom - ((Math.log(y) - Math.log(y0)) / (Math.log(y1) - Math.log(y0))) * (H - M.top - M.bottom);

  const root = svg('svg', { viewBox: `0 0 ${W} ${H}`, class: 'chart', role: 'img', 'aria-label': label });
  for (const y of yTicks) {
    root.append(svg('line', { x1: M.left, x2: W - M.right, y1: py(y), y2: py(y), class: 'chart-grid' }));
    root.append(svg('text', { x: M.left - 6, y: py(y) + 5, class: 'chart-tick y' }, format.y(y)));
  }
  for (const x of xTicks) {
    root.append(svg('line', { x1: px(x), x2: px(x), y1: M.top, y2: H - M.bottom, class: 'chart-grid' }));
    root.append(svg('text', { x: px(x), y: H - M.bottom + 17, class: 'chart-tick x' }, format.x(x)));
  }
  root.append(svg('text', { x: (M.left + W - M.right) / 2, y: H - 5, class: 'chart-axis' }, xTitle));
  for (const s of series) {
    const d = s.points
      .filter((p) => p.y > 0)
      .map((p, i) => `${i ? 'L' : 'M'}${px(p.x).toFixed(1)},${py(p.y).toFixed(1)}`);
    root.append(svg('path', { d: d.join(''), class: `chart-line ${s.className}`, 'data-series': s.name }));
    for (const p of s.points) {
      if (p.y <= 0 || p.dot === false) continue;
      root.append(
        svg(
          'circle',
          { cx: px(p.x), cy: py(p.y), r: 2.5, class: `chart-dot ${s.className}` },
          svg('title', {}, `${s.name}, ${format.x(p.x)} GPUs: ${format.y(p.y)}`),
        ),
      );
    }
  }
  if (marker) {
    root.append(
      svg('line', { x1: px(marker.x), x2: px(marker.x), y1: M.top, y2: H - M.bottom, class: 'chart-marker' }),
    );
    if (marker.y > 0) {
      root.append(
        svg(
          'circle',
          {
            cx: px(marker.x),
            cy: py(marker.y),
            r: 5,
            class: 'chart-marker-dot',
            'data-x': marker.x,
            'data-y': marker.y,
          },
          svg('title', {}, `this ring, ${format.x(marker.x)} GPUs: ${format.y(marker.y)}`),
        ),
      );
    }
  }
  return root;
}
