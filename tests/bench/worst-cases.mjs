// The largest request of every op (tests/worst-cases.mjs): native CLI and wasm (node) time, best of 3, and the wasm
// heap after it in a fresh module (its peak). Targets (engine/API.md): native < 1 s, wasm < 2 s, heap < 64 MiB.
// Last, the heap of the one module that answered them all in turn (allocator fragmentation across big answers; plan's
// requests go to the planner's module, parascope-planner).
// Run by npm run bench, after run-web.mjs: adds its figures to build/bench/report.json as named entries
// (worst_<request>_native_ms, worst_<request>_wasm_ms, worst_shared_heap_mib) with their budgets.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { performance } from 'node:perf_hooks';
import { worstCases } from '../worst-cases.mjs';

const root = new URL('../../', import.meta.url);
const cli = new URL('build/native/parascope', root).pathname;
const REPORT = new URL('build/bench/report.json', root);
globalThis.window ??= globalThis;
const { default: create } = await import(new URL('dist/wasm/parascope.mjs', root));
const wasmBinary = await readFile(new URL('dist/wasm/parascope.wasm', root));
const shared = await create({ wasmBinary });
const { default: createPlanner } = await import(new URL('dist/wasm/parascope-planner.mjs', root));
const plannerBinary = await readFile(new URL('dist/wasm/parascope-planner.wasm', root));
const planner = await createPlanner({ wasmBinary: plannerBinary });

/** A report key from a request's name: "pipeline zb-h1, packed" → "pipeline_zb_h1_packed". */
const slug = (name) => name.toLowerCase().replace(/[^a-z0-9]+/g, '_').replace(/^_|_$/g, '');
const figures = {};
const figure = (key, value, unit, budget) => { figures[key] = { value: Number(value.toPrecision(4)), unit, budget }; };

const best = (run) => Math.min(...[0, 1, 2].map(() => { const t = performance.now(); run(); return performance.now() - t; }));
console.log('largest request per op (best of 3; native includes starting the CLI)');
console.log(`  ${'request'.padEnd(62)} ${'native'.padStart(9)} ${'wasm'.padStart(9)} ${'heap'.padStart(9)}`);
for (const { name, request, module } of worstCases()) {
  const text = JSON.stringify(request);
  const native = best(() => spawnSync(cli, { input: text, maxBuffer: 2 ** 28 }));
  const wasm = best(() => (module ? planner : shared).call(text));  // the planner's module for plan
  const fresh = module ? await createPlanner({ wasmBinary: plannerBinary }) : await create({ wasmBinary });
  fresh.call(text);
  const heap = fresh.HEAP8.buffer.byteLength / 2 ** 20;
  const flag = native > 1000 || wasm > 2000 || heap >= 64 ? '  over target' : '';
  console.log(`  ${name.padEnd(62)} ${(native / 1000).toFixed(3).padStart(7)} s ${(wasm / 1000).toFixed(3).padStart(7)} s ${heap.toFixed(1).padStart(5)} MiB${flag}`);
  figure(`worst_${slug(name)}_native_ms`, native, 'ms', 1000);
  figure(`worst_${slug(name)}_wasm_ms`, wasm, 'ms', 2000);
}
const sharedHeap = shared.HEAP8.buffer.byteLength / 2 ** 20;
figure('worst_shared_heap_mib', sharedHeap, 'MiB', 64);
console.log('  targets: native < 1 s, wasm < 2 s, wasm heap < 64 MiB');
console.log(`  one module after all of them (3 times each): ${sharedHeap.toFixed(1)} MiB`);

const report = existsSync(REPORT) ? JSON.parse(readFileSync(REPORT, 'utf8')) : {};
mkdirSync(new URL('.', REPORT), { recursive: true });
writeFileSync(REPORT, `${JSON.stringify({ ...report, ...figures }, null, 2)}\n`);
const missed = Object.entries(figures).filter(([, f]) => f.value > f.budget).map(([k]) => k);
console.log(`  ${Object.keys(figures).length} figures added to build/bench/report.json; ${missed.length ? `MISSED: ${missed.join(', ')}` : 'all within budget'}`);
