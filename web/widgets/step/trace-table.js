// The trace panel's words and comparison table (trace-import.js loads this with the first file a reader gives): the
// measured step beside the engine's, in model/kineto-text.js's rows and sentences.
import { h } from '../../lib/dom.js';
import { comparisonRows, engineRows } from './model/kineto-text.js';

export { collectiveLine, importErrorText, progressText, streamLines, summarySentence } from './model/kineto-text.js';

/** The comparison table: the trace's step and the engine's, seconds and shares of each one's own step. */
export function drawTable(table, summary, engine) {
  const rows = comparisonRows(summary, engine ? engineRows(engine.g, engine.head) : null);
  const cell = (c, key, side) =>
    h(
      'td',
      { class: 'num', 'data-out': `import-${side}-${key}`, 'data-value': c ? String(c.s) : null },
      c ? `${c.text} (${c.share})` : '—',
    );
  table.replaceChildren(
    h(
      'thead',
      {},
      h(
        'tr',
        {},
        h('th', { scope: 'col' }, ''),
        h('th', { scope: 'col' }, 'your trace'),
        h('th', { scope: 'col' }, engine ? `engine, GPU ${engine.g.gpu}` : 'engine'),
      ),
    ),
    h(
      'tbody',
      {},
      rows.map((r) =>
        h(
          'tr',
          { 'data-row': r.key },
          h('th', { scope: 'row' }, r.label),
          cell(r.trace, r.key, 'trace'),
          cell(r.engine, r.key, 'engine'),
        ),
      ),
    ),
  );
  table.hidden = false;
}
