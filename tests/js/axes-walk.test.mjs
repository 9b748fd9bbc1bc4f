// Property walk over <parascope-axes>'s pure model with the real engine: a seeded random walk moves every control
// (tab, router skew 0–3 in the slider's 0.1 steps, focused GPU) in random order; after each step what would be shown
// matches the engine's answers, no request is refused, and no text reads NaN, Infinity or undefined.
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { routeRequest, runRequest } from '../../web/widgets/axes/model/requests.js';
import { TABS } from '../../web/widgets/axes/model/tabs.js';
import { axesView, staticText } from '../../web/widgets/axes/model/view.js';
import { nodeEngine } from './node-engine.mjs';
import { seededRandom as random } from '../seeded-random.mjs';

const engine = await nodeEngine();
const models = Object.fromEntries(engine.call({ op: 'presets' }).models.map((m) => [m.id, m]));

const RUNS = [
  {
    name: 'the article page',
    steps: 200,
    state: { model: 'mixtral-8x7b', hardware: 'h100-sxm', gpus: 64, tp: 2, pp: 4, ep: 8, globalBatch: 256 },
  },
  {
    name: 'DeepSeek-V3 on 128 GPUs (64 drawn)',
    steps: 80,
    state: { model: 'deepseek-v3', hardware: 'h100-sxm', gpus: 128, tp: 1, pp: 2, ep: 64, globalBatch: 512 },
  },
  {
    name: 'a dense model',
    steps: 40,
    state: { model: 'llama3-70b', hardware: 'a100-80gb', gpus: 32, tp: 8, pp: 4, ep: 1, globalBatch: 32 },
  },
];
const SKEWS = Array.from({ length: 31 }, (_, k) => Number((k / 10).toFixed(1)));
const BAD = /NaN|Infinity|undefined|\[object/;

for (const run of RUNS) {
  test(`a seeded walk over every control stays on the engine's answers: ${run.name}`, () => {
    const next = random(10 + run.steps);
    const pick = (list) => list[Math.floor(next() * list.length)];
    const base = { ...run.state, seed: 1 };
    const placement = engine.call({ op: 'placement', ...runRequest(base) });
    const traffic = engine.call({ op: 'traffic', ...runRequest(base) });
    const model = models[base.model];
    const words = JSON.stringify(staticText(placement));
    assert.doesNotMatch(words, BAD);
    const routes = new Map();
    const state = { ...base, axis: 'all', skew: 1, focus: 0 };
    const controls = {
      tab: () => {
        state.axis = pick(TABS);
      },
      skew: () => {
        state.skew = pick(SKEWS);
      },
      focus: () => {
        state.focus = Math.floor(next() * placement.drawn);
      },
    };
    const moved = { tab: 0, skew: 0, focus: 0 };
    for (let step = 0; step < run.steps; step += 1) {
      const control = pick(Object.keys(controls));
      controls[control]();
      moved[control] += 1;
      const where = `step ${step} (${control}) ${JSON.stringify({ axis: state.axis, skew: state.skew, focus: state.focus })}`;
      const request = routeRequest(state, model, placement);
      if (request && !routes.has(state.skew)) routes.set(state.skew, engine.call(request)); // throws on a refusal
      const route = request ? routes.get(state.skew) : null;
      const width = pick([298, 686]);
      const view = axesView({ state, placement, traffic, route, routeAsked: request, model, width });

      assert.doesNotMatch(JSON.stringify(view), BAD, where);
      assert.equal(view.axis, state.axis);
      assert.match(view.readout, new RegExp(`^GPU ${state.focus}, node `), where);
      // The table is the engine's traffic, every row kept, the tab's row marked.
      assert.equal(view.rows.length, traffic.axes.length);
      view.rows.forEach((row, i) => {
        assert.equal(row.selected, row.axis === state.axis);
        row.cells.forEach((c) => assert.equal(c.value, traffic.axes[i][c.field], `${where} ${row.axis}.${c.field}`));
      });
      // Links: only the focused GPU's groups, only on the tab's axes.
      for (const l of view.links) {
        assert.ok(state.axis === 'all' || l.axis === state.axis, where);
        const group = placement.axes.find((a) => a.axis === l.axis).groups.find((g) => g.includes(state.focus));
        assert.ok(group.includes(l.from) && group.includes(l.to), where);
      }
      assert.ok(view.layout.width <= width && view.layout.height > 0, where);
      if (!route) {
        assert.equal(view.expert, null);
        assert.ok(view.noRouting.length > 0);
        continue;
      }
      // The expert panel: the engine's routing, the busiest expert's holders outlined.
      const fact = Object.fromEntries(view.expert.facts.map((f) => [f.key, f]));
      assert.equal(fact['a2a-time'].value, route.time, where);
      assert.equal(fact['hot-expert'].value, route.hot_expert, where);
      assert.equal(fact['hot-rank'].value, route.hot_rank, where);
      assert.equal(fact.dropped.value, route.dropped, where);
      assert.deepEqual(view.expert.bars.loads, route.expert_load);
      assert.equal(view.expert.bars.hot, route.hot_expert);
      const holders = placement.ranks.filter(
        (r) => r.experts[0] <= route.hot_expert && route.hot_expert < r.experts[1],
      );
      assert.deepEqual(
        view.hot,
        holders.map((r) => r.rank),
        where,
      );
      assert.match(view.expert.title, new RegExp(`skew ${state.skew.toFixed(1)}\\.$`), where);
    }
    assert.ok(
      Object.values(moved).every((n) => n > 0),
      `every control moved: ${JSON.stringify(moved)}`,
    );
  });
}
