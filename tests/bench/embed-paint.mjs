// First paint of figures embedded alone, two built sites compared: paired cold loads of embed.html#widget=<name> from
// each (alternating which goes first), ms from navigation to the figure's first painted frame (reader.mjs's recorder),
// median of N. For a change to the embed route: node tests/bench/embed-paint.mjs BEFORE AFTER [memory,axes] [ROUNDS=8]
import { resolve } from 'node:path';
import { chromium } from 'playwright-core';

import { serve } from '../../scripts/serve.mjs';
import { median, recorder } from './reader.mjs';

const [before, after, figures = 'memory,axes,step', rounds = '8'] = process.argv.slice(2);
if (!before || !after) throw new Error('usage: embed-paint.mjs BEFORE_DIST AFTER_DIST [FIGURES] [ROUNDS]');

/** One cold load of `name` embedded alone from `site`: ms to its first painted frame. */
async function coldPaint(browser, site, name) {
  const context = await browser.newContext({ viewport: { width: 800, height: 900 } });
  try {
    await context.addInitScript(recorder);
    const page = await context.newPage();
    await page.goto(`${site.url}embed.html#widget=${name}`);
    const tag = `parascope-${name}`;
    await page.waitForFunction((t) => window.__bench.painted[t] > 0, tag, { timeout: 60000 });
    return await page.evaluate((t) => window.__bench.painted[t], tag);
  } finally {
    await context.close();
  }
}

const sites = await Promise.all([before, after].map((root) => serve({ root: resolve(root), port: 0 })));
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', headless: true, args: ['--disable-gpu'] });
try {
  for (const name of figures.split(',')) {
    const times = [[], []];
    for (let r = 0; r < Number(rounds); r += 1) {
      for (const i of r % 2 ? [1, 0] : [0, 1]) times[i].push(await coldPaint(browser, sites[i], name));
    }
    const [b, a] = times.map((t) => Math.round(median(t)));
    console.log(`${name}: before ${b} ms, after ${a} ms (medians of ${rounds}; ${JSON.stringify(times.map((t) => t.map(Math.round)))})`);
  }
} finally {
  await browser.close();
  for (const s of sites) s.server.close();
}
