// The track record's scatter as SVG: predicted (x) against measured (y) on one linear scale, y = x, the engine's band
// as two lines y = low·x and y = high·x, one dot per run coloured by stack family (track.css: .family-<id>).
import { svg } from '../../lib/dom.js';
import { VIEW_BOX, scatterScale } from './model/scale.js';

/**
 * Draws `points` (model/points.js) with `band` ({ low, high } or null) and axis titles; returns { element, scale,
 * mark(point|null) } (mark rings the point the reader is reading).
 */
export function trackScatter(points, { band, unit, label }) {
  const scale = scatterScale(points, band?.high ?? 1);
  const { width: W, height: H } = VIEW_BOX;
  const root = svg('svg', { viewBox: `0 0 ${W} ${H}`, class: 'track-svg', role: 'img', 'aria-label': label });
  const [x0, y0] = [scale.px(0), scale.py(0)];
  const [x1, y1] = [scale.px(scale.max), scale.py(scale.max)];
  for (const t of scale.ticks) {
    root.append(
      svg('line', { x1: x0, x2: x1, y1: scale.py(t), y2: scale.py(t), class: 'track-grid' }),
      svg('line', { x1: scale.px(t), x2: scale.px(t), y1: y0, y2: y1, class: 'track-grid' }),
      svg('text', { x: x0 - 5, y: scale.py(t) + 4, class: 'track-tick y' }, String(t)),
      svg('text', { x: scale.px(t), y: y0 + 15, class: 'track-tick x' }, String(t)),
    );
  }
  root.append(
    svg('text', { x: (x0 + x1) / 2, y: H - 6, class: 'track-axis' }, `predicted, ${unit}`),
    svg(
      'text',
      { x: 12, y: (y0 + y1) / 2, class: 'track-axis', transform: `rotate(-90 12 ${(y0 + y1) / 2})` },
      `measured, ${unit}`,
    ),
  );
  const line = (k, cls) => {
    // y = k·x from the origin to the plot's edge
    const end = k >= 1 ? scale.max / k : scale.max;
    return svg('line', { x1: x0, y1: y0, x2: scale.px(end), y2: scale.py(end * k), class: cls, 'data-k': k });
  };
  if (band) root.append(line(band.low, 'track-band low'), line(band.high, 'track-band high'));
  root.append(line(1, 'track-diagonal'));
  const dots = svg('g', { class: 'track-dots' });
  for (const p of points) {
    dots.append(
      svg('circle', {
        cx: scale.px(p.x).toFixed(1),
        cy: scale.py(p.y).toFixed(1),
        r: 3.2,
        class: `track-dot family-${p.family}`,
        'data-index': p.index,
      }),
    );
  }
  root.append(dots);
  const ring = svg('circle', { r: 7, class: 'track-focus', visibility: 'hidden' });
  root.append(ring);
  function mark(p) {
    ring.setAttribute('visibility', p ? 'visible' : 'hidden');
    if (!p) return;
    ring.setAttribute('cx', scale.px(p.x).toFixed(1));
    ring.setAttribute('cy', scale.py(p.y).toFixed(1));
  }
  return { element: root, scale, mark };
}
