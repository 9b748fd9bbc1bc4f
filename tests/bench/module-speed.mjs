#!/usr/bin/env node
// Paired speed of one widget wasm module built two ways (e.g. -O3 and -Oz): the ops it serves, first call on a fresh
// instance and warm, plus the mfu figure's real work per control move (mfu-split's resolve + offered); for the memory,
// timeline, run and nccl modules, every request of their ops' fixtures (tests/fixtures/api/<op>.txt) that the op
// answers. Each round loads both builds afresh, in alternating order; prints medians and ranges, and checks that both
// answer byte for byte alike. `node tests/bench/module-speed.mjs DIR_A DIR_B axes|step|track|memory|timeline|run|nccl
// [rounds, default 6]` (DIR_*: folders holding parascope-<name>-engine.{mjs,wasm}, e.g. a saved copy of build/wasm and
// build/wasm).
import { readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { engineLoader } from '../../web/lib/engine.js';
import { useEngineLists } from '../../web/lib/model/engine-lists.js';
import { makeAsker } from '../../web/widgets/mfu/model/asker.js';
import { offered, presetSplit, resolve as resolveMove } from '../../web/widgets/mfu/model/split.js';
import { PRESETS } from '../../web/widgets/mfu/model/presets.js';

const [dirA, dirB, which, roundsText = '6'] = process.argv.slice(2);
// The modules timed on their ops' fixtures: which ops each answers (CMakeLists.txt, PARASCOPE_WASM_OPS_<module>).
const FIXTURE_OPS = { memory: ['memory_timeline'], timeline: ['timeline'], run: ['run'], nccl: ['nccl_fit'] };
if (!dirA || !dirB || !['axes', 'step', 'track', ...Object.keys(FIXTURE_OPS)].includes(which)) {
  throw new Error('usage: module-speed.mjs DIR_A DIR_B axes|step|track|memory|timeline|run|nccl [rounds]');
}
const rounds = Number(roundsText);
const name = `parascope-${which}-engine`;

// The axes' first MoE draw: 2^19 assignments (Mixtral's top-2: 262,144 tokens), as web/widgets/axes/model/requests.js asks.
const route = (skew) => ({ op: 'moe_route', tokens: 262144, experts: 8, top_k: 2, ep: 8, skew, seed: 1, hidden: 4096,
  hardware: 'h100-sxm', link_kind: 'intra' });
const axesRun = { model: 'mixtral-8x7b', hardware: 'h100-sxm', cluster: { gpus: 64 }, parallel: { tp: 2, pp: 1, ep: 8, global_batch: 256 } };
const cases = {
  axes: [
    ['moe_route 262144 tokens', route(1)],
    ['placement', { op: 'placement', ...axesRun }],
    ['traffic', { op: 'traffic', ...axesRun }],
  ],
  step: [...PRESETS.map((p) => [`step ${p.id}`, { op: 'step', ...p.run }]),
    ...PRESETS.map((p) => [`mfu ${p.id} (published)`, p.published.request]).filter(([, r]) => r?.op === 'mfu')],
  // The track record's and the planner page's module: step alone.
  track: PRESETS.map((p) => [`step ${p.id}`, { op: 'step', ...p.run }]),
};
// A fixture file: a comment line, then request and answer lines; the requests the op answers (not its refusals). The
// timeline module writes "columns" alone (CMakeLists.txt, op_timeline_columns): its other formats' requests are left.
const ANSWERED = { timeline: (request) => request.format === 'columns' };
// The memory module writes its columns as the call's attachment alone (op_memory_timeline_binary): asked so, as its
// figure asks (the JSON compared; the numbers are the text columns' own: tests/engine/memory_timeline_test.cpp).
const ASKED = { memory: (request) => ({ ...request, columns_format: 'binary' }) };
for (const [module, ops] of Object.entries(FIXTURE_OPS)) {
  cases[module] = ops.flatMap((op) => {
    const lines = readFileSync(new URL(`../fixtures/api/${op}.txt`, import.meta.url), 'utf8').split('\n');
    const out = [];
    for (let i = 0; i + 1 < lines.length; i += 1) {
      if (!lines[i].startsWith('{') || lines[i + 1].startsWith('{"error"')) continue;
      if (ANSWERED[module] && !ANSWERED[module](JSON.parse(lines[i]))) continue;
      const request = JSON.parse(lines[i]);
      out.push([`${op} fixture ${out.length + 1}`, ASKED[module]?.(request) ?? request]);
      i += 1;
    }
    return out;
  });
}

// Issue 29's budget on the step figure's own module: Megatron's 1T (tp 8, pp 64, 512 microbatches per pipeline), every
// stage, as columns (tests/bench/timeline_bench.cpp's request): <= 100 ms in the wasm.
cases.timeline?.push([
  'timeline 64 x 512, every stage, columns (budget <= 100 ms)',
  { op: 'timeline', model: 'megatron-1t', hardware: 'a100-80gb', cluster: { gpus: 3072 },
    parallel: { tp: 8, pp: 64, global_batch: 3072 }, format: 'columns' },
]);

async function load(dir) {
  const glue = pathToFileURL(resolve(dir, `${name}.mjs`)).href;
  const wasmBinary = await readFile(resolve(dir, `${name}.wasm`));
  const t0 = performance.now();
  const engine = await engineLoader(null, () => import(`${glue}?${Math.random()}`))({ wasmBinary });
  return { engine, loadMs: performance.now() - t0 };
}

const median = (v) => [...v].sort((a, b) => a - b)[v.length >> 1];
const spread = (v) => `${Math.min(...v).toFixed(2)}–${Math.max(...v).toFixed(2)}`;
const results = new Map(); // label -> { A: [], B: [] }
const note = (label, side, ms) => {
  if (!results.has(label)) results.set(label, { A: [], B: [] });
  results.get(label)[side].push(ms);
};
const answers = { A: new Map(), B: new Map() };

async function measure(side, dir) {
  const { engine, loadMs } = await load(dir);
  note('load (instantiate)', side, loadMs);
  for (const [label, request] of cases[which]) {
    const text = JSON.stringify(request);
    let t0 = performance.now();
    const first = engine.callText(text);
    note(`${label}: first call`, side, performance.now() - t0);
    answers[side].set(label, first);
    const warm = [];
    const n = label.startsWith('moe_route') ? 10 : 200;
    for (let i = 0, spent = 0; i < n && (i < 5 || spent < 500); i += 1) { // 200 calls, or 5+ filling half a second
      t0 = performance.now();
      engine.callText(text);
      warm.push(performance.now() - t0);
      spent += warm.at(-1);
    }
    note(`${label}: warm (median of up to ${n})`, side, median(warm)); // one label whatever the count: A beside B
  }
  if (which === 'axes') {
    const warm = [];
    for (let i = 0; i < 10; i += 1) { // the skew slider: a new routing per move
      const t0 = performance.now();
      answers[side].set(`skew ${i}`, engine.callText(JSON.stringify(route(i / 10))));
      warm.push(performance.now() - t0);
    }
    note('moe_route, skew slider moves (median of 10)', side, median(warm));
  }
  if (which === 'step') {
    // The mfu figure per control move: resolve the change, then renew every control's offers (a memo per figure). Its
    // pure modules read the engine's lists first, as a widget's enginePresets() hands them over on a page.
    useEngineLists(engine.call({ op: 'presets' }));
    for (const preset of PRESETS) {
      const ask = makeAsker(engine);
      let split = presetSplit(preset);
      let t0 = performance.now();
      offered(ask, preset, split);
      note(`mfu figure ${preset.id}: first offers (fresh memo)`, side, performance.now() - t0);
      const moves = [];
      for (const tp of [2, 4, 8, 16]) {
        t0 = performance.now();
        const r = resolveMove(ask, preset, split, 'tp', tp);
        if (r) split = r.split;
        offered(ask, preset, split);
        moves.push(performance.now() - t0);
      }
      note(`mfu figure ${preset.id}: a tp move + offers (median of 4)`, side, median(moves));
    }
  }
}

for (let round = 0; round < rounds; round += 1) {
  const order = round % 2 ? [['B', dirB], ['A', dirA]] : [['A', dirA], ['B', dirB]];
  for (const [side, dir] of order) await measure(side, dir);
}
for (const [label, text] of answers.A) {
  if (answers.B.get(label) !== text) throw new Error(`${label}: the two builds answer differently`);
}
console.log(`${name}: A = ${dirA}, B = ${dirB}, ${rounds} rounds (ms: median, range; answers byte-identical)`);
for (const [label, { A, B }] of results) {
  console.log(`${label.padEnd(58)} A ${median(A).toFixed(2).padStart(8)} (${spread(A)})  B ${median(B).toFixed(2).padStart(8)} (${spread(B)})  B/A ${(median(B) / median(A)).toFixed(2)}`);
}
