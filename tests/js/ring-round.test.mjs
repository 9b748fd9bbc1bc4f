// What the ring says at each round: the status line and the figure's accessible description follow the round and
// phase (issue 10, item 13); the buffers are the engine's.
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { ringRound } from '../../web/widgets/ring/model/round.js';
import { nodeEngine } from './node-engine.mjs';

const engine = await nodeEngine();
const trace = (n) =>
  engine.call({
    op: 'allreduce',
    algorithm: 'ring',
    gpus: n,
    bytes: 2 ** 30,
    link: 'h100-sxm',
    link_kind: 'inter',
    trace: true,
  });

test("each round of 4 GPUs is described by its phase and number, and shows that round's buffers", () => {
  const t = trace(4);
  const expected = [
    'Start: each GPU holds its own array, cut into 4 chunks. 6 rounds to go.',
    'Scatter-reduce, round 1 of 3',
    'Scatter-reduce, round 2 of 3',
    'Scatter-reduce, round 3 of 3: every GPU now',
    'All-gather, round 1 of 3',
    'All-gather, round 2 of 3',
    'All-gather, round 3 of 3: done',
  ];
  for (let k = 0; k <= 6; k += 1) {
    const v = ringRound(t, k);
    assert.ok(v.status.startsWith(expected[k]), v.status);
    assert.ok(v.label.startsWith(`Ring all-reduce of 4 GPUs, round ${k} of 6. ${expected[k]}`), v.label);
    assert.deepEqual(v.buffers, k ? t.rounds[k - 1].buffers : t.initial);
    assert.equal(Object.keys(v.changed).length, k ? 4 : 0);
  }
  for (const x of t.rounds[1].transfers) assert.equal(ringRound(t, 2).changed[`${x.to},${x.chunk}`], 'add');
  assert.ok(Object.values(ringRound(t, 5).changed).every((x) => x === 'copy'));
});

test('two different rounds never share a description', () => {
  for (const n of [2, 5, 16]) {
    const t = trace(n);
    const labels = t.rounds.map((_, k) => ringRound(t, k + 1).label);
    assert.equal(new Set([ringRound(t, 0).label, ...labels]).size, t.rounds.length + 1);
  }
});
