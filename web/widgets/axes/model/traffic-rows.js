// The per-axis traffic table of <parascope-axes> as data: one row per axis of the engine's traffic answer, every
// figure labelled per training step (what each axis fixes is in the tab's caption).
import { bytes, grouped, percent, seconds } from '../../../lib/format.js';

/** Column headings (and the label each cell carries in the narrow, stacked layout). */
export const COLUMNS = [
  { field: 'splits', label: 'splits' },
  { field: 'collective', label: 'traffic it adds' },
  { field: 'count', label: 'times per step' },
  { field: 'bytes_per_gpu', label: 'bytes per GPU per step' },
  { field: 'link', label: 'link' },
  { field: 'time', label: 'time per step' },
  { field: 'hidden_fraction', label: 'hidden behind compute' },
];

/** Text for one cell from the engine's row. */
function text(field, r) {
  if (field === 'count') return `${grouped(Number(r.count.toPrecision(4)))}×`;
  if (field === 'bytes_per_gpu') return bytes(r.bytes_per_gpu);
  if (field === 'link') return `${r.link_name ?? ''} (${r.link === 'inter' ? 'across nodes' : 'inside a node'})`;
  if (field === 'time') return seconds(r.time);
  if (field === 'hidden_fraction') return percent(r.hidden_fraction, 0);
  return String(r[field]);
}

/** Rows for the engine's traffic.axes: { axis, selected, cells: [{ field, label, value, text }] }. */
export function trafficRows(traffic, selectedAxis) {
  return (traffic?.axes ?? []).map((r) => ({
    axis: r.axis,
    selected: r.axis === selectedAxis,
    cells: COLUMNS.map(({ field, label }) => ({ field, label, value: r[field], text: text(field, r) })),
  }));
}

/** The traffic row of one axis as a sentence (for the live announcement when that tab is chosen). */
export function axisSummary(traffic, axis) {
  const r = traffic?.axes?.find((x) => x.axis === axis);
  if (!r) return '';
  return (
    `${axis}: ${bytes(r.bytes_per_gpu)} per GPU per step over ${r.link_name}, ${seconds(r.time)} per step, ` +
    `${percent(r.hidden_fraction, 0)} hidden behind compute.`
  );
}
