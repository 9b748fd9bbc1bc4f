// The step figure's trace reader (web/widgets/step/model/kineto-stream.js, the module its worker runs) on one Kineto
// file in this node process, alone, timed and with its memory sampled every ~20 ms: V8's heap in use (heapUsed) and
// what it holds outside the heap (external, arrayBuffers), and the process's resident size. `--whole` reads the file
// the old way instead (the text whole, then JSON.parse), for comparison. Prints one JSON line. Used by
// tests/bench/step-trace.bench.mjs; alone: `node --expose-gc tests/bench/kineto-memory.mjs FILE [--whole]`.
import { openAsBlob } from 'node:fs';
import { readFile } from 'node:fs/promises';

import { collectedStep, traceStep } from '../../web/widgets/step/model/kineto.js';
import { collectTrace } from '../../web/widgets/step/model/kineto-stream.js';

const [file, how] = process.argv.slice(2);
globalThis.gc?.();
const base = process.memoryUsage();
const peak = { heap: 0, outside: 0, rss: 0 };
const sample = () => {
  const m = process.memoryUsage();
  peak.heap = Math.max(peak.heap, m.heapUsed - base.heapUsed);
  peak.outside = Math.max(peak.outside, m.external + m.arrayBuffers - base.external - base.arrayBuffers);
  peak.rss = Math.max(peak.rss, m.rss - base.rss);
};
let last = 0;
const sampled = new TransformStream({
  transform(chunk, controller) {
    const now = performance.now();
    if (now - last > 20) {
      last = now;
      sample();
    }
    controller.enqueue(chunk);
  },
});
const t0 = performance.now();
let summary;
if (how === '--whole') {
  const text = await readFile(file, 'utf8');
  sample();
  summary = traceStep(JSON.parse(text));
  sample();
} else {
  const blob = await openAsBlob(file);
  const collected = await collectTrace(blob.stream().pipeThrough(sampled).pipeThrough(new TextDecoderStream()));
  summary = collectedStep(collected);
}
sample();
const ms = performance.now() - t0;
const mb = (b) => Math.round(b / 1e5) / 10;
console.log(
  JSON.stringify({
    ms: Math.round(ms),
    peak_heap_mb: mb(peak.heap),
    peak_outside_heap_mb: mb(peak.outside),
    peak_rss_mb: mb(peak.rss),
    kernels: summary.kernels,
    step: summary.step?.name ?? null,
  }),
);
