// A seeded random walk over every control of <parascope-ring> through its pure model and the real engine: after each
// step the readout, the chart and the figure are the engine's answers for the current controls, on one link, with no
// refusal and no NaN / Infinity / undefined in any text.
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { seconds } from '../../web/lib/format.js';
import { ringLayout } from '../../web/widgets/ring/model/layout.js';
import { ringLink } from '../../web/widgets/ring/model/link.js';
import { ringChartText, ringReadout } from '../../web/widgets/ring/model/readout.js';
import { chartRequests, readoutRequest } from '../../web/widgets/ring/model/requests.js';
import { ringRound } from '../../web/widgets/ring/model/round.js';
import { nodeEngine } from './node-engine.mjs';
import { seededRandom } from '../seeded-random.mjs';

const engine = await nodeEngine();
const hardware = engine.call({ op: 'presets' }).hardware;
const SIZES = [2 ** 20, 2 ** 24, 2 ** 28, 2 ** 30, 2 ** 34];
const BAD = /\bNaN\b|Infinity(?! Fabric)|\bundefined\b|\bnull\b/; // AMD's link is named Infinity Fabric

function walk(seed, steps) {
  const random = seededRandom(seed);
  const pick = (xs) => xs[Math.floor(random() * xs.length)];
  const state = { gpus: 4, hardware: 'h100-sxm', link: 'intra', bytes: 2 ** 30, round: 0 };
  let trace = engine.call(
    readoutRequest(
      hardware.find((x) => x.id === 'h100-sxm'),
      state,
      true,
    ),
  );
  for (let step = 0; step < steps; step += 1) {
    let hw = hardware.find((x) => x.id === state.hardware);
    const what = pick(['gpus', 'hardware', 'link', 'bytes', 'forward', 'back', 'home', 'end']);
    if (what === 'gpus') state.gpus = 2 + Math.floor(random() * 15);
    if (what === 'hardware') state.hardware = pick(hardware).id;
    if (what === 'link')
      state.link = pick(ringLink(hw, state.gpus, state.link).options.filter((o) => !o.disabled)).value;
    if (what === 'bytes') state.bytes = pick(SIZES);
    hw = hardware.find((x) => x.id === state.hardware);
    if (what === 'gpus') state.round = 0;
    const rounds = 2 * (state.gpus - 1);
    if (what === 'forward') state.round = Math.min(rounds, state.round + 1);
    if (what === 'back') state.round = Math.max(0, state.round - 1);
    if (what === 'home') state.round = 0;
    if (what === 'end') state.round = rounds;
    const where = `step ${step} (${what}): ${JSON.stringify(state)}`;

    // The link really used: never "inside a node" beyond the node size; the menu shows it selected and enabled.
    const link = ringLink(hw, state.gpus, state.link);
    assert.ok(state.gpus <= hw.gpus_per_node || link.link === 'inter', where);
    assert.equal(link.options.find((o) => o.value === link.link).disabled, false, where);
    assert.equal(link.hint === '', state.gpus <= hw.gpus_per_node, where);

    // The readout is the engine's answer (a refusal would throw here).
    const r = engine.call(readoutRequest(hw, state));
    assert.equal(r.link.name, link.link === 'intra' ? hw.intra_link : hw.inter_link, where);
    const text = ringReadout(hw, state, r);
    assert.ok(text.time.startsWith(seconds(r.time)), where);
    for (const v of Object.values(text)) assert.doesNotMatch(v, BAD, where);

    // The chart: every point answered; the ring's point at this N (when charted) is the readout.
    for (const p of chartRequests(hw, state)) {
      const c = engine.call(p.request);
      assert.ok(Number.isFinite(c.time) && c.time > 0, where);
      if (p.algorithm === 'ring' && p.gpus === state.gpus) assert.equal(c.time, r.time, where);
    }
    const chart = ringChartText(hw, state, { gpus: state.gpus, time: r.time });
    assert.doesNotMatch(chart.label + chart.note, BAD, where);

    // The figure: the engine's buffers for this round, drawn in a layout that holds them.
    if (what === 'gpus' || what === 'hardware' || what === 'link' || what === 'bytes') {
      trace = engine.call(readoutRequest(hw, state, true));
    }
    assert.equal(trace.initial.length, state.gpus, where);
    const view = ringRound(trace, state.round);
    assert.deepEqual(view.buffers, state.round ? trace.rounds[state.round - 1].buffers : trace.initial, where);
    assert.doesNotMatch(view.status + view.label, BAD, where);
    assert.ok(view.label.includes(`round ${state.round} of ${rounds}`), where);
    const layout = ringLayout(state.gpus, Math.max(...view.final.flat()));
    assert.equal(layout.cells.length, state.gpus, where);
  }
}

test('a 400-step seeded walk over GPUs, accelerator, link, array size and stepping', () => walk(42, 400));
test('another seed, 300 steps', () => walk(7, 300));
