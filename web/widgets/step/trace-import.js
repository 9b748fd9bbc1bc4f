// "Compare with a PyTorch profiler trace": the reader drops (or picks) a Kineto trace, gzipped or not; a Web Worker
// (kineto-worker.js) reads it with a progress bar and classifies one step; the panel shows that step's split beside
// the engine's for the GPU drawn, per stream and per collective. The file stays in the page.
import { asset } from '../../lib/assets.js';
import { h } from '../../lib/dom.js';

const workerUrl = () => asset(new URL('./kineto-worker.js', import.meta.url), 'widgets/step/kineto-worker.js');

/**
 * The panel's words (model/kineto-text.js), loaded with the first file a reader gives: a figure that is never compared
 * with a trace never downloads them (embedded alone, ~0.9 KB gzip of the figure's first bytes). The DOM is built here:
 * a lazy module importing lib/dom.js would split that file out of the chunk every embedded figure shares.
 */
let words = null;
const loadWords = () => {
  const loading = import('./model/kineto-text.js');
  loading.then((m) => (words = m)).catch(() => {});
  return loading;
};

/** The panel; `engineGpu()` returns { g, head } for the GPU the engine's side is read from (or null). */
export function traceImport(engineGpu) {
  let worker = null;
  let id = 0;
  let summary = null;
  const input = h('input', { type: 'file', name: 'trace-file', accept: '.json,.gz,application/json,application/gzip' });
  const progress = h('progress', { max: '1', value: '0', hidden: true, 'aria-label': 'Trace read' });
  const status = h('p', {
    class: 'step-import-status',
    role: 'status',
    'aria-live': 'polite',
    'data-out': 'import-status',
  });
  const pick = h('select', { name: 'trace-step' });
  const pickLabel = h(
    'label',
    { class: 'control', hidden: true },
    h('span', { class: 'label' }, 'Step of the trace'),
    pick,
  );
  const table = h('table', { class: 'step-import-table', 'data-out': 'import-table', hidden: true });
  const details = h('ul', { class: 'step-import-streams', 'data-out': 'import-streams' });
  const element = h(
    'details',
    { class: 'step-import screen-only', 'data-out': 'import' },
    h('summary', {}, 'Compare with a PyTorch profiler trace'),
    h(
      'p',
      {},
      'Drop a trace from torch.profiler (its Chrome trace JSON, gzipped or not) here, or pick the file. It is read ' +
        'in this page, in the background, and sent nowhere. One training step is classified as Holistic Trace ' +
        'Analysis does and set beside the engine’s step for the slowest GPU drawn.',
    ),
    h('label', { class: 'step-drop' }, h('span', {}, 'Trace file'), input),
    progress,
    status,
    pickLabel,
    table,
    details,
  );

  const show = () => {
    if (!summary) return;
    status.textContent = words.summarySentence(summary);
    const steps = summary.steps;
    pickLabel.hidden = steps.length < 2;
    if (pick.options.length !== steps.length) {
      pick.replaceChildren(...steps.map((s, i) => h('option', { value: String(i) }, s.name)));
    }
    pick.value = String(
      Math.max(
        0,
        steps.findIndex((s) => s.name === summary.step?.name),
      ),
    );
    drawTable(table, summary, engineGpu());
    details.replaceChildren(
      ...[...words.streamLines(summary), words.collectiveLine(summary)].map((t) => h('li', {}, t)),
    );
  };
  const onMessage = ({ data }) => {
    if (data.id !== id) return; // an answer for a file since replaced
    if (data.type === 'progress') {
      progress.hidden = false;
      progress.value = data.total > 0 ? data.read / data.total : 0;
      status.textContent = words.progressText(data.read, data.total);
    } else if (data.type === 'error') {
      progress.hidden = true;
      status.textContent = words.importErrorText(data.code);
      status.dataset.code = data.code;
    } else if (data.type === 'done') {
      progress.hidden = true;
      delete status.dataset.code;
      summary = data.summary;
      show();
    }
  };
  const open = async (file) => {
    if (!file) return;
    try {
      await (words ?? loadWords());
    } catch {
      status.textContent = 'The trace reader did not load; reload the page to try again.';
      return;
    }
    try {
      worker ??= new Worker(workerUrl(), { type: 'module' });
    } catch {
      status.textContent = words.importErrorText('no_worker');
      return;
    }
    worker.onmessage = onMessage;
    id += 1;
    summary = null;
    table.hidden = true;
    details.replaceChildren();
    status.textContent = words.progressText(0, file.size);
    worker.postMessage({ type: 'open', id, file });
  };
  input.addEventListener('change', () => open(input.files?.[0]));
  pick.addEventListener('change', () => worker?.postMessage({ type: 'pick', id, pick: Number(pick.value) }));
  element.addEventListener('dragover', (e) => {
    e.preventDefault();
    element.open = true;
  });
  element.addEventListener('drop', (e) => {
    e.preventDefault();
    open(e.dataTransfer?.files?.[0]);
  });
  return {
    element,
    /** The engine's side changed (another step or GPU drawn): the table follows. */
    refresh: show,
    open,
    stop: () => worker?.terminate(),
  };
}

/** The comparison table: the trace's step and the engine's, seconds and shares of each one's own step. */
function drawTable(table, summary, engine) {
  const rows = words.comparisonRows(summary, engine ? words.engineRows(engine.g, engine.head) : null);
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
