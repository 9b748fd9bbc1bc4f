// <parascope-context>'s model code on the built engine: the blocks the figure draws at each ring step are the blocks
// the engine counts (ring[].zigzag_blocks / contiguous_blocks, per GPU), for every cp the slider reaches, both
// splits and both kernels; the all-gather view computes each GPU's whole pass at once; the lanes place the engine's
// own times end to end (their exposed parts sum to its exposed); the default request is the article's Llama 3 8B
// fixture (tests/fixtures/api/context_ring.txt); refusals read as sentences for readers, never the engine's message.
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { fixtureCases, nodeEngine } from './node-engine.mjs';
import { seconds } from '../../web/lib/format.js';
import { ATTRIBUTES as A } from '../../web/widgets/context/attributes.js';
import { curvePoints } from '../../web/widgets/context/model/curve.js';
import { contextErrorText } from '../../web/widgets/context/model/errors.js';
import { laneRows } from '../../web/widgets/context/model/lanes.js';
import { breakEvenText, exposedPerLayer, facts, lanesNote } from '../../web/widgets/context/model/readout.js';
import { CP_VALUES, SEQUENCES, contextRequest, ladderKey, withValue } from '../../web/widgets/context/model/request.js';
import { block, chunkOwners, positionsOf, stepView } from '../../web/widgets/context/model/step-view.js';

const engine = await nodeEngine();
const presets = engine.call({ op: 'presets' });
const DEFAULTS = Object.fromEntries(Object.entries(A).map(([k, v]) => [k, v.fallback]));
const state = (patch = {}) => ({ ...DEFAULTS, ...patch });
const cases = await fixtureCases();
const ask = (s, seq) => engine.call(contextRequest(presets.models, s, seq));

/** Sum of the drawn blocks' weights per GPU at the current position. */
function drawnPerGpu(view, cp) {
  const sums = new Array(cp).fill(0);
  for (const c of view.cells) if (c.current) sums[c.gpu] += c.weight;
  return sums;
}

test('the default request asks what the Llama 3 8B fixture asks, and gets its answer', () => {
  const fixture = cases.find((c) => c.name.startsWith('Llama 3 8B at a 32k context'));
  const req = JSON.parse(fixture.request);
  const mine = contextRequest(presets.models, state());
  assert.equal(mine.op, 'context_ring');
  assert.equal(mine.model.seq, req.model.seq);
  assert.deepEqual(
    [mine.parallel.tp, mine.parallel.cp, mine.hardware],
    [req.parallel.tp, req.parallel.cp, req.hardware],
  );
  const fromFixture = JSON.parse(fixture.response);
  const answer = ask(state());
  // One layer's numbers do not depend on the batch or the replicas: the fixture's 64 GPUs and 8 sequences give them too.
  for (const key of ['kv_bytes', 'block_flops', 'chunk_tokens', 'balance', 'break_even', 'activations', 'ring', 'gpus'])
    assert.deepEqual(answer[key], fromFixture[key], key);
  assert.deepEqual(answer.p2p.forward, fromFixture.p2p.forward);
});

for (const kernel of ['fused', 'unfused']) {
  for (const cp of [...CP_VALUES, 3, 6]) {
    test(`cp ${cp}, ${kernel} kernel: each ring step draws exactly the blocks the engine counts, per GPU`, () => {
      const s = state({ cp, kernel, sequence: 3 * 2 ** 14 });
      const answer = ask(s);
      assert.equal(answer.causal_skip, kernel === 'fused');
      for (const split of ['zigzag', 'contiguous']) {
        const owners = chunkOwners(answer, split);
        assert.equal(new Set(owners).size, cp);
        assert.ok(owners.every((g) => g >= 0));
        assert.equal(positionsOf(answer, 'p2p'), cp);
        for (let i = 0; i < cp; i += 1) {
          const view = stepView(answer, { split, variant: 'p2p' }, i);
          assert.deepEqual(drawnPerGpu(view, cp), answer.ring[i][`${split}_blocks`], `${split} step ${i}`);
          assert.deepEqual(
            view.gpus.map((g) => g.blocks),
            answer.ring[i][`${split}_blocks`],
          );
          assert.deepEqual(
            view.gpus.map((g) => g.kv[0]),
            answer.ring[i].kv_from,
          );
        }
        // By the last step every block of the pass is drawn once: the engine's per-GPU totals.
        const last = stepView(answer, { split, variant: 'p2p' }, cp - 1);
        const totals = new Array(cp).fill(0);
        for (const c of last.cells) totals[c.gpu] += c.weight;
        assert.deepEqual(
          totals,
          answer.gpus.map((g) => g[`${split}_blocks`]),
        );
        assert.equal(last.cells.length, 4 * cp * cp);
        // All-gather: nothing at the gather, the whole pass at the attention.
        assert.equal(stepView(answer, { split, variant: 'all-gather' }, 0).cells.length, 0);
        const gathered = stepView(answer, { split, variant: 'all-gather' }, 1);
        const all = new Array(cp).fill(0);
        for (const c of gathered.cells) all[c.gpu] += c.weight;
        assert.deepEqual(
          all,
          answer.gpus.map((g) => g[`${split}_blocks`]),
        );
      }
    });
  }
}

