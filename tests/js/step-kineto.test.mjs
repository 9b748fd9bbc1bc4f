// The step figure's trace import (web/widgets/step/model/kineto.js, model/kineto-text.js) on our own small Kineto
// traces (tests/fixtures/kineto/README.md: every number below worked out by hand there): kernels classified by name,
// each kernel in the step its launch falls in, the step's GPU time split as HTA splits it, the gzipped copy read alike,
// and the engine's side of the comparison summing to its step time.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { gunzipSync } from 'node:zlib';

import { nodeEngine } from './node-engine.mjs';
import { kernelKind, length, overlap, traceStep, union } from '../../web/widgets/step/model/kineto.js';
import {
  comparisonRows,
  engineRows,
  importErrorText,
  summarySentence,
} from '../../web/widgets/step/model/kineto-text.js';
import { gpuLanes } from '../../web/widgets/step/model/lanes.js';

const fixture = (name) => readFileSync(new URL(`../fixtures/kineto/${name}`, import.meta.url));
const trace = JSON.parse(fixture('two-steps.json'));
const close = (a, b) => Math.abs(a - b) < 1e-12;
const us = (x) => x / 1e6;

test('kernels are classified by their names and categories', () => {
  const kinds = [
    ['sm80_xmma_gemm_f16f16_f16f32_f32_nn_n_tilesize128x128x32', 'kernel', 'gemm'],
    ['void cutlass::Kernel<cutlass_80_tensorop_s1688gemm_64x64_32x6_tn_align4>(Params)', 'kernel', 'gemm'],
    ['nvjet_tst_128x256_64x4_2x1_v_bz_coopA_TNT', 'kernel', 'gemm'],
    ['flash_fwd_kernel<Flash_fwd_kernel_traits<128, 128, 64, 4>>', 'kernel', 'attention'],
    ['void at::native::vectorized_elementwise_kernel<4, at::native::GeluFunctor<float>>', 'kernel', 'elementwise'],
    ['void cub::DeviceScanKernel<int>', 'kernel', 'other'],
    ['Memcpy DtoH (Device -> Pinned)', 'gpu_memcpy', 'memcpy'],
    ['Memset (Device)', 'gpu_memset', 'memcpy'],
  ];
  for (const [name, cat, kind] of kinds) assert.equal(kernelKind(name, cat).kind, kind, name);
  assert.deepEqual(kernelKind('ncclDevKernel_AllGather_RING_LL(ncclDevKernelArgsStorage<4096ul>)', 'kernel'), {
    kind: 'nccl',
    collective: 'AllGather',
  });
  assert.deepEqual(
    kernelKind('ncclKernel_ReduceScatter_RING_LL_Sum_bf16(ncclDevComm*)', 'kernel').collective,
    'ReduceScatter',
  );
  assert.equal(kernelKind('aten::mm', 'cpu_op'), null);
});

test('interval sums: union, length and overlap', () => {
  const a = union([
    [3, 5],
    [0, 2],
    [1, 4],
  ]);
  assert.deepEqual(a, [[0, 5]]);
  const b = union([
    [4, 6],
    [7, 8],
  ]);
  assert.equal(length(b), 3);
  assert.equal(overlap(a, b), 1);
});

test("step 2: HTA's split, worked out by hand in the fixture's README", () => {
  const s = traceStep(trace);
  assert.equal(s.step.name, 'ProfilerStep#2', 'the last step by default');
  assert.deepEqual([s.rank, s.world_size, s.kernels], [3, 8, 6]);
  assert.ok(close(s.span, us(650)));
  const b = s.breakdown;
  for (const [key, want] of Object.entries({ compute: 350, overlapped: 100, exposed: 240, memcpy: 10, idle: 50 }))
    assert.ok(close(b[key], us(want)), `${key}: ${b[key]}`);
  assert.ok(close(b.compute + b.exposed + b.memcpy + b.idle, s.span));
  assert.deepEqual(
    s.streams.map((st) => [st.stream, st.count]),
    [
      [7, 4],
      [20, 1],
      [21, 1],
    ],
  );
  assert.ok(close(s.collectives.AllReduce, us(300)));
  assert.ok(close(s.collectives.SendRecv, us(40)));
  assert.match(summarySentence(s), /^ProfilerStep#2 of rank 3 \(of 8\): 6 GPU kernels and copies over 650 µs/);
});

test('step 1: a kernel belongs to the step its launch falls in, even when it runs after the step ends', () => {
  const s = traceStep(trace, 0);
  assert.equal(s.step.name, 'ProfilerStep#1');
  assert.equal(s.kernels, 2);
  assert.ok(close(s.span, us(980)));
  assert.ok(close(s.breakdown.compute, us(130)));
  assert.ok(close(s.breakdown.idle, us(850)));
});

test('the gzipped copy holds the same trace; traces without steps or kernels are refused with a code', () => {
  assert.deepEqual(JSON.parse(gunzipSync(fixture('two-steps.json.gz'))), trace);
  const whole = traceStep({ traceEvents: trace.traceEvents.filter((e) => !e.name.startsWith('ProfilerStep')) });
  assert.equal(whole.step, null);
  assert.equal(whole.kernels, 8, 'no markers: every GPU event of the trace');
  assert.throws(() => traceStep({}), { code: 'no_events' });
  assert.throws(() => traceStep({ traceEvents: [] }), { code: 'no_gpu_events' });
  assert.match(importErrorText('not_json'), /not a JSON trace/);
});

test("the engine's side: its rows sum to its step time, each read from its answer", async () => {
  const engine = await nodeEngine();
  const a = engine.call({
    op: 'timeline',
    model: 'gpt3-175b',
    hardware: 'a100-80gb',
    cluster: { gpus: 128 },
    parallel: { tp: 8, pp: 8, global_batch: 64 },
    format: 'columns',
    stages: [7],
  });
  const g = gpuLanes(a.gpus[0], a.pieces);
  const r = engineRows(g, a);
  assert.ok(Math.abs(r.compute + r.exposed + r.idle - a.step_time) < 1e-9 * a.step_time);
  assert.ok(r.overlapped > 0, 'the DP reduction hides under the last backward passes');
  assert.equal(r.memcpy, null);
  const rows = comparisonRows(traceStep(trace), r);
  assert.deepEqual(
    rows.map((x) => x.key),
    ['compute', 'exposed', 'overlapped', 'memcpy', 'idle'],
  );
  assert.equal(rows[3].engine, null);
  assert.equal(rows[0].trace.share, '53.8 %');
});
