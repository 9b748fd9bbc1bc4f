// The pure model of <parascope-axes> (web/lib/model/axes-*.js) on the real engine: tabs, the busiest expert's GPUs,
// per-step and per-microbatch labels, a grid whose labels fit at 360 and 1280 px, and links for one GPU only.
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { shardColour } from '../../web/widgets/axes/grid.js';
import { cellTag, colourKey, gpuReadout, gridName } from '../../web/widgets/axes/model/captions.js';
import { expertPanel } from '../../web/widgets/axes/model/expert-facts.js';
import { GAP, MIN_CELL, focusLinks, gridLayout } from '../../web/widgets/axes/model/layout.js';
import {
  quickStartable,
  routeRequest,
  routesLater,
  runRequest,
  snapSkew,
  trafficRequest,
} from '../../web/widgets/axes/model/requests.js';
import { TABS, tabAfterKey } from '../../web/widgets/axes/model/tabs.js';
import { COLUMNS, trafficRows } from '../../web/widgets/axes/model/traffic-rows.js';
import { axesView } from '../../web/widgets/axes/model/view.js';
import { nodeEngine } from './node-engine.mjs';

const engine = await nodeEngine();
const models = Object.fromEntries(engine.call({ op: 'presets' }).models.map((m) => [m.id, m]));
/** The article page's run. */
const ARTICLE = {
  model: 'mixtral-8x7b',
  hardware: 'h100-sxm',
  gpus: 64,
  tp: 2,
  pp: 4,
  ep: 8,
  globalBatch: 256,
  seed: 1,
};
const placement = engine.call({ op: 'placement', ...runRequest(ARTICLE) });
const traffic = engine.call({ op: 'traffic', ...runRequest(ARTICLE) });
/** Widths of the grid box on the article page at 360 and 1280 px viewports. */
const NARROW = 298;
const WIDE = 686;
/** Width of a 12 px bold label character, generous (DejaVu Sans Bold digits are ~8.4 px at 12 px). */
const CHAR = 8.5;

test('←/→ move to the neighbouring tab and wrap; Home/End jump to the ends; other keys are not tab keys', () => {
  assert.deepEqual(TABS, ['data', 'tensor', 'pipeline', 'expert', 'all']);
  assert.equal(tabAfterKey('data', 'ArrowRight'), 'tensor');
  assert.equal(tabAfterKey('all', 'ArrowRight'), 'data');
  assert.equal(tabAfterKey('data', 'ArrowLeft'), 'all');
  assert.equal(tabAfterKey('expert', 'Home'), 'data');
  assert.equal(tabAfterKey('tensor', 'End'), 'all');
  assert.equal(tabAfterKey('tensor', 'Enter'), null);
  assert.equal(tabAfterKey('tensor', 'ArrowDown'), null);
});

test('at skew 0 the outline marks the GPUs holding the busiest expert, and the busiest-bytes rank is named as such', () => {
  const request = routeRequest({ ...ARTICLE, skew: 0 }, models[ARTICLE.model], placement);
  const route = engine.call(request);
  // The case of the issue: the busiest expert (6) is not on the rank that moves the most bytes (0).
  assert.equal(route.hot_expert, 6);
  assert.equal(route.hot_rank, 0);
  const panel = expertPanel(route, request, placement);
  const holding = placement.ranks.filter((r) => r.experts[0] <= 6 && 6 < r.experts[1]).map((r) => r.rank);
  assert.deepEqual(panel.hotGpus, holding);
  assert.ok(panel.hotGpus.every((g) => placement.ranks[g].ep === 6));
  const hotFact = panel.facts.find((f) => f.key === 'hot-expert');
  assert.match(hotFact.text, /^expert 6: .* held by EP rank 6; outlined in the grid: GPUs 12, 13, /);
  const bytesFact = panel.facts.find((f) => f.key === 'hot-rank');
  assert.equal(bytesFact.term, 'Most all-to-all bytes');
  assert.match(bytesFact.text, /^EP rank 0 sends or receives .* in this microbatch/);
  assert.equal(panel.bars.hot, 6);
});

