// The largest request of every op (tests/worst-cases.mjs, from engine/API.md's limits) is answered natively within
// 256 MB of address space and in wasm with the heap under 64 MiB (alone, and one after another in one module), and
// both answer the same text. Timing: npm run bench (worst_* entries of build/bench/report.json).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { worstCases } from '../worst-cases.mjs';

const dist = new URL('../../dist/', import.meta.url);
const cli = new URL('../../build/native/parascope', import.meta.url).pathname;
const MiB = 2 ** 20;

/** A fresh raw Embind module (its heap is what we measure: wasm memory only grows), loaded as the page loads it. */
async function wasmModule(name = 'parascope') {
  globalThis.window ??= globalThis;
  const { default: create } = await import(new URL(`wasm/${name}.mjs`, dist));
  return create({ wasmBinary: await readFile(new URL(`wasm/${name}.wasm`, dist)) });
}

/** The answer text without plan's `elapsed`, the one field that differs between runs. */
const comparable = (text) => text.replace(/"elapsed":[0-9.e+-]+,?/, '');

/** The CLI's answer with its address space held to 256 MB (ulimit -v, KiB): more would fail the allocation. */
function nativeWithin256MB(text) {
  const run = spawnSync('bash', ['-c', 'ulimit -v 262144 && exec "$0"', cli], { input: text, maxBuffer: 256 * MiB });
  return { status: run.status, stdout: run.stdout.toString('utf8').trimEnd(), stderr: run.stderr.toString('utf8') };
}

test('the largest request of every op fits: native in 256 MB, wasm heap under 64 MiB, same answer', async () => {
  for (const { name, request, module: moduleName } of worstCases()) {
    const module = await wasmModule(moduleName); // one per request: the heap after it is that request's peak
    const text = JSON.stringify(request);
    const wasm = module.call(text);
    assert.ok(!wasm.startsWith('{"error"'), `${name}: refused: ${wasm.slice(0, 300)}`);
    const heap = module.HEAP8.buffer.byteLength / MiB;
    assert.ok(heap < 64, `${name}: wasm heap ${heap} MiB`);
    const native = nativeWithin256MB(text);
    assert.equal(
      native.status,
      0,
      `${name}: native exit ${native.status}: ${native.stderr}${native.stdout.slice(0, 300)}`,
    );
    assert.ok(comparable(native.stdout) === comparable(wasm), `${name}: native and wasm answers differ`);
  }
});

test('one wasm module answering the largest request of every op in turn keeps its heap under 64 MiB', async () => {
  // WebAssembly memory never shrinks: what one request leaves taken (a cached program, an attachment) or scatters
  // (fragments too small for the next big answer) adds to the next request's peak. The page's module lives long.
  const module = await wasmModule();
  const heaps = [];
  for (const { name, request } of worstCases().filter((c) => !c.module)) {
    module.call(JSON.stringify(request));
    heaps.push(`${name}: ${module.HEAP8.buffer.byteLength / MiB} MiB`);
  }
  const heap = module.HEAP8.buffer.byteLength / MiB;
  assert.ok(heap < 64, `heap ${heap} MiB after all of them:\n${heaps.join('\n')}`);
});

test('one step past each limit is refused before any work', async () => {
  const module = await wasmModule();
  const refused = (request) => JSON.parse(module.call(JSON.stringify(request))).error?.code;
  for (const { name, request } of worstCases()) {
    const bigger = structuredClone(request);
    if (request.op === 'pipeline') bigger.microbatches += 1;
    else if (request.op === 'moe_route') bigger.tokens += 1;
    else continue;
    assert.ok(['too_large', 'out_of_range'].includes(refused(bigger)), `${name}: one more is not refused`);
  }
});
