// The ring's link: one rule for the readout and the chart, from the engine's node size; a ring never sits "inside a
// node" that cannot hold it (issue 10, item 2).
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { seconds } from '../../web/lib/format.js';
import { ROW_CHOICE, rowName } from '../../web/lib/model/engine-lists.js';
import { ringLink } from '../../web/widgets/ring/model/link.js';
import { ringChartText, ringReadout } from '../../web/widgets/ring/model/readout.js';
import { chartRequests, readoutRequest } from '../../web/widgets/ring/model/requests.js';
import { nodeEngine } from './node-engine.mjs';

const engine = await nodeEngine();
const hardware = engine.call({ op: 'presets' }).hardware;
const h100 = hardware.find((x) => x.id === 'h100-sxm');
const state = (patch) => ({ gpus: 4, hardware: 'h100-sxm', link: 'intra', bytes: 2 ** 30, ...patch });

test('16 GPUs asked "inside a node" on H100 (8 per node) run on the network in the readout and the chart alike', () => {
  const s = state({ gpus: 16 });
  const r = engine.call(readoutRequest(h100, s));
  assert.equal(r.link.name, 'InfiniBand NDR 400 Gb/s');
  const inter = engine.call({
    op: 'allreduce',
    algorithm: 'ring',
    gpus: 16,
    bytes: 2 ** 30,
    link: 'h100-sxm',
    link_kind: 'inter',
  });
  assert.equal(r.time, inter.time);
  assert.notEqual(seconds(r.time), '4.58 ms'); // the impossible NVLink-only ring of 16 that the widget used to show
  const point = chartRequests(h100, s).find((p) => p.algorithm === 'ring' && p.gpus === 16);
  assert.equal(engine.call(point.request).time, r.time);
  const text = ringReadout(h100, s, r);
  assert.match(text.summary, /crosses the network/);
  assert.match(text.placement, /spans nodes of 8: the network sets the pace/);
  assert.match(ringChartText(h100, s, { gpus: 16, time: r.time }).label, new RegExp(seconds(r.time)));
});

test('"inside one node" is offered up to the node size only, with a hint beside the control beyond it', () => {
  for (const hw of hardware) {
    for (let gpus = 2; gpus <= 16; gpus += 1) {
      const l = ringLink(hw, gpus, 'intra');
      const fits = gpus <= hw.gpus_per_node;
      assert.equal(l.options.find((o) => o.value === 'intra').disabled, !fits, `${hw.id} ${gpus}`);
      assert.equal(l.link, fits ? 'intra' : 'inter');
      assert.equal(l.hint === '', fits);
      if (!fits)
        assert.equal(
          l.hint,
          `A node holds ${hw.gpus_per_node} of these, so a ring of ${gpus} spans nodes and crosses the network.`,
        );
      assert.equal(ringLink(hw, gpus, 'inter').link, 'inter');
    }
  }
});

test('the menu says where the ring runs, short enough for a 360 px row; the label names the link, whole or as a row shows it', () => {
  for (const hw of hardware) {
    for (const [gpus, wanted] of [
      [2, 'intra'],
      [2, 'inter'],
      [hw.gpus_per_node * 2, 'intra'],
    ]) {
      const l = ringLink(hw, gpus, wanted);
      for (const o of l.options) assert.ok(o.label.length <= ROW_CHOICE, `${hw.id}: "${o.label}"`);
      assert.deepEqual(
        l.options.map((o) => o.title),
        [`${hw.intra_link}, inside one node`, `${hw.inter_link}, between nodes`],
      );
      const used = l.link === 'intra' ? hw.intra_link : hw.inter_link;
      assert.equal(l.name, rowName(used), `${hw.id} ${gpus} ${wanted}`);
      assert.ok(used.startsWith(l.name), `${hw.id}: "${l.name}"`);
    }
  }
  const h100Link = ringLink(h100, 16, 'intra');
  assert.deepEqual(
    h100Link.options.map((o) => o.label),
    ['inside one node (at most 8)', 'between nodes'],
  );
  assert.equal(h100Link.name, 'InfiniBand NDR 400 Gb/s');
  const v5e = hardware.find((x) => x.id === 'tpu-v5e');
  assert.equal(ringLink(v5e, 2, 'inter').name, 'ICI', "'ICI (2D torus across the 256-chip pod)' past a row");
});

test("the chart's ring curve passes through the readout at every N the slider reaches: the same question", () => {
  for (const hw of hardware) {
    for (const link of ['intra', 'inter']) {
      for (let gpus = 2; gpus <= 16; gpus += 1) {
        const s = state({ hardware: hw.id, link, gpus });
        const point = chartRequests(hw, s).find((p) => p.algorithm === 'ring' && p.gpus === gpus);
        assert.deepEqual(point.request, readoutRequest(hw, s));
      }
    }
  }
});

test('the engine itself refuses an intra-node link for more GPUs than a node holds', () => {
  assert.throws(
    () =>
      engine.call({
        op: 'allreduce',
        algorithm: 'ring',
        gpus: 16,
        bytes: 2 ** 30,
        link: 'h100-sxm',
        link_kind: 'intra',
      }),
    (e) => e.code === 'inconsistent' && e.field === 'link_kind',
  );
});
