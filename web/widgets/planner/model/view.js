// What <parascope-planner> draws from the engine's `plan` answer: the ranked rows, the texts, and the scatter of every
// evaluated configuration laid out in pixels. Pure: every number shown is the engine's, only formatted here.
import { bytes, grouped, percent, seconds } from '../../../lib/format.js';
import { scheduleLabel } from '../../../lib/model/engine-lists.js';

/**
 * The software stacks in a reader's words, per engine id (the stacks and their order: the presets' `software`; an id
 * without words here is shown as it is).
 */
const SOFTWARE_WORDS = {
  'megatron-core': 'Megatron-Core',
  'megatron-2021': 'Megatron-LM 2021',
  deepspeed: 'Megatron-DeepSpeed',
  pytorch: 'PyTorch (eager)',
  'pytorch-compile': 'PyTorch, compiled',
  nanotron: 'nanotron',
  xla: 'JAX / XLA',
};

/** A software stack's name for a reader ("Megatron-Core"). */
export const softwareLabel = (id) => SOFTWARE_WORDS[id] ?? id;

/** Memory per GPU of a result or scatter point, in bytes (a number, or the step op's object with `total`). */
export function memoryOf(entry) {
  const m = entry.memory_per_gpu;
  return typeof m === 'object' && m !== null ? m.total : m;
}

/** The split in words: "dp 8 · tp 8 · pp 16", with cp, ep and vpp when they are above 1. */
export function splitText(p) {
  const parts = [`dp ${p.dp}`, `tp ${p.tp}`, `pp ${p.pp}`];
  if (p.vpp > 1) parts.push(`vpp ${p.vpp}`);
  if (p.cp > 1) parts.push(`cp ${p.cp}`);
  if (p.ep > 1) parts.push(`ep ${p.ep}`);
  return parts.join(' · ');
}

/**
 * What else the configuration turns on: recomputation, ZeRO, sequence parallelism, the optimizer state's share on the
 * host ("" when none).
 */
export function extrasText(p) {
  const parts = [];
  if (p.recompute && p.recompute !== 'none') parts.push(`${p.recompute} recompute`);
  if (p.zero) parts.push(`ZeRO-${p.zero}`);
  if (p.sequence_parallel) parts.push('sequence parallel');
  if (p.offload_optimizer > 0) parts.push(`optimizer ${percent(p.offload_optimizer, 0)} on the host`);
  return parts.join(' · ');
}

const microbatchText = (n) => `${grouped(n)} ${n === 1 ? 'sequence' : 'sequences'}`;

/** A number and its unit kept on one line ("55.0 %", "52.8 GiB"). */
const nb = (text) => text.replace(/ /g, '\u00a0');

/** One configuration in a sentence (the scatter's readout, a row's accessible name). */
export function configurationText(entry, capacity) {
  const p = entry.parallel;
  const extras = extrasText(p);
  const memory = memoryOf(entry);
  // The engine's `fits` leaves room for its memory error (the plan answer's memory_limit); between that and the
  // capacity a configuration may or may not start.
  const room = nb(bytes(capacity));
  const fit = entry.fits
    ? `fits in ${room}`
    : memory <= capacity
      ? `too close to the ${room} to be sure it starts`
      : `does not fit in ${room}`;
  return (
    `${splitText(p)}${extras ? ` (${extras})` : ''}, ${scheduleLabel(p.schedule)}, microbatch ${microbatchText(p.microbatch_size)}: ` +
    `MFU ${nb(percent(entry.mfu))}, step ${nb(seconds(entry.step_time))}, ${nb(bytes(memory))} per GPU, ${fit}`
  );
}

/** The ranked table's rows. */
export function tableRows(answer, capacity) {
  return answer.results.map((r, i) => ({
    rank: i + 1,
    parallel: r.parallel,
    split: splitText(r.parallel),
    extras: extrasText(r.parallel),
    schedule: scheduleLabel(r.parallel.schedule),
    microbatch: grouped(r.parallel.microbatch_size),
    mfu: percent(r.mfu),
    stepTime: seconds(r.step_time),
    memory: bytes(memoryOf(r)),
    fits: r.fits ? 'yes' : 'no',
    label: `Rank ${i + 1}: ${configurationText(r, capacity)}. Load it into the other figures.`,
  }));
}

/** "out_of_memory" -> "out of memory". */
const reasonText = (reason) => String(reason).replace(/_/g, ' ');

/** The search in words: how many configurations were costed, how many refused for what, how long it took. */
export function summaryText(answer) {
  const rejected = Object.entries(answer.rejected ?? {}).filter(([, n]) => n > 0);
  const refused = rejected.length
    ? `; set aside before costing: ${rejected.map(([why, n]) => `${grouped(n)} ${reasonText(why)}`).join(', ')}`
    : '';
  return `The engine costed ${grouped(answer.evaluated)} configurations in ${seconds(answer.elapsed)}${refused}.`;
}

/** Why there is no result (the engine's `why_empty`, and its closest miss), or null when there are results. */
export function emptyText(answer, capacity) {
  if (answer.results.length) return null;
  // The reader's sentence is built from the answer's numbers in this figure's units (why_empty stays in the JSON).
  if (answer.closest_miss && capacity) {
    return (
      `No configuration to rank: none fits in the ${nb(bytes(capacity))} of one GPU` +
      `${answer.memory_limit < capacity ? ' with room for the memory estimate’s error' : ''}. The closest miss: ` +
      `${configurationText(answer.closest_miss, capacity)}.`
    );
  }
  return 'No configuration to rank: every one was ruled out before costing (see the counts above).';
}

/** The best configuration in a sentence ("" when there is none). */
export function bestText(answer, capacity) {
  const best = answer.results[0];
  return best ? `Best: ${configurationText(best, capacity)}.` : '';
}

