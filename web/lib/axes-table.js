// The per-axis table of <parascope-axes>: what each split fixes, what traffic it adds, and what that costs per step.
import { h } from './dom.js';
import { bytes, percent, seconds } from './format.js';

/** Why each axis exists, in our words (prose only; every figure in the table comes from the engine). */
export const FIXES = {
  data: 'one GPU is too slow: replicas share the batch',
  tensor: "a layer's matrices are too big: each GPU holds a slice of every matrix",
  pipeline: 'the stack of layers is too deep: each GPU holds a run of layers',
  expert: 'the experts do not fit: each GPU holds a few of them',
  context: "a long sequence's activations do not fit: each GPU holds a slice of it",
};

const HEAD = ['axis', 'fixes', 'splits', 'adds', 'per step', 'bytes / GPU / step', 'link', 'time / step', 'hidden'];

const LABEL = { fixes: 'fixes', splits: 'splits', collective: 'adds', count: 'per step', bytes_per_gpu: 'bytes / GPU',
  link: 'link', time: 'time / step', hidden_fraction: 'hidden' };

function cell(field, value, text) {
  return h('td', { 'data-field': field, 'data-label': LABEL[field], 'data-value': value === undefined ? null : String(value) },
    text);
}

/** Builds the table body rows for `rows` (entries of the engine's traffic.axes), marking `selected`. */
export function trafficTable(rows, selected) {
  const body = rows.map((r) =>
    h('tr', { 'data-axis': r.axis, class: selected === r.axis ? 'selected' : null },
      h('th', { scope: 'row' }, r.axis),
      cell('fixes', undefined, FIXES[r.axis] ?? ''),
      cell('splits', r.splits, r.splits),
      cell('collective', r.collective, r.collective),
      cell('count', r.count, `${Number(r.count.toPrecision(4))}×`),
      cell('bytes_per_gpu', r.bytes_per_gpu, bytes(r.bytes_per_gpu)),
      cell('link', r.link, `${r.link_name ?? ''} (${r.link === 'inter' ? 'across nodes' : 'inside a node'})`),
      cell('time', r.time, seconds(r.time)),
      cell('hidden_fraction', r.hidden_fraction, percent(r.hidden_fraction, 0))));
  return h('div', { class: 'axes-table-wrap', tabindex: 0, role: 'region', 'aria-label': 'traffic per axis' },
    h('table', { class: 'axes-table' },
      h('thead', {}, h('tr', {}, HEAD.map((t) => h('th', { scope: 'col' }, t)))),
      h('tbody', {}, body)));
}
