// The GPU grid of <parascope-axes>: nodes of GPUs coloured by the shard they hold, traffic drawn between group members.
import { svg } from './dom.js';

const CELL = 44;
const GAP = 6;
const PAD = 8;
const LABEL = 18;

/** Distinct hues for the index of a shard along an axis (drawing only). */
export function shardColour(index, count) {
  if (count <= 1) return 'hsl(215 20% 82%)';
  const hue = (index * 360) / count + 200;
  return `hsl(${hue % 360} 62% ${index % 2 ? 70 : 80}%)`;
}

/** The coordinate of a rank along an axis, as the engine's `placement` response names it. */
const FIELD = { data: 'dp', tensor: 'tp', pipeline: 'pp', expert: 'ep', context: 'cp' };

/** What a GPU holds along an axis, in a few characters, from the engine's rank entry. */
export function shardLabel(rank, axis) {
  const span = ([a, b]) => (b - a === 1 ? `${a}` : `${a}–${b - 1}`);
  if (axis === 'data') return `r${rank.dp}`;
  if (axis === 'tensor') return `h${span(rank.heads)}`;
  if (axis === 'pipeline') return `L${rank.layers.map(span).join(',')}`;
  if (axis === 'expert') return rank.experts ? `E${span(rank.experts)}` : '—';
  if (axis === 'context') return `s${rank.cp}`;
  return `${rank.rank}`;
}

/** Pixel layout of the drawn GPUs: node boxes and cell centres, `nodeColumns` nodes per row. */
function layout(placement, nodeColumns) {
  const perNode = placement.gpus_per_node;
  const cols = Math.min(perNode, 4);
  const rows = Math.ceil(Math.min(perNode, placement.drawn) / cols);
  const nodeW = 2 * PAD + cols * CELL + (cols - 1) * GAP;
  const nodeH = LABEL + 2 * PAD + rows * CELL + (rows - 1) * GAP;
  const nodes = Math.ceil(placement.drawn / perNode);
  const columns = Math.min(nodeColumns, nodes);
  const cells = placement.ranks.map((r) => {
    const n = r.node;
    const i = r.rank - n * perNode;
    const nx = (n % columns) * (nodeW + 2 * GAP);
    const ny = Math.floor(n / columns) * (nodeH + 2 * GAP);
    const x = nx + PAD + (i % cols) * (CELL + GAP);
    const y = ny + LABEL + PAD + Math.floor(i / cols) * (CELL + GAP);
    return { x, y, cx: x + CELL / 2, cy: y + CELL / 2 };
  });
  const boxes = Array.from({ length: nodes }, (_, n) => ({
    x: (n % columns) * (nodeW + 2 * GAP),
    y: Math.floor(n / columns) * (nodeH + 2 * GAP),
  }));
  return {
    cells, boxes, nodeW, nodeH,
    width: columns * nodeW + (columns - 1) * 2 * GAP,
    height: Math.ceil(nodes / columns) * (nodeH + 2 * GAP) - 2 * GAP,
  };
}

/** Which member pairs exchange traffic: a ring for all-reduce style axes, a chain for pipeline, all pairs for expert. */
function pairs(axis, members) {
  const out = [];
  if (axis === 'pipeline') {
    for (let i = 0; i + 1 < members.length; i += 1) out.push([members[i], members[i + 1]]);
  } else if (axis === 'expert') {
    for (let i = 0; i < members.length; i += 1) for (let j = i + 1; j < members.length; j += 1) out.push([members[i], members[j]]);
  } else {
    for (let i = 0; i + 1 < members.length; i += 1) out.push([members[i], members[i + 1]]);
    if (members.length > 2) out.push([members[members.length - 1], members[0]]);
  }
  return out;
}

/** A curved path between two cell centres, bowed so that lines along a row do not hide behind the cells. */
function arc(a, b, bend) {
  const mx = (a.cx + b.cx) / 2;
  const my = (a.cy + b.cy) / 2;
  const dx = b.cx - a.cx;
  const dy = b.cy - a.cy;
  const len = Math.hypot(dx, dy) || 1;
  const k = Math.min(60, 10 + len * 0.18) * bend;
  return `M${a.cx},${a.cy} Q${mx - (dy / len) * k},${my + (dx / len) * k} ${b.cx},${b.cy}`;
}

/**
 * Draws the grid into a fresh <svg>. `axes`: the axes whose traffic to draw; `colourBy`: the axis whose shard index
 * colours the cells ('all' = one stripe per axis); `widthOf(axis)`: stroke width for that axis's lines;
 * `hot`: ranks to outline (the expert tab's hot GPU).
 */
export function drawGrid({ placement, axes, colourBy, widthOf, hot = new Set(), nodeColumns }) {
  const L = layout(placement, nodeColumns);
  const root = svg('svg', { viewBox: `-4 -4 ${L.width + 8} ${L.height + 8}`, class: 'axes-grid', role: 'img',
    'aria-label': `${placement.drawn} of ${placement.gpus} GPUs in nodes of ${placement.gpus_per_node}` });
  L.boxes.forEach((b, n) => {
    root.append(svg('rect', { class: 'node', x: b.x, y: b.y, width: L.nodeW, height: L.nodeH, rx: 8 }),
      svg('text', { class: 'node-label', x: b.x + PAD, y: b.y + 13 }, `node ${n}`));
  });
  const sizeOf = Object.fromEntries(placement.axes.map((a) => [a.axis, a.size]));
  const stripeAxes = placement.axes.map((a) => a.axis).filter((a) => sizeOf[a] > 1);
  const labels = svg('g', { class: 'labels' });
  placement.ranks.forEach((r, i) => {
    const c = L.cells[i];
    const g = svg('g', { class: hot.has(r.rank) ? 'gpu hot' : 'gpu', 'data-rank': r.rank });
    if (colourBy === 'all') {
      const bands = stripeAxes.length || 1;
      stripeAxes.forEach((axis, k) => {
        g.append(svg('rect', { x: c.x, y: c.y + (k * CELL) / bands, width: CELL, height: CELL / bands,
          fill: shardColour(r[FIELD[axis]], sizeOf[axis]) }));
      });
      if (!stripeAxes.length) g.append(svg('rect', { x: c.x, y: c.y, width: CELL, height: CELL, fill: shardColour(0, 1) }));
    } else {
      g.append(svg('rect', { x: c.x, y: c.y, width: CELL, height: CELL, fill: shardColour(r[FIELD[colourBy]], sizeOf[colourBy]) }));
    }
    g.append(svg('rect', { class: 'gpu-edge', x: c.x, y: c.y, width: CELL, height: CELL, rx: 4 }));
    root.append(g);
    labels.append(svg('text', { class: 'gpu-label', x: c.cx, y: c.cy + 4 }, colourBy === 'all' ? `${r.rank}` : shardLabel(r, colourBy)));
  });
  const lines = svg('g', { class: 'traffic' });
  const byRank = new Map(placement.ranks.map((r, i) => [r.rank, { rank: r, cell: L.cells[i] }]));
  for (const entry of placement.axes.filter((a) => axes.includes(a.axis))) {
    const width = widthOf(entry.axis);
    entry.groups.forEach((members) => {
      pairs(entry.axis, members).forEach(([p, q], k) => {
        const a = byRank.get(p);
        const b = byRank.get(q);
        const inter = a.rank.node !== b.rank.node;
        lines.append(svg('path', { d: arc(a.cell, b.cell, k % 2 ? -1 : 1), class: `link ${inter ? 'inter' : 'intra'}`,
          'stroke-width': width, 'data-axis': entry.axis }));
      });
    });
  }
  root.append(lines, labels);
  return root;
}
