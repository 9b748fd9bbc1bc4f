// Before/after on a busy machine: one browser alternates between two built sites (ABBA order) for each reader
// measurement of tests/bench/reader.mjs, so both builds see the same load. Prints medians side by side.
// `node tests/bench/compare.mjs BEFORE_DIST AFTER_DIST [ROUNDS=3] [load,slider,ring]`
import { chromium } from 'playwright-core';

import { serve } from '../../scripts/serve.mjs';
import { loads, median, quantile, ringFrames, sliderPresses } from './reader.mjs';

const [beforeRoot, afterRoot, rounds = '3', what = 'load,slider,ring'] = process.argv.slice(2);
if (!beforeRoot || !afterRoot) throw new Error('usage: node tests/bench/compare.mjs BEFORE_DIST AFTER_DIST [ROUNDS] [load,slider,ring]');
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', headless: true,
  args: ['--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync',
    '--no-first-run', '--disable-quic'] });
const sites = {};
for (const [name, root] of [['before', beforeRoot], ['after', afterRoot]]) {
  const { server, url } = await serve({ root, port: 0 });
  sites[name] = { url, browser, root, server, first: [], all: [], slider: [], ring: [] };
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