test('per-step figures say "per step" and the routed all-to-all says per MoE layer, per microbatch', () => {
  const labels = Object.fromEntries(COLUMNS.map((c) => [c.field, c.label]));
  for (const field of ['count', 'bytes_per_gpu', 'time']) assert.match(labels[field], /per step/, field);
  const rows = trafficRows(traffic, 'expert');
  assert.equal(rows.length, traffic.axes.length);
  rows.forEach((row, i) => row.cells.forEach((c) => assert.equal(c.value, traffic.axes[i][c.field])));
  const request = routeRequest({ ...ARTICLE, skew: 1 }, models[ARTICLE.model], placement);
  const a2a = expertPanel(engine.call(request), request, placement).facts.find((f) => f.key === 'a2a-time');
  assert.match(a2a.term, /per MoE layer, per microbatch/);
  assert.match(
    a2a.text,
    /^16\.9 ms; with a balanced router 6\.73 ms$/,
    "step's link efficiency: the table's time per all-to-all",
  );
});

test('the traffic table times each expert all-to-all as the router panel does, at every skew the slider reaches', () => {
  // One source per number: the table's per-step expert time over its count is the panel's routed dispatch (both at
  // step's link efficiency), and it follows the skew slider: the routing's router_imbalance goes into the traffic.
  const perDispatch = [];
  for (const skew of [0, 1, 2, 3]) {
    const request = routeRequest({ ...ARTICLE, skew }, models[ARTICLE.model], placement);
    assert.equal(request.ranks_per_node, placement.axes.find((a) => a.axis === 'expert').members_per_node);
    const route = engine.call(request);
    const expert = engine.call(trafficRequest(ARTICLE, route)).axes.find((a) => a.axis === 'expert');
    const one = expert.time / expert.count;
    assert.ok(Math.abs(one / route.time - 1) < 1e-9, `skew ${skew}: table ${one} s, panel ${route.time} s`);
    perDispatch.push(one);
  }
  assert.ok(perDispatch[3] > 2 * perDispatch[0], `skew 3 costs more than skew 0: ${perDispatch}`);
  const unrouted = traffic.axes.find((a) => a.axis === 'expert');
  const balanced = engine.call(routeRequest({ ...ARTICLE, skew: 0 }, models[ARTICLE.model], placement)).balanced_time;
  assert.ok(Math.abs(unrouted.time / unrouted.count / balanced - 1) < 1e-9, 'with no routing: the balanced all-to-all');
});

test('the grid keeps 12 px labels on cells that do not overlap, at 360 and 1280 px, on every tab', () => {
  const deepseek = engine.call({
    op: 'placement',
    model: 'deepseek-v3',
    hardware: 'h100-sxm',
    cluster: { gpus: 128 },
    parallel: { tp: 1, pp: 2, ep: 64, global_batch: 512 },
  });
  for (const [width, p] of [
    [NARROW, placement],
    [WIDE, placement],
    [NARROW, deepseek],
    [WIDE, deepseek],
  ]) {
    const L = gridLayout(p, width);
    assert.ok(L.width <= width, `${width}: grid ${L.width} px wide`);
    assert.ok(L.cell >= MIN_CELL);
    for (const axis of TABS) {
      // A label may reach into the gap between cells, never into the next cell's label.
      const longest = Math.max(...p.ranks.map((r) => cellTag(r, axis).length));
      assert.ok(longest * CHAR <= L.cell + GAP, `${width} px, ${axis}: ${longest} characters on a ${L.cell} px cell`);
    }
    for (let i = 0; i < L.cells.length; i += 1) {
      for (let j = i + 1; j < L.cells.length; j += 1) {
        const a = L.cells[i];
        const b = L.cells[j];
        assert.ok(
          a.x + a.size <= b.x || b.x + b.size <= a.x || a.y + a.size <= b.y || b.y + b.size <= a.y,
          `${i}, ${j}`,
        );
      }
    }
  }
  // The wide layout puts four nodes in a row, the narrow one two; the height never depends on the tab.
  assert.equal(gridLayout(placement, WIDE).columns, 4);
  assert.equal(gridLayout(placement, NARROW).columns, 2);
});

test("links are drawn for the focused GPU's own groups only: a ring, a chain, and a star for the all-to-all", () => {
  for (const focus of [0, 13, 63]) {
    for (const axis of ['data', 'tensor', 'pipeline', 'expert']) {
      const group = placement.axes.find((a) => a.axis === axis).groups.find((g) => g.includes(focus));
      const mine = focusLinks(placement, [axis], focus);
      mine.forEach((l) => assert.ok(group.includes(l.from) && group.includes(l.to)));
      const want = {
        data: group.length,
        tensor: group.length === 2 ? 1 : group.length,
        pipeline: group.length - 1,
        expert: group.length - 1,
      }[axis];
      assert.equal(mine.length, want, `${axis} of GPU ${focus}`);
      if (axis === 'expert') assert.ok(mine.every((l) => l.from === focus));
    }
  }
  // The old grid drew every pair of every expert group: 8 groups × 28 pairs.
  assert.ok(focusLinks(placement, ['expert'], 0).length <= 7);
  // On "all four", the expert group is the data group here: drawn once, as the data ring.
  const all = focusLinks(placement, ['data', 'tensor', 'pipeline', 'expert'], 0);
  assert.deepEqual([...new Set(all.map((l) => l.axis))], ['data', 'tensor', 'pipeline']);
  assert.match(gridName({ axis: 'all', placement, focus: 0 }), /expert: the same GPUs as data/);
});

