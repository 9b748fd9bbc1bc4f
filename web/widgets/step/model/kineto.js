// A PyTorch profiler (Kineto) trace read for one training step: each GPU kernel classified by its name and category
// (GEMM, attention, element-wise, other compute, NCCL by collective, memory copies), the step picked by its
// ProfilerStep#N marker (a kernel belongs to the step its launch falls in, matched by `correlation`), and the step's
// GPU time split as Holistic Trace Analysis splits it (Rajan et al. 2023, "temporal breakdown" and "communication
// computation overlap"): compute, communication hidden under compute, communication exposed, copies exposed, idle.
// Seconds throughout (the trace's µs / 1e6). Pure: a parsed trace in, numbers out.
import { KINETO_RULES } from './kineto-rules.js';

const R = KINETO_RULES;
const re = (r) => new RegExp(r.pattern, r.flags);
/** Compute kinds by kernel name, first match wins; the rest of the compute kernels are R.unnamed_compute. */
const NAMED = R.compute.map((r) => [r.kind, re(r)]);
const NCCL = re(R.nccl.kernel);
const COLLECTIVE = re(R.nccl.collective);
const STEP = re(R.step_marker);
const COPIES = new Set(R.copy_categories);

/** Every kind, in the order the figure lists them. */
export const KINDS = R.kinds;

/**
 * { kind, collective } of a GPU event (cat R.kernel_category, or one of R.copy_categories), or null for other events,
 * by engine/data/kineto-rules.json's rules (the native CLI's too).
 */
export function kernelKind(name, cat) {
  if (COPIES.has(cat)) return { kind: 'memcpy', collective: null };
  if (cat !== R.kernel_category) return null;
  const n = String(name);
  const nccl = COLLECTIVE.exec(n);
  if (nccl || NCCL.test(n)) return { kind: 'nccl', collective: nccl ? nccl[1] : R.nccl.unnamed_collective };
  const hit = NAMED.find(([, r]) => r.test(n));
  return { kind: hit ? hit[0] : R.unnamed_compute, collective: null };
}

/** Whether `e` is a ProfilerStep#N marker. */
const isStep = (e) => e.ph === 'X' && STEP.test(e.name);
const GPU_CATS = new Set([R.kernel_category, ...R.copy_categories]);

/**
 * A trace's events gathered one by one (`add(e)`, in the trace's order) into what any step's split needs, and no
 * more: the ProfilerStep markers, each kernel launch's correlation and time, each GPU event's kind (classified once
 * per distinct name), stream, time and correlation. `info(d)` takes the trace's distributedInfo. The streamed reader
 * (kineto-worker.js) and traceStep feed the same collector, so both answer alike.
 */
export function collector() {
  const kinds = new Map(); // kernel name -> kernelKind
  const c = {
    base: Infinity,
    markers: [],
    launches: { corr: [], ts: [] },
    launched: new Set(), // every correlation launched
    gpu: { kind: [], collective: [], stream: [], ts: [], dur: [], corr: [] },
    distributed: null,
  };
  const classify = (name, cat) => {
    if (cat !== R.kernel_category) return kernelKind(name, cat);
    const n = String(name);
    let k = kinds.get(n);
    if (!k) kinds.set(n, (k = kernelKind(n, cat)));
    return k;
  };
  return {
    collected: c,
    info(d) {
      c.distributed = d;
    },
    add(e) {
      if (e === null || typeof e !== 'object' || e.ph !== 'X') return;
      if (e.ts < c.base) c.base = e.ts;
      if (isStep(e)) c.markers.push(e);
      if (e.cat === R.launch_category && e.args?.correlation !== undefined) {
        c.launches.corr.push(e.args.correlation);
        c.launches.ts.push(e.ts);
        c.launched.add(e.args.correlation);
      }
      if (!(e.dur >= 0) || !GPU_CATS.has(e.cat)) return;
      const k = classify(e.name, e.cat);
      const g = c.gpu;
      g.kind.push(k.kind);
      g.collective.push(k.collective);
      g.stream.push(e.args?.stream ?? e.tid);
      g.ts.push(e.ts);
      g.dur.push(e.dur);
      g.corr.push(e.args?.correlation);
    },
  };
}

/**
 * The ProfilerStep#N markers of the trace, in time order: [{ name, number, start, end }] (s after `base`, µs: times
 * are taken relative to the trace's first event, since µs since the epoch as seconds would keep only ~0.2 µs).
 */
export function profilerSteps(events, base = 0) {
  return events
    .filter(isStep)
    .map((e) => ({
      name: e.name,
      number: Number(/\d+$/.exec(e.name)[0]), // the marker's digits
      start: (e.ts - base) / 1e6,
      end: (e.ts - base + e.dur) / 1e6,
    }))
    .sort((a, b) => a.start - b.start);
}

/** Sorted, merged copies of intervals [[a, b], ...]. */
export function union(intervals) {
  const sorted = intervals.filter(([a, b]) => b > a).sort((x, y) => x[0] - y[0]);
  const out = [];
  for (const [a, b] of sorted) {
    const last = out[out.length - 1];
    if (last && a <= last[1]) last[1] = Math.max(last[1], b);
    else out.push([a, b]);
  }
  return out;
}

