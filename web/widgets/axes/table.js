// Paints the per-axis traffic table of <parascope-axes> from model/traffic-rows.js (figures per training step).
import { h } from '../../lib/dom.js';
import { COLUMNS } from './model/traffic-rows.js';

/** The table for `rows` (trafficRows()), every row kept so the height does not change with the tab. */
export function trafficTable(rows) {
  const body = rows.map((r) =>
    h(
      'tr',
      { 'data-axis': r.axis, class: r.selected ? 'selected' : null, 'aria-current': r.selected ? 'true' : null },
      h('th', { scope: 'row' }, r.axis),
      r.cells.map((c) =>
        h(
          'td',
          {
            'data-field': c.field,
            'data-label': c.label,
            'data-value': c.value === null || c.value === undefined ? null : String(c.value),
          },
          c.text,
        ),
      ),
    ),
  );
  return h(
    'div',
    { class: 'axes-table-wrap', tabindex: 0, role: 'region', 'aria-label': 'traffic per axis, per training step' },
    h(
      'table',
      { class: 'axes-table' },
      h(
        'caption',
        { class: 'axes-table-caption' },
        'What each axis adds to one training step (all microbatches, all layers)',
      ),
      h(
        'thead',
        {},
        h(
          'tr',
          {},
          h('th', { scope: 'col' }, 'axis'),
          COLUMNS.map((c) => h('th', { scope: 'col' }, c.label)),
        ),
      ),
      h('tbody', {}, body),
    ),
  );
}
