// The engine's `timeline` answer (columns) laid out for drawing: each drawn GPU's events split by lane, each lane's
// in start order as typed arrays with its longest event (so a view finds its first visible event by a binary search),
// and the answers for several stage sets of one step gathered into one table of GPUs. Pure.

/**
 * A GPU's events from a columns answer as columns, one entry per event in the answer's order: { amount, chunk, end,
 * exposed, microbatch, op (one character each, '-' after the pipeline), piece, start, to_stage } (-1 where a field
 * does not apply). The answer writes each op once ({ ops }: its start, end, kind, microbatch, chunk and shape) and
 * each shape's events once, at offsets from the op (from its end where `from_end`); an event is the op's start (or
 * end) plus its offset, one addition as the engine makes it (engine/API.md, `timeline`), then the tail's events.
 */
export function eventColumns(g) {
  const { ops, shapes, tail } = g;
  let n = tail.start.length;
  for (let i = 0; i < ops.start.length; i += 1) n += shapes[ops.shape[i]].start.length;
  const ev = {
    amount: new Float64Array(n),
    chunk: new Int32Array(n).fill(-1),
    end: new Float64Array(n),
    exposed: new Float64Array(n),
    microbatch: new Int32Array(n).fill(-1),
    op: '',
    piece: new Uint8Array(n),
    start: new Float64Array(n),
    to_stage: new Int32Array(n).fill(-1),
  };
  const kinds = [];
  let k = 0;
  for (let i = 0; i < ops.start.length; i += 1) {
    const shape = shapes[ops.shape[i]];
    for (let j = 0; j < shape.start.length; j += 1, k += 1) {
      const base = shape.from_end[j] ? ops.end[i] : ops.start[i];
      ev.start[k] = base + shape.start[j];
      ev.end[k] = base + shape.end[j];
      ev.exposed[k] = shape.exposed[j];
      ev.amount[k] = shape.amount[j];
      ev.piece[k] = shape.piece[j];
      ev.to_stage[k] = shape.to_stage[j];
      ev.microbatch[k] = ops.microbatch[i];
      ev.chunk[k] = ops.chunk[i];
      kinds.push(ops.op[i]);
    }
  }
  for (let j = 0; j < tail.start.length; j += 1, k += 1) {
    ev.start[k] = tail.start[j];
    ev.end[k] = tail.end[j];
    ev.exposed[k] = tail.exposed[j];
    ev.amount[k] = tail.amount[j];
    ev.piece[k] = tail.piece[j];
    kinds.push('-');
  }
  ev.op = kinds.join('');
  return ev;
}

/**
 * One GPU of a columns answer as lanes: { gpu, stage, slowest, exposed, events (eventColumns), lanes: Map
 * lane id -> { ids (event indices, by start), start, end, exposed (Float64Array), piece (Uint8Array), longest } }.
 * `pieces` is the answer's `pieces` (each event's `piece` indexes it; its `lane` is where the event is drawn).
 */
export function gpuLanes(g, pieces) {
  const ev = eventColumns(g);
  const n = ev.start.length;
  const byLane = new Map();
  for (let i = 0; i < n; i += 1) {
    const lane = pieces[ev.piece[i]]?.lane ?? 'compute';
    let list = byLane.get(lane);
    if (!list) byLane.set(lane, (list = []));
    list.push(i);
  }
  const lanes = new Map();
  for (const [id, list] of byLane) {
    list.sort((a, b) => ev.start[a] - ev.start[b] || a - b);
    const m = list.length;
    const lane = {
      ids: Int32Array.from(list),
      start: new Float64Array(m),
      end: new Float64Array(m),
      exposed: new Float64Array(m),
      piece: new Uint8Array(m),
      longest: 0,
    };
    list.forEach((i, k) => {
      lane.start[k] = ev.start[i];
      lane.end[k] = ev.end[i];
      lane.exposed[k] = ev.exposed[i];
      lane.piece[k] = ev.piece[i];
      lane.longest = Math.max(lane.longest, ev.end[i] - ev.start[i]);
    });
    lanes.set(id, lane);
  }
  return { gpu: g.gpu, stage: g.stage, slowest: g.slowest, exposed: g.exposed, events: ev, lanes };
}