/** Why a search stopped, in a reader's words: the refusals a control can cause by name, else the engine's reason. */
export function planErrorText(e) {
  if (e?.field === 'offload_optimizer')
    return (
      'The engine knows no host link or host memory speed for this chip (the TPUs), so it cannot price the optimizer ' +
      'state on the host: set “Optimizer state on the host” to none to plan on it.'
    );
  return `The search could not finish: ${e?.message ?? 'the engine gave no reason'}`;
}

/** Progress in words: "Searching… 120,000 of 400,000 configurations (30 %)". */
export function progressText({ evaluated, total }) {
  if (!total) return 'Searching…';
  const share = Math.min(1, evaluated / total);
  return `Searching… ${grouped(evaluated)} of ${grouped(total)} configurations (${Math.floor(share * 100)} %)`;
}

/** Round tick steps: 1, 2 or 5 times a power of ten, about `count` of them up to `max`. */
export function ticks(max, count = 5) {
  if (!(max > 0)) return [0];
  const raw = max / count;
  const power = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 5, 10].map((m) => m * power).find((s) => s >= raw);
  const out = [0];
  while (out[out.length - 1] < max * (1 - 1e-9)) out.push(Number((out.length * step).toPrecision(12)));
  return out;
}

/** The plot's margins inside the SVG (px): room for the tick labels and axis titles. */
export const MARGIN = { left: 52, right: 14, top: 12, bottom: 42 };

/** Memory is drawn up to this many times the GPU's memory; points beyond sit on the right edge, marked. */
const MEMORY_SPAN = 2;

/**
 * The scatter in pixels: every point (MFU up, memory per GPU to the right), the memory limit line, the Pareto front
 * (the answer's `pareto`, drawn in memory order), ticks. `capacity`: bytes of one GPU's memory.
 */
export function scatterLayout(answer, { width, height, capacity }) {
  const GiB = 2 ** 30;
  const entries = answer.scatter ?? [];
  const front = answer.pareto ?? [];
  const all = [...entries, ...front, ...answer.results];
  const memMax = Math.max(capacity, ...all.map(memoryOf).filter(Number.isFinite));
  const xTicks = ticks(Math.min(memMax, capacity * MEMORY_SPAN) / GiB);
  const xMax = xTicks[xTicks.length - 1] * GiB || capacity;
  const mfuMax = Math.max(0.01, ...all.map((e) => e.mfu).filter(Number.isFinite));
  const yTicks = ticks(mfuMax * 100, 4);
  const yMax = yTicks[yTicks.length - 1] / 100 || mfuMax;
  const plot = {
    x: MARGIN.left,
    y: MARGIN.top,
    width: Math.max(10, width - MARGIN.left - MARGIN.right),
    height: Math.max(10, height - MARGIN.top - MARGIN.bottom),
  };
  const px = (memory) => plot.x + (Math.min(memory, xMax) / xMax) * plot.width;
  const py = (mfu) => plot.y + plot.height - (Math.min(mfu, yMax) / yMax) * plot.height;
  const place = (e) => ({
    x: px(memoryOf(e)),
    y: py(e.mfu),
    fits: Boolean(e.fits),
    beyond: memoryOf(e) > xMax,
    entry: e,
  });
  // Points in memory order, so the arrow keys walk them left to right.
  const points = entries.map(place).sort((a, b) => a.x - b.x || b.y - a.y);
  const pareto = front.map(place).sort((a, b) => a.x - b.x);
  return {
    plot,
    points,
    pareto,
    best: answer.results[0] ? place(answer.results[0]) : null,
    limit: capacity <= xMax ? px(capacity) : null,
    xTicks: xTicks.map((v) => ({ at: px(v * GiB), text: `${grouped(v)}` })),
    yTicks: yTicks.map((v) => ({ at: py(v / 100), text: `${grouped(v)} %` })),
    xTitle: 'Memory per GPU (GiB)',
    yTitle: 'MFU',
    limitText: `${bytes(capacity)} per GPU`,
  };
}

/** The scatter's accessible name: what it shows now. */
export function scatterLabel(answer, capacity) {
  const n = (answer.scatter ?? []).length;
  const fit = (answer.scatter ?? []).filter((e) => e.fits).length;
  return (
    `Scatter of the ${grouped(answer.evaluated ?? n)} costed configurations as ${grouped(n)} dots, each the best ` +
    `of those nearest it in MFU and memory per GPU: ${grouped(fit)} dots fit in ${bytes(capacity)}, ` +
    `${grouped((answer.pareto ?? []).length)} on the Pareto front. Arrow keys walk the points.`
  );
}

/** The index of the point nearest (x, y) within `radius` px, or -1. */
export function nearestPoint(points, x, y, radius = 10) {
  let best = -1;
  let bestD = radius * radius;
  for (let i = 0; i < points.length; i += 1) {
    const d = (points[i].x - x) ** 2 + (points[i].y - y) ** 2;
    if (d <= bestD) {
      best = i;
      bestD = d;
    }
  }
  return best;
}

/**
 * The point the key walks to from `index` (-1: none yet), or undefined for a key the scatter does not take:
 * ← → the neighbour in memory order, Home End the first and last, Escape none.
 */
export function pointAfterKey(count, index, key) {
  if (count === 0) return key === 'Escape' ? -1 : undefined;
  switch (key) {
    case 'ArrowRight':
      return index < 0 ? 0 : Math.min(count - 1, index + 1);
    case 'ArrowLeft':
      return index < 0 ? 0 : Math.max(0, index - 1);
    case 'Home':
      return 0;
    case 'End':
      return count - 1;
    case 'Escape':
      return -1;
    default:
      return undefined;
  }
}
