// The words of the <parascope-axes> grid: a caption per tab, the shard tag in each GPU cell, the colour key, the
// focused GPU's readout and the grid's accessible name, all read from the engine's placement answer.
import { AXES } from './tabs.js';

/** Why each axis exists, in our words (prose only; every figure comes from the engine). */
export const FIXES = {
  data: 'one GPU is too slow: replicas share the batch',
  tensor: "a layer's matrices are too big: each GPU holds a slice of every matrix",
  pipeline: 'the stack of layers is too deep: each GPU holds a run of layers',
  expert: 'the experts do not fit: each GPU holds a few of them',
  context: "a long sequence's activations do not fit: each GPU holds a slice of it",
};

/** The coordinate of a rank along an axis, as the engine's `placement` response names it. */
export const FIELD = { data: 'dp', tensor: 'tp', pipeline: 'pp', expert: 'ep', context: 'cp' };

const TAG = { data: 'D', tensor: 'T', pipeline: 'P', expert: 'E', context: 'C' };
const UNIT = {
  data: 'replica',
  tensor: 'tensor rank',
  pipeline: 'stage',
  expert: 'expert rank',
  context: 'context rank',
};

const span = ([a, b]) => (b - a === 1 ? `${a}` : `${a}–${b - 1}`);

/** How many shards the run has along each axis, from the placement's axes. */
export function sizes(placement) {
  return Object.fromEntries(placement.axes.map((a) => [a.axis, a.size]));
}

/** The axes the run actually splits (size above 1), in the figure's order. */
export function splitAxes(placement) {
  const size = sizes(placement);
  return [...AXES, 'context'].filter((a) => (size[a] ?? 1) > 1);
}

/** What a GPU holds along an axis, in words, from the engine's rank entry. */
export function holds(rank, axis) {
  if (axis === 'data') return `replica ${rank.dp}`;
  if (axis === 'tensor') return `heads ${span(rank.heads)}`;
  if (axis === 'pipeline') return `layers ${rank.layers.map(span).join(', ')}`;
  if (axis === 'expert')
    return rank.experts
      ? `${rank.experts[1] - rank.experts[0] === 1 ? 'expert' : 'experts'} ${span(rank.experts)}`
      : 'no experts';
  if (axis === 'context') return `sequence slice ${rank.cp}`;
  return '';
}

/** The few characters written in a GPU's cell: its shard along the coloured axis ("P2"), or its rank on "all". */
export function cellTag(rank, axis) {
  return axis === 'all' ? `${rank.rank}` : `${TAG[axis]}${rank[FIELD[axis]]}`;
}

/** The caption above the grid for a tab. */
export function caption(axis, placement) {
  const shown =
    placement.gpus > placement.drawn
      ? `the first ${placement.drawn} of ${placement.gpus} GPUs`
      : `${placement.gpus} GPUs`;
  if (axis === 'all') return `All four at once: ${shown}, each striped by its data, tensor, pipeline and expert shard.`;
  const n = sizes(placement)[axis] ?? 1;
  const split = n > 1 ? `${n} ${UNIT[axis]}s` : `no ${axis} split in this run (size 1)`;
  return `${axis[0].toUpperCase()}${axis.slice(1)}: ${FIXES[axis]}. Colour: the ${UNIT[axis]} each of ${shown} belongs to; ${split}.`;
}

/** The colour key of a tab: one entry per shard among the drawn GPUs (at most `limit`, then a count of the rest). */
export function colourKey(axis, placement, limit = 8) {
  if (axis === 'all') {
    const bands = splitAxes(placement);
    return {
      entries: [],
      text: bands.length
        ? `Stripes, top to bottom: ${bands.join(', ')}; the number is the GPU's rank.`
        : 'This run does not split the model: every GPU holds all of it.',
    };
  }
  const size = sizes(placement)[axis] ?? 1;
  const seen = new Map();
  for (const r of placement.ranks) if (!seen.has(r[FIELD[axis]])) seen.set(r[FIELD[axis]], r);
  const all = [...seen.entries()].sort((a, b) => a[0] - b[0]);
  const entries = all
    .slice(0, limit)
    .map(([index, r]) => ({ index, size, tag: cellTag(r, axis), text: holds(r, axis) }));
  const rest = all.length - entries.length;
  return { entries, text: rest > 0 ? `and ${rest} more` : '' };
}

/** One line on the focused GPU: where it is and what it holds on every split axis. */
export function gpuReadout(placement, rankId) {
  const r = placement.ranks.find((x) => x.rank === rankId);
  if (!r) return '';
  const size = sizes(placement);
  const parts = splitAxes(placement).map(
    (a) => `${UNIT[a]} ${r[FIELD[a]]} of ${size[a]}${a === 'data' ? '' : ` (${holds(r, a)})`}`,
  );
  return `GPU ${r.rank}, node ${r.node}: ${parts.length ? parts.join('; ') : 'holds the whole model'}.`;
}

/** Lists ranks for a sentence: "0, 2 and 4", shortened past `limit`. */
export function rankList(ranks, limit = 8) {
  if (ranks.length <= 1) return ranks.join('');
  if (ranks.length > limit) return `${ranks.slice(0, limit).join(', ')} and ${ranks.length - limit} more`;
  return `${ranks.slice(0, -1).join(', ')} and ${ranks[ranks.length - 1]}`;
}

/** Who the focused GPU talks to on each drawn axis, in words ("data ring with GPUs 2, 4 and 6 across nodes"). */
export function partnersText(placement, axes, focus) {
  const out = [];
  const drawn = [];
  for (const entry of placement.axes.filter((a) => axes.includes(a.axis))) {
    const group = entry.groups.find((g) => g.includes(focus));
    if (!group) continue;
    const same = drawn.find((d) => d.group.length === group.length && d.group.every((r, i) => r === group[i]));
    if (same) {
      out.push(`${entry.axis}: the same GPUs as ${same.axis}`);
      continue;
    }
    drawn.push({ axis: entry.axis, group });
    const others = group.filter((r) => r !== focus);
    const where = entry.link === 'inter' ? 'across nodes' : 'inside its node';
    const shape = { pipeline: 'pipeline chain', expert: 'expert all-to-all' }[entry.axis] ?? `${entry.axis} ring`;
    out.push(`${shape} with ${others.length === 1 ? 'GPU' : 'GPUs'} ${rankList(others)} (${where})`);
  }
  return out.length
    ? `Lines: GPU ${focus}'s ${out.join('; ')}.`
    : `Lines: GPU ${focus} has no partner among the drawn GPUs on this view.`;
}

/** The grid's accessible name: the view, what colours mean, whose links are drawn and which GPUs are outlined. */
export function gridName({ axis, placement, focus, hot = [], hotExpert = null }) {
  const view = axis === 'all' ? 'All four axes' : `${axis[0].toUpperCase()}${axis.slice(1)} view`;
  const nodes = `${placement.drawn} of ${placement.gpus} GPUs in nodes of ${placement.gpus_per_node}`;
  const colour = axis === 'all' ? 'each striped by its shard on every axis' : `coloured by ${UNIT[axis]}`;
  const lines = partnersText(placement, axis === 'all' ? AXES : [axis], focus);
  const outlined = hot.length ? ` Outlined: GPUs ${rankList(hot)}, which hold the busiest expert ${hotExpert}.` : '';
  return `${view}: ${nodes}, ${colour}. ${lines}${outlined}`;
}