test('a block is whole below the diagonal, half on it and masked above; unfused kernels compute all', () => {
  assert.deepEqual(block(3, 1, true), { weight: 1, masked: false, diagonal: false });
  assert.deepEqual(block(2, 2, true), { weight: 0.5, masked: false, diagonal: true });
  assert.deepEqual(block(1, 3, true), { weight: 0, masked: true, diagonal: false });
  assert.equal(block(1, 3, false).weight, 1);
});

test('the lanes place the engine times end to end: their parts add up to its sums', () => {
  for (const s of [state(), state({ tp: 8, cp: 8 }), state({ tp: 8, cp: 16, sequence: 8192 })]) {
    const a = ask(s);
    const { rows, scale } = laneRows(a, 'p2p');
    const sum = (row, kind) => row.bars.filter((b) => b.kind === kind).reduce((t, b) => t + b.end - b.start, 0);
    for (const [row, pass] of [
      [rows[0], a.p2p.forward],
      [rows[1], a.p2p.backward],
    ]) {
      assert.ok(Math.abs(sum(row, 'compute') - pass.compute_time) <= 1e-12 * pass.compute_time);
      assert.ok(Math.abs(sum(row, 'transfer') - pass.transfer_time) <= 1e-12 * Math.max(1e-9, pass.transfer_time));
      assert.ok(Math.abs(sum(row, 'exposed') - pass.exposed) <= 1e-12 + 1e-9 * pass.exposed);
      assert.ok(row.total <= scale);
    }
    const gather = laneRows(a, 'all-gather');
    assert.equal(gather.scale, scale, 'switching variant keeps the axis');
    // Without recomputation the all-gather's exposed time is its gather and its reduce-scatter (engine/API.md).
    assert.equal(gather.rows[0].exposed, a.all_gather.gather_time);
    assert.equal(gather.rows[1].exposed, a.all_gather.scatter_time);
    assert.equal(gather.rows[0].exposed + gather.rows[1].exposed, a.all_gather.exposed);
  }
});

