// Warms the page's engine off the page's thread: takes the page's compiled WebAssembly.Module, instantiates it here and
// answers one small request of each op the figures ask first. The browser compiles a wasm function the first time it
// runs, into the module's code that every instance of it shares (this worker's and the page's), so the page's first
// calls then find their functions compiled (measured in Chromium: 200-520 ms of first calls on the page's thread down
// to 50-60 ms). The answers are thrown away. Protocol: in the Module; out "warm" once the first figure's ops have run
// (or anything failed), then the worker warms the other figures' ops and closes itself.
import createParascope from '../wasm/parascope.mjs';

const RUN = { model: 'mixtral-8x7b', hardware: 'h100-sxm', cluster: { gpus: 64 }, parallel: { tp: 2, pp: 4, ep: 8, global_batch: 256 } };

/** What the article's first figure (the axes) asks before it draws: the page waits for these. */
const FIRST = [
  { op: 'version' },
  { op: 'presets' },
  { op: 'placement', ...RUN },
  { op: 'traffic', ...RUN },
];

/** Then one small request of each op the other figures ask, in the order they come on the article. */
const LATER = [
  { op: 'moe_route', tokens: 512, experts: 8, top_k: 2, ep: 8, skew: 1, seed: 1, hidden: 4096, hardware: 'h100-sxm', link_kind: 'intra' },
  { op: 'allreduce', algorithm: 'ring', gpus: 4, bytes: 1048576, link: 'h100-sxm', link_kind: 'intra', trace: true },
  { op: 'allreduce', algorithm: 'hierarchical', gpus: 16, bytes: 1048576, link: 'h100-sxm' },
  { op: 'pipeline', schedule: 'gpipe', stages: 4, microbatches: 8, forward_only: true, ops_format: 'binary' },
  { op: 'pipeline', schedule: 'interleaved', stages: 4, microbatches: 8, chunks: 2, ops_format: 'binary' },
  { op: 'step', ...RUN },
  { op: 'mfu', model: 'mixtral-8x7b', hardware: 'h100-sxm', gpus: 64, tokens_per_second: 1e6 },
];

const run = (engine, requests) => {
  for (const request of requests) {
    try {
      engine.call(JSON.stringify(request));
    } catch { /* a refusal or a trap still compiled what it ran */ }
  }
};

globalThis.onmessage = async ({ data: module }) => {
  try {
    const engine = await createParascope({
      instantiateWasm(imports, receive) {
        WebAssembly.instantiate(module, imports).then((instance) => receive(instance), () => globalThis.postMessage('warm'));
        return {};
      },
    });
    run(engine, FIRST);
    globalThis.postMessage('warm');
    run(engine, LATER);
  } catch {  /* nothing to warm: the page's engine reports its own failures */
    globalThis.postMessage('warm');
  }
  globalThis.close();
};
