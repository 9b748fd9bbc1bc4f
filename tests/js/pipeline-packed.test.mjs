// The widget's decoder for packed op lists gives back exactly the engine's ops (compared with the object format).
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { nodeEngine } from './node-engine.mjs';

const { unpackOps } = await import(new URL('../../dist/lib/packed-ops.js', import.meta.url));
const engine = await nodeEngine();

const REQUESTS = [
  { schedule: 'interleaved', stages: 4, microbatches: 8, chunks: 3 },
  { schedule: 'dualpipe', stages: 4, microbatches: 8, times: { f: 1.5, b: 0.7, w: 0.3, comm: 0.1 } },
  { schedule: 'zb-h2', stages: 3, microbatches: 7, times: { f: 1, b: 1, w: 0 } },
  { schedule: 'gpipe', stages: 5, microbatches: 3, forward_only: true, times: { f: 0.1 } },
];

for (const request of REQUESTS) {
  test(`unpackOps restores every op of ${request.schedule}`, () => {
    const objects = engine.call({ op: 'pipeline', ...request }).ops;
    const packed = engine.call({ op: 'pipeline', ...request, ops_format: 'packed' });
    const ops = unpackOps(packed);
    assert.equal(ops.kind.length, objects.length);
    let i = 0;
    packed.ops.per_stage.forEach((n, stage) => {
      for (const last = i + n; i < last; i += 1) {
        const o = objects[i];
        assert.deepEqual(
          [stage, ops.microbatch[i], ops.kind[i], ops.chunk[i], ops.start[i], ops.end[i]],
          [o.stage, o.microbatch, o.kind, o.chunk, o.start, o.end],
          `op ${i}`,
        );
      }
    });
  });
}