test('shard fills are mid-tones (they sit under labels with a halo on both palettes)', () => {
  for (const count of [1, 2, 4, 8, 64]) {
    for (let i = 0; i < count; i += 1) {
      const [, , l] = shardColour(i, count)
        .match(/hsl\((\d+) (\d+)% (\d+)%\)/)
        .slice(1)
        .map(Number);
      assert.ok(l >= 45 && l <= 66, `shard ${i} of ${count}: lightness ${l} %`);
    }
  }
});

test('the colour key and readout name what each GPU holds, from the placement', () => {
  const key = colourKey('pipeline', placement);
  assert.deepEqual(
    key.entries.map((e) => `${e.tag} ${e.text}`),
    ['P0 layers 0–7', 'P1 layers 8–15', 'P2 layers 16–23', 'P3 layers 24–31'],
  );
  assert.equal(
    gpuReadout(placement, 13),
    'GPU 13, node 1: replica 6 of 8; tensor rank 1 of 2 (heads 16–31); ' +
      'stage 0 of 4 (layers 0–7); expert rank 6 of 8 (expert 6).',
  );
  const dense = engine.call({
    op: 'placement',
    model: 'llama3-70b',
    hardware: 'h100-sxm',
    cluster: { gpus: 32 },
    parallel: { tp: 8, pp: 4, global_batch: 32 },
  });
  const view = axesView({
    state: { axis: 'expert', focus: 0, skew: 1 },
    placement: dense,
    traffic: null,
    route: null,
    routeAsked: null,
    model: models['llama3-70b'],
    width: WIDE,
  });
  assert.equal(view.expert, null);
  assert.match(view.noRouting, /dense: it has no experts/);
});

test("a skew attribute between the slider's steps moves to the nearest step and says so", () => {
  assert.deepEqual(snapSkew(1), { value: 1, hint: '' });
  assert.deepEqual(snapSkew(0), { value: 0, hint: '' });
  assert.deepEqual(snapSkew(3), { value: 3, hint: '' });
  assert.deepEqual(snapSkew(1.26), { value: 1.3, hint: 'the slider moves in steps of 0.1: 1.26 → 1.3' });
});

test('a first draw without presets waits to route exactly when the engine placed the run with expert parallelism', () => {
  const dense = { ...ARTICLE, model: 'llama3-8b', ep: 1 };
  const densePlacement = engine.call({ op: 'placement', ...runRequest(dense) });
  const epOne = { ...ARTICLE, ep: 1 };
  const epOnePlacement = engine.call({ op: 'placement', ...runRequest(epOne) });
  // Before the presets entry is read, the placement decides; once it is, routeRequest does: the same answer here.
  for (const [state, placed] of [
    [ARTICLE, placement],
    [dense, densePlacement],
    [epOne, epOnePlacement],
  ]) {
    assert.equal(routesLater(state, null, placed), routesLater(state, models[state.model], placed), state.model);
    assert.equal(
      routesLater(state, models[state.model], placed),
      routeRequest(state, models[state.model], placed) !== null,
    );
  }
  assert.equal(routesLater(ARTICLE, null, placement), true);
  assert.equal(routesLater(dense, null, densePlacement), false);
  // No view text needs the model before then: the router's words wait for the presets entry.
  const view = axesView({
    state: { ...ARTICLE, axis: 'all', focus: 0 },
    placement,
    traffic,
    route: null,
    routeAsked: null,
    model: null,
    width: WIDE,
  });
  assert.equal(view.noRouting, '');
  assert.ok(view.readout.length > 0);
});

test('a quick first draw needs a whole ep attribute (a missing or unreadable one defaults by the model)', () => {
  for (const raw of ['8', '1', '2000']) assert.equal(quickStartable(raw), true, raw);
  for (const raw of [null, undefined, '', 'x', '2.5', ' 4 ']) assert.equal(quickStartable(raw), false, String(raw));
});
