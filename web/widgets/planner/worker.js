// The planner's search, off the page's thread: a module worker with the planner's engine (loadPlannerEngine: its own
// wasm, the only one with the plan op). It searches in chunks
// (engine.planSearch(request).advance(n)) and posts progress between them; a newer "plan" or a "cancel" message stops
// the running search at the next chunk. Protocol (widgets/planner/model/protocol.js): in { type: "plan", id, request,
// wasm: the planner wasm's URL as the page resolved it } |
// { type: "cancel" }; out { type: "progress", id, evaluated, total } | { type: "done", id, answer } |
// { type: "error", id, error: { code, message, field } }.
import { loadPlannerEngine } from '../../lib/engine.js';
import { CHUNK_MS, nextChunk } from './model/protocol.js';

let running = 0; // the id of the search that may go on; any other id stops at its next chunk

const post = (message) => globalThis.postMessage(message);
const breathe = () =>
  new Promise((resolve) => {
    setTimeout(resolve, 0);
  });
const errorOf = (err) => ({
  code: err.code ?? 'worker_error',
  message: err.message ?? String(err),
  field: err.field ?? null,
});

async function plan(id, request, wasm) {
  running = id;
  let engine;
  try {
    engine = await loadPlannerEngine({}, wasm ?? null);
  } catch (err) {
    post({
      type: 'error',
      id,
      error: {
        code: 'engine_load_failed',
        message: `the engine did not load in the worker (${err.message})`,
        field: null,
      },
    });
    return;
  }
  if (running !== id) return;
  if (typeof engine.planSearch !== 'function') {
    // an engine without the chunked search: one call
    try {
      post({ type: 'done', id, answer: engine.call(request) });
    } catch (err) {
      post({ type: 'error', id, error: errorOf(err) });
    }
    return;
  }
  let search = null;
  try {
    search = engine.planSearch(request);
    let chunk = 2000;
    for (;;) {
      const started = performance.now();
      const p = search.advance(chunk);
      if (p.done) {
        post({ type: 'done', id, answer: search.result() });
        return;
      }
      post({ type: 'progress', id, evaluated: p.evaluated, total: p.total });
      chunk = nextChunk(chunk, performance.now() - started, CHUNK_MS);
      await breathe(); // lets a newer message in
      if (running !== id) return;
    }
  } catch (err) {
    post({ type: 'error', id, error: errorOf(err) });
  } finally {
    search?.dispose();
  }
}

globalThis.addEventListener('message', ({ data }) => {
  if (data?.type === 'plan') plan(data.id, data.request, data.wasm);
  else if (data?.type === 'cancel') running = 0;
});
