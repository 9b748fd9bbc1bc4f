// busbw against message size, log-log, in SVG: the measured rows as dots, the fitted model's busbw at the same sizes
// as a line. Text is 14 user units: at least 11 px while drawn 283 px wide or more.
import { svg } from '../../lib/dom.js';
import { bytes, si } from '../../lib/format.js';
import { byteTicks, logTicks } from './model/ticks.js';

const W = 360;
const H = 230;
const M = { left: 72, right: 24, top: 12, bottom: 42 };

/** points: model/fit-view.js's tablePoints. Returns the <svg>. */
export function busbwChart(points, label) {
  const xs = points.map((p) => p.bytes);
  const ys = points.flatMap((p) => [p.measured, p.model]);
  const [x0, x1] = [Math.min(...xs), Math.max(...xs, Math.min(...xs) * 2)];
  const [y0, y1] = [Math.min(...ys) / 1.3, Math.max(...ys) * 1.3];
  const lx = (x) => (Math.log(x) - Math.log(x0)) / (Math.log(x1) - Math.log(x0));
  const ly = (y) => (Math.log(y) - Math.log(y0)) / (Math.log(y1) - Math.log(y0));
  const px = (x) => M.left + lx(x) * (W - M.left - M.right);
  const py = (y) => H - M.bottom - ly(y) * (H - M.top - M.bottom);
  const root = svg('svg', { viewBox: `0 0 ${W} ${H}`, class: 'nccl-chart', role: 'img', 'aria-label': label });
  for (const y of logTicks(y0, y1)) {
    root.append(
      svg('line', { x1: M.left, x2: W - M.right, y1: py(y), y2: py(y), class: 'nccl-grid' }),
      svg('text', { x: M.left - 6, y: py(y) + 5, class: 'nccl-tick y' }, si(y, 'B/s')),
    );
  }
  for (const x of byteTicks(x0, x1)) {
    root.append(
      svg('line', { x1: px(x), x2: px(x), y1: M.top, y2: H - M.bottom, class: 'nccl-grid' }),
      svg('text', { x: px(x), y: H - M.bottom + 17, class: 'nccl-tick x' }, bytes(x)),
    );
  }
  root.append(svg('text', { x: (M.left + W - M.right) / 2, y: H - 6, class: 'nccl-axis' }, 'message size (log)'));
  const d = points.map((p, i) => `${i ? 'L' : 'M'}${px(p.bytes).toFixed(1)},${py(p.model).toFixed(1)}`).join('');
  root.append(svg('path', { d, class: 'nccl-model', 'data-series': 'model' }));
  for (const p of points) {
    root.append(
      svg(
        'circle',
        { cx: px(p.bytes).toFixed(1), cy: py(p.measured).toFixed(1), r: 3, class: 'nccl-dot', 'data-bytes': p.bytes },
        svg(
          'title',
          {},
          `${bytes(p.bytes)}: measured ${si(p.measured, 'B/s')}, model ${si(p.model, 'B/s')} (line ${p.line})`,
        ),
      ),
    );
  }
  return root;
}
