// "Compare with a PyTorch profiler trace": the reader drops (or picks) a Kineto trace, gzipped or not; a Web Worker
// (kineto-worker.js) reads it with a progress bar and classifies one step; the panel shows that step's split beside
// the engine's for the GPU drawn, per stream and per collective. The file stays in the page. Here: the closed panel
// only; what it holds and does is trace-compare.js, loaded when it is opened or a file is dragged onto it.
import { asset } from '../../lib/assets.js';
import { h } from '../../lib/dom.js';

const workerUrl = () => asset(new URL('./kineto-worker.js', import.meta.url), 'widgets/step/kineto-worker.js');

/**
 * The panel's insides and work (trace-compare.js, with its words, model/kineto-text.js), loaded on first opening: a
 * figure that is never compared with a trace never downloads them (embedded alone, the words ~0.9 KB gzip, the rest
 * ~0.8 of the figure's first bytes). Named by URL, it is one self-contained file in the build (scripts/bundle.mjs): an
 * import() of it shared lib/format.js with the figure's own embed bundle, which esbuild then split into a third file
 * the figure loaded first. `h` is handed to it.
 */
const compareUrl = () => asset(new URL('./trace-compare.js', import.meta.url), 'widgets/step/trace-compare.js');
const loadCompare = () => import(/* webpackIgnore: true */ /* @vite-ignore */ compareUrl().href);

/** The panel; `figure()` returns the step figure (element.js) while it draws a step, else null. */
export function traceImport(figure) {
  const element = h(
    'details',
    { class: 'step-import screen-only', 'data-out': 'import' },
    h('summary', {}, 'Compare with a PyTorch profiler trace'),
  );
  let panel = null; // trace-compare.js's, once opened
  let loading = null;
  const load = () =>
    (loading ??= loadCompare().then(
      (code) => (panel = code.tracePanel(h, element, figure, workerUrl)),
      () => {
        loading = null;
        element.append(h('p', { class: 'step-import-status' }, 'The trace reader did not load; reload the page.'));
      },
    ));
  const open = (file) => load().then(() => panel?.open(file));
  element.addEventListener('toggle', () => element.open && load());
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
    refresh: () => panel?.refresh(),
    open,
    stop: () => panel?.stop(),
  };
}
