// Paints the <parascope-axes> grid: nodes of GPU cells coloured by shard, the focused GPU's links behind the labels.
// Geometry and words come from model/layout.js and model/captions.js; this file only builds the SVG.
import { svg } from '../../lib/dom.js';
import { FIELD, cellTag, sizes, splitAxes } from './model/captions.js';

/**
 * A fixed mid-tone colour for shard `index` of `count` along an axis: hues spread round the wheel, two lightnesses
 * alternating so neighbours differ. Mid-tones read on the light and the dark palette; labels on them carry a halo.
 */
export function shardColour(index, count) {
  if (count <= 1) return 'hsl(215 14% 58%)';
  const hue = ((index * 360) / count + 200) % 360;
  return `hsl(${Math.round(hue)} 55% ${index % 2 ? 64 : 52}%)`;
}

/**
 * A curved path between two cell centres, bowed to one side so that a ring's links do not lie on each other and a
 * link between neighbouring cells rises clear of them (the curve's peak is half its control point's offset).
 */
function arc(a, b, bend) {
  const mx = (a.cx + b.cx) / 2;
  const my = (a.cy + b.cy) / 2;
  const dx = b.cx - a.cx;
  const dy = b.cy - a.cy;
  const len = Math.hypot(dx, dy) || 1;
  const k = Math.min(70, a.size + 12 + len * 0.08) * bend;
  return `M${a.cx},${a.cy} Q${mx - (dy / len) * k},${my + (dx / len) * k} ${b.cx},${b.cy}`;
}

const BEND = { data: 1, tensor: 1.2, pipeline: -1, expert: -0.8, context: 0.6 };

/**
 * A fresh <svg> at 1:1 CSS pixels. `layout`: gridLayout(); `axis`: the tab ('all' stripes every split axis);
 * `links`: focusLinks(); `widthOf(axis)`: stroke width; `hot`: ranks outlined; `focus`: the focused rank; `name`:
 * the accessible name; `onPick(rank)`: called when a cell is clicked.
 */
export function drawGrid({ placement, layout, axis, links, widthOf, hot = [], focus, name, onPick }) {
  const root = svg('svg', {
    class: 'axes-grid',
    role: 'img',
    'aria-label': name,
    width: layout.width,
    height: layout.height,
    viewBox: `0 0 ${layout.width} ${layout.height}`,
  });
  for (const b of layout.boxes) {
    root.append(
      svg('rect', { class: 'node', x: b.x + 0.5, y: b.y + 0.5, width: b.width - 1, height: b.height - 1, rx: 8 }),
    );
  }
  const size = sizes(placement);
  const stripes = splitAxes(placement);
  const byRank = new Map(layout.cells.map((c) => [c.rank, c]));
  const hotSet = new Set(hot);
  const cells = svg('g', { class: 'cells' });
  placement.ranks.forEach((r) => {
    const c = byRank.get(r.rank);
    const g = svg('g', {
      class: `gpu${hotSet.has(r.rank) ? ' hot' : ''}${r.rank === focus ? ' focus' : ''}`,
      'data-rank': r.rank,
    });
    const bands = axis === 'all' ? stripes : [axis];
    if (!bands.length)
      g.append(svg('rect', { x: c.x, y: c.y, width: c.size, height: c.size, fill: shardColour(0, 1) }));
    bands.forEach((a, k) => {
      g.append(
        svg('rect', {
          x: c.x,
          y: c.y + (k * c.size) / bands.length,
          width: c.size,
          height: c.size / bands.length,
          fill: shardColour(r[FIELD[a]], size[a] ?? 1),
        }),
      );
    });
    g.append(svg('rect', { class: 'gpu-edge', x: c.x, y: c.y, width: c.size, height: c.size, rx: 3 }));
    // The busiest expert's GPUs and the focused GPU get a ring just outside the cell, visible on any fill.
    if (hotSet.has(r.rank) || r.rank === focus) {
      g.append(
        svg('rect', { class: 'gpu-ring', x: c.x - 2.5, y: c.y - 2.5, width: c.size + 5, height: c.size + 5, rx: 5 }),
      );
    }
    if (onPick) g.addEventListener('click', () => onPick(r.rank));
    cells.append(g);
  });
  const lines = svg('g', { class: 'traffic' });
  links.forEach((l, k) => {
    const a = byRank.get(l.from);
    const b = byRank.get(l.to);
    if (!a || !b) return;
    const inter =
      placement.ranks.find((r) => r.rank === l.from).node !== placement.ranks.find((r) => r.rank === l.to).node;
    // Neighbours in a node's top row bow upwards, in its bottom row downwards: away from the other cells.
    const sameRow = a.cy === b.cy && a.row === b.row && (a.row === 0 || a.row === a.lastRow);
    const out = a.cx < b.cx ? 1 : -1;
    const bend = sameRow
      ? (a.row === 0 ? -out : out) * 1.1
      : (BEND[l.axis] ?? 1) * (l.axis === 'expert' && k % 2 ? -1 : 1);
    lines.append(
      svg('path', {
        d: arc(a, b, bend),
        class: `link ${inter ? 'inter' : 'intra'}`,
        'stroke-width': widthOf(l.axis),
        'data-axis': l.axis,
      }),
    );
  });
  const labels = svg(
    'g',
    { class: 'labels', 'aria-hidden': 'true' },
    layout.boxes.map((b) => svg('text', { class: 'node-label', x: b.x + 8, y: b.y + 15 }, `node ${b.node}`)),
  );
  placement.ranks.forEach((r) => {
    const c = byRank.get(r.rank);
    labels.append(svg('text', { class: 'gpu-label', x: c.cx, y: c.cy + 4 }, cellTag(r, axis)));
  });
  root.append(cells, lines, labels);
  return root;
}
