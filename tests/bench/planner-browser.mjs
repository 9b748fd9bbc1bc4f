// The planner as a reader runs it: <parascope-planner>'s search in its Web Worker in headless Chromium, timed on the
// page from the search starting to its answer arriving (and to the figure painted), with the worker's engine warm.
// tests/bench/run-web.mjs reports plan_*_browser_ms from it; alone, `node tests/bench/planner-browser.mjs [RUNS]
// [DIST ...]` measures one or more built sites in turn, a fresh page each round with 3 searches of each case
// (before/after on a busy machine), and prints each.
import { chromium } from 'playwright-core';

import { TEST_PAGES, serve } from '../../scripts/serve.mjs';
import { openPage, widgetReady } from '../browser/harness.mjs';
import { median } from './reader.mjs';

/** The two searches (issue 14), as the planner's inputs; the same requests as tests/bench/plan_bench.cpp. */
export const PLANNER_CASES = {
  plan_gpt3_175b_browser_ms: { model: 'gpt3-175b', hardware: 'a100-80gb', gpus: 1024, globalBatch: 1536, objective: 'mfu' },
  plan_megatron_1t_browser_ms: { model: 'megatron-1t', hardware: 'a100-80gb', gpus: 3072, globalBatch: 3072, objective: 'mfu' },
};

/**
 * One search of `inputs` in an open page's planner: { answered, painted } ms from its start, `searching` (the ms the
 * engine spent inside its slices, the answer's `elapsed`: the rest of `answered` is messages and the worker's pauses
 * between slices) and `evaluated`.
 */
function timeSearch(page, inputs) {
  return page.evaluate((inputs) => new Promise((resolve, reject) => {
    const el = document.querySelector('parascope-planner');
    const heard = el.heard; // the widget's own handler (its worker client calls this.heard)
    let answered = 0;
    const t0 = performance.now();
    el.heard = (state) => {
      if (state.phase === 'done' && !answered) answered = performance.now();
      heard.call(el, state);
      if (state.phase === 'done') {
        delete el.heard;
        resolve({ answered: answered - t0, painted: performance.now() - t0, evaluated: state.answer.evaluated,
          searching: state.answer.elapsed * 1000 });
      } else if (state.phase === 'error') {
        delete el.heard;
        reject(new Error(`the search stopped: ${state.error.message}`));
      }
    };
    el.inputs = { ...el.inputs, ...inputs };
    el.search();
  }), inputs);
}

/**
 * Each case searched `runs` times on one page of `site` (after the page's own first search, which loads the worker's
 * engine): { key: { min, median, runs: [answered ms], painted_min, evaluated } }.
 */
export async function plannerSearches(site, runs = 3) {
  const { page, context, problems } = await openPage(site, 'tests/planner.html', { width: 1280 });
  try {
    await widgetReady(page, 'parascope-planner');
    await page.waitForFunction(() => !document.querySelector('parascope-planner').hasAttribute('data-searching'),
      null, { timeout: 120000 });
    const out = {};
    for (const [key, inputs] of Object.entries(PLANNER_CASES)) {
      const times = [];
      for (let i = 0; i < runs; i += 1) times.push(await timeSearch(page, inputs));
      const answered = times.map((t) => t.answered);
      out[key] = { min: Math.min(...answered), median: median(answered), runs: answered,
        painted_min: Math.min(...times.map((t) => t.painted)), searching_min: Math.min(...times.map((t) => t.searching)),
        evaluated: times[0].evaluated };
    }
    if (problems.length) throw new Error(`the planner page reported problems: ${problems.join('; ')}`);
    return out;
  } finally {
    await context.close();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const [runs = '3', ...roots] = process.argv.slice(2);
  const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', headless: true,
    args: ['--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync',
      '--no-first-run', '--disable-quic'] });
  const sites = [];
  try {
    for (const root of roots.length ? roots : [undefined]) {
      const { server, url } = await serve({ ...(root ? { root } : {}), port: 0, testPages: TEST_PAGES });
      sites.push({ name: root ?? 'dist', url, browser, server, results: [] });
    }
    // Alternate the sites round by round, so a drifting machine load falls on each alike.
    for (let round = 0; round < Number(runs); round += 1) {
      for (const s of round % 2 ? [...sites].reverse() : sites) s.results.push(await plannerSearches(s, 3));
    }
    for (const s of sites) {
      for (const key of Object.keys(PLANNER_CASES)) {
        const ms = s.results.map((r) => r[key].min);  // each round's best of its 3
        const engine = Math.min(...s.results.map((r) => r[key].searching_min));
        console.log(`${s.name}: ${key} min ${Math.min(...ms).toFixed(0)} ms, median ${median(ms).toFixed(0)} ms `
          + `[${ms.map((x) => x.toFixed(0)).join(' ')}] (engine inside its slices: min ${engine.toFixed(0)} ms), `
          + `evaluated ${s.results[0][key].evaluated}`);
      }
    }
  } finally {
    await browser.close();
    for (const s of sites) s.server.close();
  }
}
