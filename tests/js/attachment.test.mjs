// The wasm fast path: callWithAttachment copies out exactly the ops the JSON form lists, and the widget's decoder
// turns them into the columns the Gantt draws.
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { nodeEngine } from './node-engine.mjs';

const engine = await nodeEngine();
const { opsFromAttachment } = await import(new URL('../../dist/lib/packed-ops.js', import.meta.url));

for (const schedule of ['1f1b', 'interleaved', 'zb-h2', 'dualpipe']) {
  test(`binary ops of ${schedule} equal the object form op for op`, () => {
    const request = { op: 'pipeline', schedule, stages: 4, microbatches: 8, ...(schedule === 'interleaved' ? { chunks: 2 } : {}) };
    const objects = engine.call(request).ops;
    const { response, attachment } = engine.callWithAttachment({ ...request, ops_format: 'binary' });
    assert.ok(attachment instanceof Float64Array);
    const ops = opsFromAttachment(response, attachment);
    assert.equal(ops.kind.length, objects.length);
    objects.forEach((op, i) => {
      assert.deepEqual([ops.microbatch[i], ops.kind[i], ops.chunk[i], ops.start[i], ops.end[i]],
        [op.microbatch, op.kind, op.chunk, op.start, op.end], `op ${i}`);
    });
  });
}

test('the attachment is a copy: a later call does not change it', () => {
  const { attachment } = engine.callWithAttachment({ op: 'pipeline', schedule: 'gpipe', stages: 2, microbatches: 2,
    ops_format: 'binary' });
  const before = Array.from(attachment);
  engine.call({ op: 'pipeline', schedule: 'gpipe', stages: 8, microbatches: 64, ops_format: 'binary' });
  assert.deepEqual(Array.from(attachment), before);
});
