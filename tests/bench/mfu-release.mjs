#!/usr/bin/env node
// The mfu figure's work when a control is released, in node on the step module (dist/wasm/parascope-step-engine):
// resolve the move, ask the new split's step, renew every control's offers. Two paths, paired: "check" (the figure's,
// mfu-split.js: candidates asked as step_check) and "step" (the one before it, tests/js/mfu-split-by-step.mjs: every
// candidate asked as a whole step). Per preset, from its start, each control in turn moves to its next offered value
// (8 releases, each to a split not seen before). Each round loads a fresh engine per path (no schedule compiled by
// the other), alternating which goes first; prints per preset the median and the worst release of each round, as
// min / median over rounds, and checks both paths release to the same splits with the same offers.
// `node tests/bench/mfu-release.mjs [rounds, default 6]` (after scripts/build).
import { readFile } from 'node:fs/promises';

import { engineLoader } from '../../web/lib/engine.js';
import { PRESETS } from '../../web/widgets/mfu/model/presets.js';
import { makeAsker } from '../../web/widgets/mfu/model/asker.js';
import { KEYS, offered, presetSplit, resolve, settle, stepRequest } from '../../web/widgets/mfu/model/split.js';
import { offeredByStep, resolveByStep, settleByStep } from '../js/mfu-split-by-step.mjs';

const rounds = Number(process.argv[2] ?? 6);
const dist = new URL('../../dist/wasm/', import.meta.url);
const name = 'parascope-step-engine';
const wasmBinary = await readFile(new URL(`${name}.wasm`, dist));
const load = () => engineLoader(null, () => import(`${new URL(`${name}.mjs`, dist)}?${Math.random()}`))({ wasmBinary });

const PATHS = {
  check: { settle, resolve, offered },
  step: { settle: settleByStep, resolve: resolveByStep, offered: offeredByStep },
};

/** The releases of one preset on a fresh engine: ms each, and the offers after each (to compare the paths). */
async function releases(path, preset) {
  const { settle: start, resolve: move, offered: offers } = PATHS[path];
  const ask = makeAsker(await load());
  let split = start(ask, preset, presetSplit(preset)).split;
  let shown = offers(ask, preset, split); // the first render (not a release)
  const ms = [];
  const seen = [];
  for (const key of KEYS) {
    const values = shown[key];
    const at = values.indexOf(split[key]);
    const value = values[at + 1] ?? values[at - 1];
    if (value === undefined) continue; // a control with one value offers no move
    const t0 = performance.now();
    const r = move(ask, preset, split, key, value);
    split = r.split;
    ask(stepRequest(preset, split)); // the figure paints the new split's answer
    shown = offers(ask, preset, split);
    ms.push(performance.now() - t0);
    seen.push(JSON.stringify([split, shown]));
  }
  return { ms, seen };
}

const median = (v) => [...v].sort((a, b) => a - b)[v.length >> 1];
const results = new Map(); // preset -> path -> { median: [], worst: [] }
for (let round = 0; round < rounds; round += 1) {
  for (const preset of PRESETS) {
    const order = round % 2 ? ['step', 'check'] : ['check', 'step'];
    const seen = {};
    for (const path of order) {
      const { ms, seen: s } = await releases(path, preset);
      seen[path] = s;
      if (!results.has(preset.id)) results.set(preset.id, { check: { median: [], worst: [] }, step: { median: [], worst: [] } });
      results.get(preset.id)[path].median.push(median(ms));
      results.get(preset.id)[path].worst.push(Math.max(...ms));
    }
    if (JSON.stringify(seen.check) !== JSON.stringify(seen.step)) {
      throw new Error(`${preset.id}: the two paths released to different splits or offers`);
    }
  }
}
const f = (v) => `${Math.min(...v).toFixed(2).padStart(7)} / ${median(v).toFixed(2).padStart(7)}`;
console.log(`mfu release (resolve + step + offers), ${name}, ${rounds} rounds, ms as min / median over rounds; `
  + 'the same splits and offers on both paths');
console.log(`${'preset'.padEnd(14)} ${'step: median release'.padStart(21)} ${'worst release'.padStart(17)}   `
  + `${'check: median release'.padStart(21)} ${'worst release'.padStart(17)}`);
for (const [id, r] of results) {
  console.log(`${id.padEnd(14)} ${f(r.step.median).padStart(21)} ${f(r.step.worst).padStart(17)}   `
    + `${f(r.check.median).padStart(21)} ${f(r.check.worst).padStart(17)}`);
}
