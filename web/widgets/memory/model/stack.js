// One `memory_timeline` answer as the stacked chart draws it: per stretch of constant memory, each part's bytes
// (the constant states from `states`, the rest from `segments`' columns), and the stretches grouped so that no drawn
// step is narrower than a pixel. Pure: every byte is a field of the engine's answer; nothing is summed or derived here
// but the drawing's stacking (a part's bottom is the parts below it, drawn on top of each other).

/** The parts, bottom to top: [key, words, where the answer holds it]. */
export const PARTS = [
  ['runtime', 'CUDA context and NCCL buffers', 'states'],
  ['weights', 'weights', 'states'],
  ['gradients', 'gradients', 'states'],
  ['optimizer', 'optimizer states', 'states'],
  ['activations', 'activations in flight', 'segments'],
  ['transient', "a layer's backward workspace or the loss's logits", 'segments'],
  ['allocator_reserve', "the caching allocator's reserve", 'segments'],
];

/** What each letter of `segments.kind` means (engine/API.md, memory_timeline). */
export const KIND_WORDS = {
  F: 'forward',
  B: 'backward',
  W: 'weight gradients',
  I: 'idle, waiting on a neighbour stage',
  G: 'gradient reduction after the pipeline',
  O: 'optimizer step',
};

/** Segment `i` of answer `a`: { index, start, end, kind, microbatch, chunk, sets, total, parts: {key: bytes} }. */
export function moment(a, i) {
  const g = a.segments;
  const parts = {};
  for (const [key, , from] of PARTS) parts[key] = from === 'states' ? a.states[key] : g[key][i];
  return {
    index: i,
    start: g.start[i],
    end: g.end[i],
    kind: g.kind[i],
    microbatch: g.microbatch[i],
    chunk: g.chunk[i],
    sets: g.sets[i],
    total: g.total[i],
    parts,
  };
}

/** How many segments answer `a` has. */
export const segmentCount = (a) => a.segments.start.length;

/**
 * The steps to draw across `width` px: [{ from, to, index }] in seconds, `index` the segment shown there. A segment at
 * least a pixel wide is its own step; narrower ones are grouped until the group is a pixel wide, and the group shows
 * its segment with the most bytes (so a peak is never drawn away). The peak segment always stands for its group.
 */
export function drawnSteps(a, width) {
  const n = segmentCount(a);
  const { start, end, total } = a.segments;
  const perPixel = a.step_time / Math.max(1, width);
  const peak = a.peak.segment;
  const steps = [];
  let group = null;
  for (let i = 0; i < n; i += 1) {
    if (!group) group = { from: start[i], to: end[i], index: i };
    else {
      group.to = end[i];
      if (i === peak || (group.index !== peak && total[i] > total[group.index])) group.index = i;
    }
    if (group.to - group.from >= perPixel || i === n - 1) {
      steps.push(group);
      group = null;
    }
  }
  return steps;
}

/** The activation sets' lanes for the strip under the chart: [{ microbatch, chunk, from, to, lane }] and the lane count. */
export function setLanes(a) {
  const s = a.activation_sets;
  const order = s.from.map((_, i) => i).sort((x, y) => s.from[x] - s.from[y] || x - y);
  const heap = []; // [free from (s), lane], the earliest free lane on top
  const sets = [];
  let lanes = 0;
  for (const i of order) {
    const lane = heap.length && heap[0][0] <= s.from[i] ? popTop(heap)[1] : lanes++;
    push(heap, [s.to[i], lane]);
    sets.push({ microbatch: s.microbatch[i], chunk: s.chunk[i], from: s.from[i], to: s.to[i], lane });
  }
  return { sets, lanes };
}

const before = (x, y) => x[0] < y[0] || (x[0] === y[0] && x[1] < y[1]);

/** A binary min-heap's push and pop (lanes reused in O(log lanes): GPipe holds thousands of sets at once). */
function push(heap, item) {
  let i = heap.push(item) - 1;
  while (i > 0 && before(heap[i], heap[(i - 1) >> 1])) {
    [heap[i], heap[(i - 1) >> 1]] = [heap[(i - 1) >> 1], heap[i]];
    i = (i - 1) >> 1;
  }
}

function popTop(heap) {
  const top = heap[0];
  const last = heap.pop();
  if (heap.length) {
    heap[0] = last;
    for (let i = 0; ;) {
      const l = 2 * i + 1;
      const m = l + 1 < heap.length && before(heap[l + 1], heap[l]) ? l + 1 : l;
      if (l >= heap.length || !before(heap[m], heap[i])) break;
      [heap[i], heap[m]] = [heap[m], heap[i]];
      i = m;
    }
  }
  return top;
}
