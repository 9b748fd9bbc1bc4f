// Before/after on a busy machine: one browser alternates between two built sites (ABBA order) for each reader
// measurement of tests/bench/reader.mjs, so both builds see the same load. Prints medians side by side, and for the
// traced presses (press-cost.mjs: the floor's bare slider, the memory figure's stage slider at its start and at 64 x 512,
// the context figure's cp and sequence sliders and each cp's first visit) p50 and p95 of each build's presses and of
// each round's pair.
// `node tests/bench/compare.mjs BEFORE_DIST AFTER_DIST [ROUNDS=3] [load,slider,ring,floor,memory,memory-heavy,context-cp,context-sequence,context-first]`
import { chromium } from 'playwright-core';

import { serve } from '../../scripts/serve.mjs';
import { firstVisits, presses as contextPresses } from './context.bench.mjs';
import { HEAVY, stageCosts } from './memory.bench.mjs';
import { pressCost } from './press-cost.mjs';
import { bareSliderPresses, loads, median, quantile, ringFrames, sliderPresses } from './reader.mjs';

/** The traced presses each build is timed on: name -> (site) => each press's cost in ms. */
const PRESSES = {
  floor: async (site) => {
    const cost = pressCost();
    await bareSliderPresses(site, 40, cost.hooks);
    return cost.ms();
  },
  memory: (site) => stageCosts(site, '#memory', 40),
  'memory-heavy': (site) => stageCosts(site, HEAVY, 40),
  'context-cp': (site) => contextPresses(site, 'cp', 40),
  'context-sequence': (site) => contextPresses(site, 'sequence', 40),
  'context-first': async (site) => (await firstVisits(site, 2)).map((f) => f.ms),
};

const [beforeRoot, afterRoot, rounds = '3', what = 'load,slider,ring'] = process.argv.slice(2);
if (!beforeRoot || !afterRoot) throw new Error('usage: node tests/bench/compare.mjs BEFORE_DIST AFTER_DIST [ROUNDS] [load,slider,ring]');
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', headless: true,
  args: ['--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync',
    '--no-first-run', '--disable-quic'] });
const sites = {};
for (const [name, root] of [['before', beforeRoot], ['after', afterRoot]]) {
  const { server, url } = await serve({ root, port: 0 });
  sites[name] = { url, browser, root, server, first: [], all: [], slider: [], ring: [], presses: {} };
}
try {
  for (let r = 0; r < Number(rounds); r += 1) {
    for (const name of r % 2 ? ['after', 'before'] : ['before', 'after']) {
      const s = sites[name];
      if (what.includes('load')) {
        const l = await loads(s, 1);
        s.first.push(l.cold[0].first);
        s.all.push(l.cold[0].all);
      }
      if (what.includes('slider')) s.slider.push(...(await sliderPresses(s, 40)).times);
      if (what.includes('ring')) s.ring.push((await ringFrames(s, 4)).fraction);
      for (const [key, measure] of Object.entries(PRESSES)) {
        if (!what.split(',').includes(key)) continue;
        (s.presses[key] ??= []).push(await measure(s));
      }
    }
  }
} finally {
  await browser.close();
  for (const s of Object.values(sites)) s.server.close();
}
const ms = (x) => (x === undefined ? '-' : `${x.toFixed(0)} ms`);
for (const name of ['before', 'after']) {
  const s = sites[name];
  console.log(`${name.padEnd(7)} first figure ${ms(median(s.first))} [${s.first.map((x) => x.toFixed(0)).join(' ')}]`
    + `, all drawn ${ms(median(s.all))}; slider p50 ${ms(quantile(s.slider, 0.5))} p95 ${ms(quantile(s.slider, 0.95))}`
    + ` (${s.slider.length} presses); ring dropped ${s.ring.map((x) => `${(100 * x).toFixed(1)} %`).join(', ')}`);
}
const q = (xs, p) => (xs.length ? quantile(xs, p).toFixed(1) : '-');
for (const key of Object.keys(PRESSES)) {
  const [b, a] = [sites.before.presses[key], sites.after.presses[key]];
  if (!b) continue;
  const pairs = b.map((x, i) => `${q(x, 0.95)}/${q(a[i], 0.95)}`).join(' ');
  console.log(`${key.padEnd(17)} before p50 ${q(b.flat(), 0.5)} p95 ${q(b.flat(), 0.95)} ms, after p50 ${q(a.flat(), 0.5)}`
    + ` p95 ${q(a.flat(), 0.95)} ms (${a.flat().length} presses each); p95 per round before/after: ${pairs}`);
}
