// The largest request of every op (tests/worst-cases.mjs): native CLI and wasm (node) time, best of 3, and the wasm
// heap after it in a fresh module (its peak). Targets (engine/API.md): native < 1 s, wasm < 2 s, heap < 64 MiB.
// Last, the heap of the one module that answered them all in turn (allocator fragmentation across big answers).
// Run by npm run bench.
import { spawnSync } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { performance } from 'node:perf_hooks';
import { worstCases } from '../worst-cases.mjs';

const root = new URL('../../', import.meta.url);
const cli = new URL('build/native/parascope', root).pathname;
globalThis.window ??= globalThis;
const { default: create } = await import(new URL('dist/wasm/parascope.mjs', root));
const wasmBinary = await readFile(new URL('dist/wasm/parascope.wasm', root));
const shared = await create({ wasmBinary });

const best = (run) => Math.min(...[0, 1, 2].map(() => { const t = performance.now(); run(); return performance.now() - t; }));
console.log('largest request per op (best of 3; native includes starting the CLI)');
console.log(`  ${'request'.padEnd(62)} ${'native'.padStart(9)} ${'wasm'.padStart(9)} ${'heap'.padStart(9)}`);
for (const { name, request } of worstCases()) {
  const text = JSON.stringify(request);
  const native = best(() => spawnSync(cli, { input: text, maxBuffer: 2 ** 28 }));
  const wasm = best(() => shared.call(text));
  const fresh = await create({ wasmBinary });
  fresh.call(text);
  const heap = fresh.HEAP8.buffer.byteLength / 2 ** 20;
  const flag = native > 1000 || wasm > 2000 || heap >= 64 ? '  over target' : '';
  console.log(`  ${name.padEnd(62)} ${(native / 1000).toFixed(3).padStart(7)} s ${(wasm / 1000).toFixed(3).padStart(7)} s ${heap.toFixed(1).padStart(5)} MiB${flag}`);
}
console.log('  targets: native < 1 s, wasm < 2 s, wasm heap < 64 MiB');
console.log(`  one module after all of them (3 times each): ${(shared.HEAP8.buffer.byteLength / 2 ** 20).toFixed(1)} MiB`);
