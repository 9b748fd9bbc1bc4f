// "Compare with a PyTorch profiler trace": the reader drops (or picks) a Kineto trace, gzipped or not; a Web Worker
// (kineto-worker.js) reads it with a progress bar and classifies one step; the panel shows that step's split beside
// the engine's for the GPU drawn, per stream and per collective. The file stays in the page.
import { asset } from '../../lib/assets.js';
import { h } from '../../lib/dom.js';

const workerUrl = () => asset(new URL('./kineto-worker.js', import.meta.url), 'widgets/step/kineto-worker.js');

/**
 * What the panel does once a reader gives a file (trace-compare.js, with its words, model/kineto-text.js), loaded then:
 * a figure that is never compared with a trace never downloads it (embedded alone, the words ~0.9 KB gzip and the rest
 * 0.4 of the figure's first bytes). Named by URL, it is one self-contained file in the build (scripts/bundle.mjs): an
 * import() of it shared lib/format.js with the figure's own embed bundle, which esbuild then split into a third file
 * the figure loaded first. The DOM is built here and that module is handed `h`.
 */
const compareUrl = () => asset(new URL('./trace-compare.js', import.meta.url), 'widgets/step/trace-compare.js');
const loadCompare = () => import(/* webpackIgnore: true */ /* @vite-ignore */ compareUrl().href);

/** The panel; `engineGpu()` returns { g, head } for the GPU the engine's side is read from (or null). */
export function traceImport(engineGpu) {
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

  const parts = { status, progress, pick, pickLabel, table, details };
  let compare = null; // trace-compare.js's panel, from the first file on
  const open = async (file) => {
    if (!file) return;
    try {
      compare ??= (await loadCompare()).comparePanel(h, parts, engineGpu);
    } catch {
      status.textContent = 'The trace reader did not load; reload the page to try again.';
      return;
    }
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
    refresh: () => compare?.show(),
    open,
    stop: () => worker?.terminate(),
  };
}