/**
 * A store of one step's answers, per stage: add(answer, window) keeps its GPUs (laid out), each with the time window
 * its events cover (null: the whole step; else { from, to }, s: every op overlapping it, whole) and the lanes it uses
 * over the whole step (`used`), and the step-wide fields (the same in every answer of the step); missing(stages,
 * window) says which of them no answer held yet for that window (null: the whole step): what the next request asks
 * for, nothing more. A window's answer holds every shape of a GPU's ops but only the window's events after the
 * pipeline (the tail: DP's last reductions, the optimizer), whose lanes are the same on every stage
 * (tests/js/step-window.test.mjs): a GPU answered for a window uses its shapes' lanes and the tail lanes of the
 * step's whole answers (a step is first asked whole).
 */
export function stepStore() {
  const gpus = new Map(); // stage -> gpuLanes, with .window and .used
  const tailLanes = new Set();
  let head = null;
  const covers = (g, w) => g && (g.window === null || (w !== null && g.window.from <= w.from && g.window.to >= w.to));
  const laneOf = (p) => head.pieces[p]?.lane ?? 'compute';
  return {
    add(answer, window = null) {
      const { gpus: list, ...rest } = answer;
      head ??= rest;
      for (const g of list) {
        const used = new Set(g.shapes.flatMap((sh) => Array.from(sh.piece, laneOf)));
        const tail = Array.from(g.tail.piece, laneOf);
        if (window === null) for (const l of tail) tailLanes.add(l);
        for (const l of window === null ? tail : tailLanes) used.add(l);
        gpus.set(g.stage, { ...gpuLanes(g, head.pieces), window, used });
      }
    },
    missing: (stages, window = null) => stages.filter((s) => !covers(gpus.get(s), window)),
    gpusOf: (stages) => stages.map((s) => gpus.get(s)).filter(Boolean),
    get head() {
      return head;
    },
    get size() {
      return gpus.size;
    },
  };
}

/**
 * The lanes drawn, in the answer's order: those any of `gpus` has events on over the step (`used`, the store's; else
 * its lanes; an empty lane is not drawn).
 */
export function usedLanes(lanes, gpus) {
  return lanes.filter((l) => gpus.some((g) => (g.used ?? g.lanes).has(l.id)));
}

/** The first index of sorted `a` whose value is ≥ `x` (a.length when none). */
export function lowerBound(a, x) {
  let lo = 0;
  let hi = a.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (a[mid] < x) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** The range [from, to) of `lane`'s events that overlap [t0, t1] (its events sorted by start; `longest` bounds them). */
export function visibleRange(lane, t0, t1) {
  const from = lowerBound(lane.start, t0 - lane.longest);
  let to = lowerBound(lane.start, t1);
  while (to < lane.start.length && lane.start[to] <= t1) to += 1;
  return [from, to];
}

/** The event of `lane` under time t (the last one started before it that has not ended), or -1. */
export function eventAt(lane, t, slack = 0) {
  const [from, to] = visibleRange(lane, t - slack, t + slack);
  let best = -1;
  for (let k = from; k < to; k += 1) {
    if (lane.start[k] <= t + slack && lane.end[k] >= t - slack) best = k;
  }
  return best;
}

/** How many events of `gpus` (lanes `laneIds`) overlap [t0, t1]: the count the budget is stated at. */
export function eventsInView(gpus, laneIds, t0, t1) {
  let n = 0;
  for (const g of gpus) {
    for (const id of laneIds) {
      const lane = g.lanes.get(id);
      if (!lane) continue;
      const [from, to] = visibleRange(lane, t0, t1);
      for (let k = from; k < to; k += 1) if (lane.end[k] >= t0) n += 1;
    }
  }
  return n;
}