test('contiguous chunks: the lanes draw the engine contiguous ring and the all-gather its own attention time', () => {
  for (const s of [state(), state({ tp: 8, cp: 8, sequence: 8192 }), state({ cp: 16, sequence: 131072 })]) {
    const a = ask(s);
    const sum = (row, kind) => row.bars.filter((b) => b.kind === kind).reduce((t, b) => t + b.end - b.start, 0);
    const zig = laneRows(a, 'p2p', 'zigzag');
    const con = laneRows(a, 'p2p', 'contiguous');
    assert.equal(con.scale, zig.scale, 'switching the split keeps the axis');
    for (const [row, pass] of [
      [con.rows[0], a.p2p.contiguous.forward],
      [con.rows[1], a.p2p.contiguous.backward],
    ]) {
      assert.ok(Math.abs(sum(row, 'compute') - pass.compute_time) <= 1e-12 * pass.compute_time);
      assert.ok(Math.abs(sum(row, 'exposed') - pass.exposed) <= 1e-12 + 1e-9 * pass.exposed);
      // each step's compute bar is the engine's step, not zig-zag's
      const bars = row.bars.filter((b) => b.kind === 'compute');
      bars.forEach((b, i) => assert.ok(Math.abs(b.end - b.start - pass.steps[i].compute_time) <= 1e-15));
    }
    // a causal kernel: contiguous steps after the first are twice the zig-zag step (the busiest GPU's 4 blocks)
    assert.ok(con.rows[0].compute > zig.rows[0].compute);
    for (const [split, fwd, bwd] of [
      ['zigzag', a.all_gather.forward_compute_time, a.all_gather.backward_compute_time],
      ['contiguous', a.all_gather.contiguous_forward_compute_time, a.all_gather.contiguous_backward_compute_time],
    ]) {
      const g = laneRows(a, 'all-gather', split);
      assert.equal(g.rows[0].compute, fwd);
      assert.equal(g.rows[1].compute, bwd);
      assert.equal(g.scale, zig.scale);
      assert.ok(lanesNote(a, { split, variant: 'all-gather' }).includes(seconds(fwd)));
    }
    assert.ok(
      lanesNote(a, { split: 'contiguous', variant: 'p2p' }).includes(seconds(a.p2p.contiguous.forward.compute_time)),
    );
    assert.equal(exposedPerLayer(a, { split: 'contiguous', variant: 'p2p' }), a.p2p.contiguous.exposed);
  }
});

test('on a node the ring hides; across nodes at a short length it does not, and the facts say the engine numbers', () => {
  const inside = ask(state());
  assert.equal(inside.link.crosses_nodes, false);
  assert.equal(inside.p2p.exposed, 0);
  const across = ask(state({ tp: 8, cp: 8, sequence: 8192 }));
  assert.equal(across.link.crosses_nodes, true);
  assert.ok(across.p2p.exposed > 0);
  const f = Object.fromEntries(facts(across, { split: 'zigzag', variant: 'p2p' }).map((x) => [x.key, x]));
  assert.equal(f.exposed.value, across.p2p.exposed_per_step);
  assert.equal(f.kv.value, across.kv_bytes);
  assert.equal(f['break-even'].value, across.break_even.sequence);
  assert.equal(f.activations.value, across.activations.saved_per_layer);
  const g = Object.fromEntries(facts(across, { split: 'contiguous', variant: 'all-gather' }).map((x) => [x.key, x]));
  assert.equal(g.exposed.value, across.all_gather.exposed_per_step);
  assert.equal(g.balance.value, across.balance.contiguous_max_over_mean);
  assert.match(breakEvenText(across), /InfiniBand/);
});

test('the chart: one point per length the engine answers; where the curves cross is the engine break-even', () => {
  const s = state({ tp: 8, cp: 4 });
  const points = curvePoints(SEQUENCES.map((seq) => ({ seq, answer: ask(s, seq) })));
  assert.equal(points.length, SEQUENCES.length);
  const be = ask(s).break_even.sequence;
  for (const p of points) {
    // Below the break-even the transfer outlasts the attention, above it the attention covers it.
    if (p.seq < be) assert.ok(p.transfer > p.compute, `${p.seq}`);
    if (p.seq > be) assert.ok(p.transfer < p.compute, `${p.seq}`);
  }
  assert.equal(ladderKey(s), ladderKey({ ...s, sequence: 1024, split: 'contiguous', variant: 'all-gather' }));
  assert.deepEqual(withValue(CP_VALUES, 6), [2, 4, 6, 8, 16]);
});

test('refusals read as sentences for readers, never the engine message', () => {
  const cases = [
    [state({ cp: 6, sequence: 32_768 }), /do not cut into 12 equal chunks/],
    [state({ model: 'gpt2-124m', tp: 8 }), /heads or widths do not split/],
  ];
  for (const [s, words] of cases) {
    let err = null;
    try {
      ask(s);
    } catch (e) {
      err = e;
    }
    assert.ok(err, JSON.stringify(s));
    const text = contextErrorText(err, s);
    assert.match(text, words);
    assert.ok(!text.includes(err.message));
  }
  assert.match(contextErrorText({ code: 'x', field: 'y' }, state()), /cannot lay out/);
});
