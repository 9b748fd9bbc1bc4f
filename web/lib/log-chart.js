// A small log-log line chart in SVG: series of {x, y} points (already computed by the engine), axes, legend, a marker.
import { svg } from './dom.js';

const W = 360;
const H = 230;
const M = { left: 52, right: 24, top: 12, bottom: 40 };

/** Powers of ten spanning [lo, hi]. */
function decades(lo, hi) {
  const out = [];
  for (let e = Math.floor(Math.log10(lo)); e <= Math.ceil(Math.log10(hi)); e += 1) out.push(10 ** e);
  return out;
}

/**
 * series: [{ name, className, points: [{x, y}] }]; xTicks: values to label; format: { x(v), y(v) } labels;
 * marker: { x } draws a vertical line. Returns the <svg>.
 */
export function logLogChart({ series, xTicks, format, marker, label }) {
  const xs = series.flatMap((s) => s.points.map((p) => p.x));
  const ys = series.flatMap((s) => s.points.map((p) => p.y)).filter((y) => y > 0);
  const [x0, x1] = [Math.min(...xs), Math.max(...xs)];
  const yTicks = decades(Math.min(...ys), Math.max(...ys));
  const [y0, y1] = [yTicks[0], yTicks[yTicks.length - 1]];
  const px = (x) => M.left + ((Math.log(x) - Math.log(x0)) / (Math.log(x1) - Math.log(x0))) * (W - M.left - M.right);
  const py = (y) => H - M.bottom - ((Math.log(y) - Math.log(y0)) / (Math.log(y1) - Math.log(y0))) * (H - M.top - M.bottom);

  const root = svg('svg', { viewBox: `0 0 ${W} ${H}`, class: 'chart', role: 'img', 'aria-label': label });
  for (const y of yTicks) {
    root.append(svg('line', { x1: M.left, x2: W - M.right, y1: py(y), y2: py(y), class: 'chart-grid' }));
    root.append(svg('text', { x: M.left - 6, y: py(y) + 4, class: 'chart-tick y' }, format.y(y)));
  }
  for (const x of xTicks) {
    root.append(svg('line', { x1: px(x), x2: px(x), y1: M.top, y2: H - M.bottom, class: 'chart-grid' }));
    root.append(svg('text', { x: px(x), y: H - M.bottom + 14, class: 'chart-tick x' }, format.x(x)));
  }
  root.append(svg('text', { x: (M.left + W - M.right) / 2, y: H - 6, class: 'chart-axis' }, 'GPUs'));
  if (marker) {
    root.append(svg('line', { x1: px(marker.x), x2: px(marker.x), y1: M.top, y2: H - M.bottom, class: 'chart-marker' }));
  }
  for (const s of series) {
    const d = s.points.filter((p) => p.y > 0).map((p, i) => `${i ? 'L' : 'M'}${px(p.x).toFixed(1)},${py(p.y).toFixed(1)}`);
    root.append(svg('path', { d: d.join(''), class: `chart-line ${s.className}`, 'data-series': s.name }));
    for (const p of s.points) {
      if (p.y <= 0) continue;
      root.append(svg('circle', { cx: px(p.x), cy: py(p.y), r: 2.5, class: `chart-dot ${s.className}` },
        svg('title', {}, `${s.name}, ${format.x(p.x)} GPUs: ${format.y(p.y)}`)));
    }
  }
  return root;
}
