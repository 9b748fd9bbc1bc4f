// The scale curve as SVG: goodput and MFU × goodput (0–100 %, linear) against GPUs (log 2), one dot per count the
// engine answered, the reader's count marked. Text is 14 user units: at least 11 px while drawn 283 px wide or more.
import { svg } from '../../lib/dom.js';
import { grouped, percent } from '../../lib/format.js';

const W = 360;
const H = 230;
const M = { left: 46, right: 16, top: 12, bottom: 42 };

/** "16,384" -> "16k" for tick labels. */
const short = (g) => (g >= 1_000_000 ? `${g / 1_000_000}M` : g >= 1000 ? `${Math.round(g / 1024)}k` : String(g));

/** points: model/curve.js's; at: the reader's GPU count. Returns { element, px } (px: GPUs -> x in user units). */
export function goodputChart(points, at, label) {
  const xs = points.map((p) => p.gpus);
  const [x0, x1] = [Math.min(...xs), Math.max(...xs, Math.min(...xs) * 2)];
  const px = (g) =>
    M.left + ((Math.log2(g) - Math.log2(x0)) / (Math.log2(x1) - Math.log2(x0))) * (W - M.left - M.right);
  const py = (f) => H - M.bottom - f * (H - M.top - M.bottom);
  const root = svg('svg', { viewBox: `0 0 ${W} ${H}`, class: 'run-chart', role: 'img', 'aria-label': label });
  for (const f of [0, 0.25, 0.5, 0.75, 1]) {
    root.append(
      svg('line', { x1: M.left, x2: W - M.right, y1: py(f), y2: py(f), class: 'run-grid' }),
      svg('text', { x: M.left - 6, y: py(f) + 5, class: 'run-tick y' }, `${f * 100}%`),
    );
  }
  const every = Math.max(1, Math.ceil(points.length / 5)); // at most ~5 labels on a phone-wide axis
  points.forEach((p, i) => {
    if ((points.length - 1 - i) % every) return; // counted from the last, which is always labelled
    root.append(svg('text', { x: px(p.gpus), y: H - M.bottom + 17, class: 'run-tick x' }, short(p.gpus)));
  });
  root.append(svg('text', { x: (M.left + W - M.right) / 2, y: H - 6, class: 'run-axis' }, 'GPUs (log scale)'));
  const series = [
    ['goodput', 'goodput', (p) => p.goodput],
    ['effective-mfu', 'MFU × goodput', (p) => p.effectiveMfu],
  ];
  for (const [cls, name, y] of series) {
    const d = points.map((p, i) => `${i ? 'L' : 'M'}${px(p.gpus).toFixed(1)},${py(y(p)).toFixed(1)}`).join('');
    root.append(svg('path', { d, class: `run-line ${cls}`, 'data-series': cls }));
    for (const p of points) {
      root.append(
        svg(
          'circle',
          { cx: px(p.gpus).toFixed(1), cy: py(y(p)).toFixed(1), r: 3, class: `run-dot ${cls}`, 'data-gpus': p.gpus },
          svg('title', {}, `${name} on ${grouped(p.gpus)} GPUs: ${percent(y(p))}`),
        ),
      );
    }
  }
  const mark = points.find((p) => p.gpus === at);
  if (mark) {
    root.append(
      svg('line', { x1: px(at), x2: px(at), y1: M.top, y2: H - M.bottom, class: 'run-marker' }),
      svg('circle', { cx: px(at), cy: py(mark.goodput), r: 6, class: 'run-marker-dot', 'data-gpus': at }),
    );
  }
  return { element: root, px };
}
