// Geometry of the <parascope-axes> grid in CSS pixels: nodes of GPU cells for a given width, and the links drawn
// for the focused GPU (its own group on each axis, never every group at once).

export const GAP = 6; // between cells
export const NODE_GAP = 12; // between node boxes
export const PAD = 8; // inside a node box
export const LABEL = 20; // room for "node n" above a node's cells
export const MIN_CELL = 24; // the smallest cell a two-character label at 12 px fits in
export const MAX_CELL = 48;

/** Cells per row inside one node box. */
const rowCells = (perNode) => Math.min(perNode, 4);

function cellFor(width, columns, perNode) {
  const nodeW = (width - (columns - 1) * NODE_GAP) / columns;
  const cols = rowCells(perNode);
  return Math.floor((nodeW - 2 * PAD - (cols - 1) * GAP) / cols);
}

/**
 * Where each drawn GPU sits at `width` px: the most node columns (4, 2, 1) whose cells are at least MIN_CELL wide.
 * Depends on the placement and the width only, so every tab gets the same height.
 */
export function gridLayout(placement, width) {
  const perNode = placement.gpus_per_node;
  const nodes = Math.ceil(placement.drawn / perNode);
  const options = [4, 2, 1].filter((c) => c <= nodes || c === 1);
  const columns = options.find((c) => cellFor(width, c, perNode) >= MIN_CELL) ?? 1;
  const cell = Math.max(MIN_CELL, Math.min(MAX_CELL, cellFor(width, columns, perNode)));
  const cols = rowCells(perNode);
  const rows = Math.ceil(Math.min(perNode, placement.drawn) / cols);
  const nodeW = 2 * PAD + cols * cell + (cols - 1) * GAP;
  const nodeH = LABEL + 2 * PAD + rows * cell + (rows - 1) * GAP;
  const boxes = Array.from({ length: nodes }, (_, n) => ({
    node: n,
    x: (n % columns) * (nodeW + NODE_GAP),
    y: Math.floor(n / columns) * (nodeH + NODE_GAP),
    width: nodeW,
    height: nodeH,
  }));
  const cells = placement.ranks.map((r) => {
    const box = boxes[r.node];
    const i = r.rank - r.node * perNode;
    const x = box.x + PAD + (i % cols) * (cell + GAP);
    const y = box.y + LABEL + PAD + Math.floor(i / cols) * (cell + GAP);
    return {
      rank: r.rank,
      x,
      y,
      size: cell,
      cx: x + cell / 2,
      cy: y + cell / 2,
      row: Math.floor(i / cols),
      lastRow: rows - 1,
    };
  });
  const nodeRows = Math.ceil(nodes / columns);
  return {
    columns,
    cell,
    boxes,
    cells,
    width: Math.min(nodes, columns) * nodeW + (Math.min(nodes, columns) - 1) * NODE_GAP,
    height: nodeRows * nodeH + (nodeRows - 1) * NODE_GAP,
  };
}

/** The group of `rank` on one placement axis entry, or null when that group has no other drawn member. */
export function groupOf(axisEntry, rank) {
  return axisEntry.groups.find((g) => g.includes(rank)) ?? null;
}

/**
 * The links to draw for the focused GPU on each of `axes`: the ring of its group for all-reduce axes (data,
 * tensor, context), the chain of its pipeline group, and its own all-to-all partners for expert (a star, not every
 * pair). An axis whose group is the very same GPUs as an earlier axis's is not drawn again. Each link:
 * { axis, from, to } as ranks.
 */
export function focusLinks(placement, axes, focus) {
  const links = [];
  const drawn = [];
  for (const entry of placement.axes.filter((a) => axes.includes(a.axis))) {
    const group = groupOf(entry, focus);
    if (!group) continue;
    // Two axes over the very same GPUs (data and expert here) are drawn once: the first one's shape stands for both.
    const same = drawn.find((g) => g.length === group.length && g.every((r, i) => r === group[i]));
    if (same) continue;
    drawn.push(group);
    if (entry.axis === 'expert') {
      group.filter((r) => r !== focus).forEach((r) => links.push({ axis: entry.axis, from: focus, to: r }));
    } else {
      for (let i = 0; i + 1 < group.length; i += 1) links.push({ axis: entry.axis, from: group[i], to: group[i + 1] });
      if (entry.axis !== 'pipeline' && group.length > 2) {
        links.push({ axis: entry.axis, from: group[group.length - 1], to: group[0] });
      }
    }
  }
  return links;
}
