// The page's side of the planner worker (widgets/planner/worker.js): start a search, hear its progress and answer, cancel
// it. A new search cancels the running one; the worker is created on first use and ended by close().
import { asset } from '../../lib/assets.js';
import { plannerWasmUrl } from '../../lib/engine.js';
import { afterMessage, started } from './model/protocol.js';

/**
 * The worker's script (scripts/bundle.mjs points it at one self-contained file, which bundlers copy as it is): it is
 * posted the planner's wasm URL, resolved here where bundlers rewrite it (plannerWasmUrl), not beside the copy.
 */
const workerUrl = () => asset(new URL('./worker.js', import.meta.url), 'widgets/planner/worker.js');

/** onUpdate(state) after every message of the newest search (model/protocol.js's state). */
export function plannerClient(onUpdate) {
  let worker = null;
  let state = null;
  let nextId = 1;
  const fail = (message) => {
    if (!state || state.phase !== 'searching') return;
    state = { ...state, phase: 'error', error: { code: 'worker_error', message, field: null } };
    onUpdate(state);
  };
  const ensure = () => {
    if (worker) return worker;
    worker = new Worker(workerUrl(), { type: 'module' });
    worker.addEventListener('message', ({ data }) => {
      const next = state && afterMessage(state, data);
      if (!next) return;
      state = next;
      onUpdate(state);
    });
    worker.addEventListener('error', (event) => {
      event.preventDefault?.();
      fail(`the search could not run (${event.message || 'its worker script did not load'})`);
      worker?.terminate();
      worker = null; // the next search tries a new worker
    });
    worker.addEventListener('messageerror', () => fail("the worker's answer could not be read"));
    return worker;
  };
  return {
    /** Starts a search for `request`, cancelling the running one. */
    search(request) {
      state = started(nextId, request);
      nextId += 1;
      try {
        ensure().postMessage({ type: 'plan', id: state.id, request, wasm: plannerWasmUrl().href });
      } catch (err) {
        fail(`the search could not start (${err.message})`);
        return;
      }
      onUpdate(state);
    },
    cancel() {
      if (state?.phase === 'searching') state = { ...state, phase: 'cancelled' };
      worker?.postMessage({ type: 'cancel' });
    },
    close() {
      worker?.terminate();
      worker = null;
      state = null;
    },
    get state() {
      return state;
    },
  };
}
