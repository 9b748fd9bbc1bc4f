// The planner's scatter as SVG: every evaluated configuration (MFU against memory per GPU), those that do not fit
// greyed, the Pareto front joined, the GPU's memory as a dashed line, the best one ringed, and a marker for the point
// the reader points at or walks to with the keys. Geometry comes from widgets/planner/model/view.js's scatterLayout.
import { svg } from '../../lib/dom.js';

/** The SVG for a layout (`width` × `height` CSS px); returns { element, mark(point|null) }. */
export function drawScatter(layout, { width, height, label }) {
  const { plot } = layout;
  const root = svg('svg', {
    class: 'planner-scatter',
    width,
    height,
    viewBox: `0 0 ${width} ${height}`,
    role: 'img',
    'aria-label': label,
  });
  const grid = svg('g', { class: 'planner-grid', 'aria-hidden': 'true' });
  for (const t of layout.yTicks) {
    grid.append(
      svg('line', { x1: plot.x, x2: plot.x + plot.width, y1: t.at, y2: t.at }),
      svg('text', { x: plot.x - 6, y: t.at + 4, 'text-anchor': 'end' }, t.text),
    );
  }
  for (const t of layout.xTicks) {
    grid.append(
      svg('line', { x1: t.at, x2: t.at, y1: plot.y, y2: plot.y + plot.height }),
      svg('text', { x: t.at, y: plot.y + plot.height + 15, 'text-anchor': 'middle' }, t.text),
    );
  }
  grid.append(
    svg(
      'text',
      { class: 'planner-axis-title', x: plot.x + plot.width / 2, y: height - 4, 'text-anchor': 'middle' },
      layout.xTitle,
    ),
  );
  grid.append(
    svg(
      'text',
      {
        class: 'planner-axis-title',
        x: 12,
        y: plot.y + plot.height / 2,
        'text-anchor': 'middle',
        transform: `rotate(-90 12 ${plot.y + plot.height / 2})`,
      },
      layout.yTitle,
    ),
  );
  root.append(grid);
  if (layout.limit !== null) {
    root.append(
      svg('line', { class: 'planner-limit', x1: layout.limit, x2: layout.limit, y1: plot.y, y2: plot.y + plot.height }),
      svg(
        'text',
        { class: 'planner-limit-text', x: layout.limit - 4, y: plot.y + 12, 'text-anchor': 'end' },
        layout.limitText,
      ),
    );
  }
  // Points that do not fit first, so the ones that do sit on top.
  const misses = svg('g', { class: 'planner-points miss' });
  const fits = svg('g', { class: 'planner-points fit' });
  for (const p of layout.points) {
    (p.fits ? fits : misses).append(
      svg(
        p.beyond ? 'rect' : 'circle',
        p.beyond
          ? { x: p.x - 2.5, y: p.y - 2.5, width: 5, height: 5 }
          : { cx: p.x.toFixed(1), cy: p.y.toFixed(1), r: 2.5 },
      ),
    );
  }
  root.append(misses, fits);
  if (layout.pareto.length) {
    root.append(
      svg('polyline', {
        class: 'planner-pareto',
        points: layout.pareto.map((p) => `${p.x.toFixed(1)},${p.y.toFixed(1)}`).join(' '),
      }),
    );
    const marks = svg('g', { class: 'planner-pareto-points' });
    for (const p of layout.pareto) marks.append(svg('circle', { cx: p.x.toFixed(1), cy: p.y.toFixed(1), r: 3.5 }));
    root.append(marks);
  }
  if (layout.best) root.append(svg('circle', { class: 'planner-best', cx: layout.best.x, cy: layout.best.y, r: 7 }));
  const marker = svg('circle', { class: 'planner-marker', r: 6, cx: -20, cy: -20, visibility: 'hidden' });
  root.append(marker);
  return {
    element: root,
    mark(point) {
      marker.setAttribute('visibility', point ? 'visible' : 'hidden');
      if (point) {
        marker.setAttribute('cx', point.x);
        marker.setAttribute('cy', point.y);
      }
    },
  };
}
