// The wasm fast path: callWithAttachment copies out exactly the ops the JSON form lists, and the widget's decoder
// turns them into the columns the Gantt draws.
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { nodeEngine } from './node-engine.mjs';

const engine = await nodeEngine();
const { opsFromAttachment } = await import(new URL('../../dist/widgets/bubble/op-columns.js', import.meta.url));

const REQUESTS = [
  { schedule: '1f1b', stages: 4, microbatches: 8 },
  { schedule: 'interleaved', stages: 4, microbatches: 8, chunks: 3 },
  { schedule: 'dualpipe', stages: 4, microbatches: 8, times: { f: 1.5, b: 0.7, w: 0.3, comm: 0.1 } },
  { schedule: 'zb-h2', stages: 3, microbatches: 7, times: { f: 1, b: 1, w: 0 } },
  { schedule: 'gpipe', stages: 5, microbatches: 3, forward_only: true, times: { f: 0.1 } },
];

for (const request of REQUESTS) {
  test(`binary ops of ${request.schedule} equal the object form op for op`, () => {
    const objects = engine.call({ op: 'pipeline', ...request }).ops;
    const { response, attachment } = engine.callWithAttachment({ op: 'pipeline', ...request, ops_format: 'binary' });
    assert.ok(attachment instanceof Float64Array);
    const ops = opsFromAttachment(response, attachment);
    assert.equal(ops.kind.length, objects.length);
    let i = 0;
    response.ops.per_stage.forEach((n, stage) => {
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

test('the attachment is a copy: a later call does not change it', () => {
  const { attachment } = engine.callWithAttachment({
    op: 'pipeline',
    schedule: 'gpipe',
    stages: 2,
    microbatches: 2,
    ops_format: 'binary',
  });
  const before = Array.from(attachment);
  engine.call({ op: 'pipeline', schedule: 'gpipe', stages: 8, microbatches: 64, ops_format: 'binary' });
  assert.deepEqual(Array.from(attachment), before);
});

test('an attachment passed back is overwritten in place: no new memory per call, the numbers are the new answer', () => {
  const big = { op: 'pipeline', schedule: 'interleaved', stages: 8, microbatches: 16, chunks: 2, ops_format: 'binary' };
  const small = { op: 'pipeline', schedule: '1f1b', stages: 4, microbatches: 8, ops_format: 'binary' };
  const first = engine.callWithAttachment(big).attachment;
  const fresh = engine.callWithAttachment(small).attachment;
  const reused = engine.callWithAttachment(small, first).attachment;
  assert.equal(reused.buffer, first.buffer, 'the memory of the attachment passed back');
  assert.deepEqual(Array.from(reused), Array.from(fresh));
  const again = engine.callWithAttachment(big, reused).attachment;
  assert.equal(again.buffer, first.buffer);
  assert.deepEqual(Array.from(again), Array.from(engine.callWithAttachment(big).attachment));
  const grown = engine.callWithAttachment({ ...big, microbatches: 64 }, again).attachment;
  assert.notEqual(grown.buffer, first.buffer, 'too small to hold the answer: a new copy');
  assert.equal(grown.length, engine.callWithAttachment({ ...big, microbatches: 64 }).attachment.length);
});
