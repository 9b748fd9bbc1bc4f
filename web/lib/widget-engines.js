// Each widget's own engine, for a page that shows one widget alone (embed.html): a wasm module answering only the ops
// that widget asks, linked by CMakeLists.txt (PARASCOPE_WASM_MODULES, PARASCOPE_WASM_OPS_<module>). The article and
// the guide run every widget and keep the figures' engine (wasm/parascope.wasm); tests/js/widget-engines.test.mjs
// checks that each module here answers every op its widget's code asks.
import { FIGURES } from '../widgets/index.js';
import { asset } from './assets.js';
import { plannerWasmUrl, useModule } from './engine.js';

/** module name -> [its wasm's URL, its glue's import()] (literal URLs and imports, for the bundler). */
const MODULES = {
  'parascope-ring-engine': [
    () => asset(new URL('../wasm/parascope-ring-engine.wasm', import.meta.url), 'wasm/parascope-ring-engine.wasm'),
    () => import('../wasm/parascope-ring-engine.mjs'),
  ],
  'parascope-bubble-engine': [
    () => asset(new URL('../wasm/parascope-bubble-engine.wasm', import.meta.url), 'wasm/parascope-bubble-engine.wasm'),
    () => import('../wasm/parascope-bubble-engine.mjs'),
  ],
  'parascope-axes-engine': [
    () => asset(new URL('../wasm/parascope-axes-engine.wasm', import.meta.url), 'wasm/parascope-axes-engine.wasm'),
    () => import('../wasm/parascope-axes-engine.mjs'),
  ],
  'parascope-planner': [plannerWasmUrl, () => import('../wasm/parascope-planner.mjs')],
  'parascope-step-engine': [
    () => asset(new URL('../wasm/parascope-step-engine.wasm', import.meta.url), 'wasm/parascope-step-engine.wasm'),
    () => import('../wasm/parascope-step-engine.mjs'),
  ],
  'parascope-memory-engine': [
    () => asset(new URL('../wasm/parascope-memory-engine.wasm', import.meta.url), 'wasm/parascope-memory-engine.wasm'),
    () => import('../wasm/parascope-memory-engine.mjs'),
  ],
  'parascope-timeline-engine': [
    () =>
      asset(new URL('../wasm/parascope-timeline-engine.wasm', import.meta.url), 'wasm/parascope-timeline-engine.wasm'),
    () => import('../wasm/parascope-timeline-engine.mjs'),
  ],
  'parascope-context-engine': [
    () =>
      asset(new URL('../wasm/parascope-context-engine.wasm', import.meta.url), 'wasm/parascope-context-engine.wasm'),
    () => import('../wasm/parascope-context-engine.mjs'),
  ],
  'parascope-run-engine': [
    () => asset(new URL('../wasm/parascope-run-engine.wasm', import.meta.url), 'wasm/parascope-run-engine.wasm'),
    () => import('../wasm/parascope-run-engine.mjs'),
  ],
  'parascope-nccl-engine': [
    () => asset(new URL('../wasm/parascope-nccl-engine.wasm', import.meta.url), 'wasm/parascope-nccl-engine.wasm'),
    () => import('../wasm/parascope-nccl-engine.mjs'),
  ],
  'parascope-track-engine': [
    () => asset(new URL('../wasm/parascope-track-engine.wasm', import.meta.url), 'wasm/parascope-track-engine.wasm'),
    () => import('../wasm/parascope-track-engine.mjs'),
  ],
};

/** tag -> [its module's name, its wasm's URL, its glue's import()], for each figure of widgets/index.js. */
export const WIDGET_ENGINES = Object.fromEntries(FIGURES.map(({ tag, engine }) => [tag, [engine, ...MODULES[engine]]]));

/** Makes the page's engine (loadEngine) the one of widget `tag` and starts downloading it; false for an unknown tag. */
export function useWidgetEngine(tag) {
  const engine = WIDGET_ENGINES[tag];
  if (!engine) return false;
  const [name, wasmUrl, importGlue] = engine;
  useModule(name, wasmUrl(), importGlue);
  return true;
}
