// The trace panel's insides and work once a reader opens it (trace-import.js loads this module then): the file picker
// and drop, the Web Worker's progress, refusals and summary shown, and the step it classified set beside the engine's
// in a table and in lines. `h` (lib/dom.js) is handed in: importing lib/dom.js here would split that file out of the
// chunk every embedded figure shares.
import {
  collectiveLine,
  comparisonRows,
  engineRows,
  importErrorText,
  progressText,
  streamLines,
  summarySentence,
} from './model/kineto-text.js';
import { gpuLanes } from './model/lanes.js';
import { stepKey, timelineRequest } from './model/request.js';

/**
 * GPU `g`'s lanes over the whole step of the figure `el` (a zoomed view holds only a window of them): what the
 * comparison sums; null when the engine refuses. The last one asked is kept on the figure (el.whole).
 */
export function wholeGpu(el, g) {
  if (!g || g.window === null) return g;
  const key = `${stepKey(el.state)} ${g.stage}`;
  if (el.whole?.key !== key) {
    try {
      const a = el.engine.call(timelineRequest(el.state, [g.stage]));
      el.whole = { key, g: gpuLanes(a.gpus[0], a.pieces) };
    } catch {
      return null;
    }
  }
  return el.whole.g;
}

/** The engine's side for the figure `figure()` returns (or null): { g: the slowest GPU drawn, whole; head }. */
const engineSide = (el) => (el ? { g: wholeGpu(el, el.slowestShown()), head: el.store.head } : null);

/**
 * Fills the closed panel `element` (a <details> holding its summary) with the picker, progress bar, status, the
 * trace's step choice, table and lines; `figure()` returns the step figure while it draws a step (else null),
 * `workerUrl()` the worker's URL (kineto-worker.js, named where the build rewrites it). Returns { open(file), refresh,
 * stop }.
 */
export function tracePanel(h, element, figure, workerUrl) {
  let worker = null;
  let id = 0;
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
  element.append(
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
  const compare = comparePanel(h, { status, progress, pick, pickLabel, table, details }, () => engineSide(figure()));
  const open = (file) => {
    if (!file) return;
    try {
      worker ??= new Worker(workerUrl(), { type: 'module' });
    } catch {
      compare.noWorker();
      return;
    }
    id += 1;
    const asked = id;
    worker.onmessage = ({ data }) => data.id === asked && compare.message(data); // not an answer for a file since replaced
    compare.start(file);
    worker.postMessage({ type: 'open', id, file });
  };
  input.addEventListener('change', () => open(input.files?.[0]));
  pick.addEventListener('change', () => worker?.postMessage({ type: 'pick', id, pick: Number(pick.value) }));
  return { open, refresh: compare.show, stop: () => worker?.terminate() };
}

/**
 * The panel's behaviour over its elements `parts` ({ status, progress, pick, pickLabel, table, details }); `engineGpu()`
 * returns { g, head } for the GPU the engine's side is read from (or null). Returns { start, message, show, noWorker }.
 */
export function comparePanel(h, parts, engineGpu) {
  const { status, progress, pick, pickLabel, table, details } = parts;
  let summary = null;
  const show = () => {
    if (!summary) return;
    status.textContent = summarySentence(summary);
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
    drawTable(h, table, summary, engineGpu());
    details.replaceChildren(...[...streamLines(summary), collectiveLine(summary)].map((t) => h('li', {}, t)));
  };
  /** A new file: what the last one showed goes. */
  const start = (file) => {
    summary = null;
    table.hidden = true;
    details.replaceChildren();
    status.textContent = progressText(0, file.size);
  };
  /** One message of the worker about the file being read. */
  const message = (data) => {
    if (data.type === 'progress') {
      progress.hidden = false;
      progress.value = data.total > 0 ? data.read / data.total : 0;
      status.textContent = progressText(data.read, data.total);
    } else if (data.type === 'error') {
      progress.hidden = true;
      status.textContent = importErrorText(data.code);
      status.dataset.code = data.code;
    } else if (data.type === 'done') {
      progress.hidden = true;
      delete status.dataset.code;
      summary = data.summary;
      show();
    }
  };
  /** Why no file can be read here: this browser makes no Web Worker. */
  const noWorker = () => {
    status.textContent = importErrorText('no_worker');
  };
  return { start, message, show, noWorker };
}

/** The comparison table: the trace's step and the engine's, seconds and shares of each one's own step. */
function drawTable(h, table, summary, engine) {
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
