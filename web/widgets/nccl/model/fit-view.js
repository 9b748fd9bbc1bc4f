// What the figure shows of one `nccl_fit` answer (engine/API.md): per table its words (collective, GPUs, level, the
// fitted α and B), the measured busbw against the model's by message size, and the override a `run` takes. Pure:
// every number is a field of the engine's answer, only formatted or picked here.
import { bytes, seconds, si } from '../../../lib/format.js';

const COLLECTIVE_NAMES = {
  all_reduce: 'all-reduce',
  all_gather: 'all-gather',
  reduce_scatter: 'reduce-scatter',
  alltoall: 'all-to-all',
};

/** "all_reduce" -> "all-reduce". */
export const collectiveName = (id) => COLLECTIVE_NAMES[id] ?? id;

/** A table's one-line summary. */
export function tableTitle(t) {
  const where = t.level === 'intra' ? 'in one node' : `on ${t.gpus / t.gpus_per_node} nodes of ${t.gpus_per_node}`;
  return `${collectiveName(t.collective)}, ${t.gpus} GPUs ${where} (from line ${t.header_line})`;
}

/** The fitted link in words: α per step and B per GPU one way (the largest sizes' regime). */
export function fitText(t) {
  return (
    `Fitted: α = ${seconds(t.latency)} per step, B = ${si(t.bandwidth, 'B/s')} per GPU one way ` +
    `(${t.regimes.length} size range${t.regimes.length === 1 ? '' : 's'}: ` +
    `${t.regimes.map((r) => `${bytes(r.from_bytes)}–${bytes(r.to_bytes)} at ${si(r.bandwidth, 'B/s')}`).join('; ')}).`
  );
}

/**
 * The chart's points of table `index`: { bytes, measured, model, algbw } per row the log scale can show (busbw > 0),
 * and how many rows it leaves off (nccl-tests prints 0.00 GB/s for the smallest sizes).
 */
export function tablePoints(answer, index) {
  const rows = answer.points.filter((p) => p.table === index && p.bytes > 0);
  const shown = rows.filter((p) => p.measured_busbw > 0 && p.model_busbw > 0);
  return {
    points: shown.map((p) => ({
      bytes: p.bytes,
      measured: p.measured_busbw,
      model: p.model_busbw,
      algbw: p.measured_algbw,
      line: p.line,
    })),
    leftOff: rows.length - shown.length,
  };
}

/** The worst relative miss of the model against the measured busbw over the shown rows, as a fraction. */
export function worstMiss(points) {
  return points.reduce((w, p) => Math.max(w, Math.abs(p.model / p.measured - 1)), 0);
}

/** The largest size's algbw and busbw in words: why the two differ for this collective. */
export function algbwText(t, points) {
  const last = points[points.length - 1];
  if (!last) return '';
  return (
    `At ${bytes(last.bytes)} the test measured algbw ${si(last.algbw, 'B/s')} (the buffer over the time) and busbw ` +
    `${si(last.measured, 'B/s')}: × ${Number(t.bus_factor.toPrecision(4))} for ${t.gpus} GPUs.`
  );
}

/**
 * The override <parascope-run> takes (its attribute names -> values) from the answer's `cluster`: the links' α and
 * B and GPUs per node. The cross-node all-reduce rows (cluster.nccl_tests) are not carried: too long for a link.
 */
export function runValues(answer) {
  const c = answer.cluster ?? {};
  const pairs = [
    ['intra-bandwidth', c.intra_bandwidth],
    ['intra-latency', c.intra_latency],
    ['inter-bandwidth', c.inter_bandwidth],
    ['inter-latency', c.inter_latency],
    ['gpus-per-node', c.gpus_per_node],
  ];
  return Object.fromEntries(pairs.filter(([, v]) => v !== undefined));
}

/** The refusal of a paste in the reader's words, with the line the engine names. */
export function pasteErrorText(e) {
  const line = /line (\d+)/.exec(e?.message ?? '')?.[1];
  if (e?.field === 'gpus_per_node')
    return 'The paste does not say how many GPUs each node holds (the "# Using devices" lines are missing); paste them too.';
  if (e?.code === 'too_large') return 'This paste is larger than the engine reads (64 tables of 1,024 rows at most).';
  if (line) return `Line ${line} of the paste does not read as an nccl-tests row; check that it was copied whole.`;
  if (/no nccl-tests table/.test(e?.message ?? ''))
    return 'No nccl-tests table was found: paste the output from its "#  size  count  type" header down.';
  return 'The engine could not fit this paste (a collective it has no model for, one GPU, or times that do not grow with size).';
}