/** Total length of merged intervals. */
export const length = (merged) => merged.reduce((s, [a, b]) => s + (b - a), 0);

/** The length of the intersection of two merged interval lists. */
export function overlap(x, y) {
  let i = 0;
  let j = 0;
  let s = 0;
  while (i < x.length && j < y.length) {
    const a = Math.max(x[i][0], y[j][0]);
    const b = Math.min(x[i][1], y[j][1]);
    if (b > a) s += b - a;
    if (x[i][1] < y[j][1]) i += 1;
    else j += 1;
  }
  return s;
}

/**
 * The collected GPU events launched inside `window` ({ start, end } s after `base`; null: all of them), with their
 * kind, start and end (s). A kernel's launch is its runtime call (matched by `correlation`), else its own start. Only
 * the window's launches are kept: a trace of a million events holds ~100 per step.
 */
function gpuEvents(c, window) {
  const base = c.base;
  const inside = (t) => !window || (t >= window.start && t < window.end);
  const launched = new Set(); // correlations launched inside the window
  const l = c.launches;
  for (let i = 0; i < l.corr.length; i += 1) if (inside((l.ts[i] - base) / 1e6)) launched.add(l.corr[i]);
  const g = c.gpu;
  const out = [];
  for (let i = 0; i < g.ts.length; i += 1) {
    const start = (g.ts[i] - base) / 1e6;
    const corr = g.corr[i];
    // launched outside the window: every launch of it is elsewhere (c.launched holds all of them)
    const mine = launched.has(corr) || (!c.launched.has(corr) && inside(start));
    if (!mine) continue;
    out.push({ kind: g.kind[i], collective: g.collective[i], stream: g.stream[i], start, end: start + g.dur[i] / 1e6 });
  }
  return out;
}

/**
 * One step of a parsed Kineto trace (`trace`: the JSON object): `pick` the index among its ProfilerStep markers (the
 * last complete one when absent: the first is often warm-up). Returns { steps (the markers), step (the picked one, or
 * null when the trace has none: then every GPU event counts), rank, world_size, kernels, span (s, first kernel start
 * to last kernel end), breakdown: { compute, overlapped, exposed, memcpy, idle } (s; compute + exposed + memcpy + idle
 * = span), streams: [{ stream, count, seconds: kind -> s }], collectives: name -> s } or throws an Error whose `code`
 * says why (no_events, no_gpu_events).
 */
export function traceStep(trace, pick) {
  const events = Array.isArray(trace?.traceEvents) ? trace.traceEvents : Array.isArray(trace) ? trace : null;
  if (!events) throw Object.assign(new Error('no traceEvents'), { code: 'no_events' });
  const c = collector();
  for (const e of events) c.add(e);
  if (!Array.isArray(trace)) c.info(trace.distributedInfo);
  return collectedStep(c.collected, pick);
}

/** traceStep's answer from a collector's `collected` (what the streamed reader holds). */
export function collectedStep(c, pick) {
  const steps = profilerSteps(c.markers, c.base);
  const step = steps.length ? steps[Math.max(0, Math.min(steps.length - 1, pick ?? steps.length - 1))] : null;
  const mine = gpuEvents(c, step);
  if (!mine.length) throw Object.assign(new Error('no GPU kernels in the step'), { code: 'no_gpu_events' });
  const of = (kinds) => union(mine.filter((g) => kinds.includes(g.kind)).map((g) => [g.start, g.end]));
  const compute = of(['gemm', 'attention', 'elementwise', 'other']);
  const comm = of(['nccl']);
  const copies = of(['memcpy']);
  const busy = union([...compute, ...comm]);
  let first = Infinity;
  let last = -Infinity;
  for (const g of mine) {
    first = Math.min(first, g.start); // a loop, not Math.min(...): a whole trace holds more kernels than a call's arguments
    last = Math.max(last, g.end);
  }
  const span = last - first;
  const overlapped = overlap(comm, compute);
  const memcpy = length(copies) - overlap(copies, busy);
  const breakdown = {
    compute: length(compute),
    overlapped,
    exposed: length(comm) - overlapped,
    memcpy,
    idle: span - length(union([...busy, ...copies])),
  };
  return {
    steps,
    step,
    rank: c.distributed?.rank ?? null,
    world_size: c.distributed?.world_size ?? null,
    kernels: mine.length,
    span,
    breakdown,
    streams: streamsOf(mine),
    collectives: collectivesOf(mine),
  };
}

/** Per stream: its kernels' count and seconds per kind (summed durations), busiest stream first. */
function streamsOf(mine) {
  const by = new Map();
  for (const g of mine) {
    let s = by.get(g.stream);
    if (!s)
      by.set(g.stream, (s = { stream: g.stream, count: 0, seconds: Object.fromEntries(KINDS.map((k) => [k, 0])) }));
    s.count += 1;
    s.seconds[g.kind] += g.end - g.start;
  }
  const total = (s) => Object.values(s.seconds).reduce((a, b) => a + b, 0);
  return [...by.values()].sort((a, b) => total(b) - total(a));
}

/** NCCL seconds per collective (summed kernel durations). */
function collectivesOf(mine) {
  const out = {};
  for (const g of mine) if (g.kind === 'nccl') out[g.collective] = (out[g.collective] ?? 0) + (g.end - g.start);
  return out;
}
