// The first figure's critical path, cold, round by round: a CDP trace and a CPU profile of each cold load of the
// article (as tests/bench/reader.mjs loads it), reduced to milestones (ms from navigation: the page's bytes, the first
// layout, the bundle's compile and evaluation, the wasm's download and compile, the widget's set-up, its engine calls,
// its first frame) and the time inside each. A diagnostic, not a bench figure: `node tests/bench/first-path.mjs
// [DIST=dist] [ROUNDS=4] [chromium --js-flags, e.g. --no-wasm-lazy-compilation]`. Function names need a readable build
// (PARASCOPE_NO_MINIFY=1 bash scripts/build); minified, the engine calls are still found by the wasm's own frames.
// FIRST_PATH_LEAVES=1 also lists the set-up's JavaScript by the function its samples were in. Traced and profiled loads
// run slower than the bench's: read the shares and the counts, and time a change with compare.mjs (paired).
import { chromium } from 'playwright-core';
import { fileURLToPath } from 'node:url';

import { serve } from '../../scripts/serve.mjs';
import { median, recorder } from './reader.mjs';

const [root = fileURLToPath(new URL('../../dist/', import.meta.url)), rounds = '4', jsFlags = ''] = process.argv.slice(2);
const CATEGORIES = 'devtools.timeline,v8,v8.execute,v8.wasm,blink,blink.user_timing,loading,disabled-by-default-v8.compile,'
  + 'disabled-by-default-devtools.timeline';

const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', headless: true,
  args: ['--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync',
    '--no-first-run', '--disable-quic', ...(jsFlags ? [`--js-flags=${jsFlags}`] : [])] });
const { server, url } = await serve({ root, port: 0 });

/** One cold load: { marks: { name: ms }, spans: { name: ms } }. */
async function coldLoad() {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  await context.addInitScript(recorder);
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  const events = [];
  cdp.on('Tracing.dataCollected', ({ value }) => events.push(...value));
  await cdp.send('Tracing.start', { categories: CATEGORIES, transferMode: 'ReportEvents' });
  await cdp.send('Profiler.enable');
  await cdp.send('Profiler.setSamplingInterval', { interval: 200 });
  await cdp.send('Profiler.start');
  await page.goto(url, { waitUntil: 'commit' });
  await page.waitForFunction(() => Object.keys(window.__bench.painted).length > 0, null, { timeout: 60000 });
  const { profile } = await cdp.send('Profiler.stop');
  const b = await page.evaluate(() => ({ bench: window.__bench, nav: performance.getEntriesByType('navigation')[0].toJSON(),
    res: performance.getEntriesByType('resource').map((r) => r.toJSON()),
    paint: performance.getEntriesByType('paint').map((p) => p.toJSON()) }));
  const done = new Promise((resolve) => { cdp.once('Tracing.tracingComplete', resolve); });
  await cdp.send('Tracing.end');
  await done;
  await context.close();

  const marks = {};
  const spans = {};
  const first = Math.min(...Object.values(b.bench.ready));
  marks['html response end'] = b.nav.responseEnd;
  marks['DOMContentLoaded'] = b.nav.domContentLoadedEventStart;
  for (const p of b.paint) marks[p.name] = p.startTime;
  const res = (re) => b.res.find((r) => re.test(r.name));
  for (const [label, re] of [['main bundle', /js\/main-/], ['page css', /css\/page-/], ['widget css', /css\/widget-/],
    ['wasm', /\.wasm$/]]) {
    const r = res(re);
    if (r) { marks[`${label} fetched from`] = r.startTime; marks[`${label} fetched by`] = r.responseEnd; }
  }
  marks['first figure ready'] = first;
  marks['first figure painted'] = Math.min(...Object.values(b.bench.painted));

  // Trace: the renderer main thread's events before the first figure, in ms from navigationStart (trace clock).
  const nav = events.find((e) => e.name === 'navigationStart' && e.args?.data?.isLoadingMainFrame && e.args?.data?.documentLoaderURL?.startsWith(url))
    ?? events.find((e) => e.name === 'navigationStart' && e.args?.data?.isLoadingMainFrame);
  const at = (e) => (e.ts - nav.ts) / 1000;
  const main = events.filter((e) => e.pid === nav.pid && e.tid === nav.tid && e.ph === 'X' && at(e) >= 0 && at(e) < first);
  const sum = (pred) => main.filter(pred).reduce((s, e) => s + e.dur / 1000, 0);
  const firstOf = (pred) => { const e = main.find(pred); return e ? [at(e), at(e) + e.dur / 1000] : null; };
  const layout = firstOf((e) => e.name === 'Layout');
  if (layout) { marks['first layout from'] = layout[0]; marks['first layout by'] = layout[1]; }
  const evalMain = main.find((e) => e.name === 'v8.evaluateModule');
  if (evalMain) { marks['bundle evaluated from'] = at(evalMain); marks['bundle evaluated by'] = at(evalMain) + evalMain.dur / 1000; }
  spans['main thread busy (tasks)'] = sum((e) => e.name === 'RunTask');
  spans['HTML parse'] = sum((e) => e.name === 'ParseHTML');
  spans['style sheets parsed'] = sum((e) => e.name === 'ParseAuthorStyleSheet');
  spans['style recalc'] = sum((e) => e.name === 'UpdateLayoutTree');
  spans['layout'] = sum((e) => e.name === 'Layout');
  spans['paint'] = sum((e) => e.name === 'Paint');
  spans['script compile'] = sum((e) => e.name === 'v8.compileModule' || e.name === 'v8.compile');
  spans['script evaluate (EvaluateScript)'] = sum((e) => e.name === 'EvaluateScript');
  spans['module evaluate'] = sum((e) => e.name === 'v8.evaluateModule');
  spans['wasm compile (main thread part)'] = sum((e) => e.name.startsWith('v8.wasm.compile'));
  spans['wasm instantiate'] = sum((e) => e.name === 'v8.newInstance' || e.name === 'v8.wasm.instantiate');
  spans['GC'] = sum((e) => /GC|Scavenge/.test(e.name) && !/V8\./.test(e.name));
  const wasmLazy = events.filter((e) => e.pid === nav.pid && e.tid === nav.tid && /wasm.*[Ll]azy|CompileLazy/.test(e.name));
  spans['wasm lazy compile (trace events)'] = wasmLazy.reduce((s, e) => s + (e.dur ?? 0) / 1000, 0);
  spans['wasm lazy compile count'] = wasmLazy.length;
  // JavaScript compiled on the page's thread: V8 compiles most functions on their first call (V8.CompileCode, which
  // holds that function's parse); the scripts' own top-level parse and compile run off it while they stream in.
  spans['js functions compiled on first call'] = sum((e) => e.name === 'V8.CompileCode');
  spans['js functions compiled, count'] = main.filter((e) => e.name === 'V8.CompileCode').length;
  spans['js compile off the page thread'] = events.filter((e) => e.pid === nav.pid && e.tid !== nav.tid && e.ph === 'X'
    && /^(BackgroundCompileTask::Run|V8\.CompileCodeBackground)$/.test(e.name) && at(e) >= 0 && at(e) < first)
    .reduce((s, e) => s + e.dur / 1000, 0);

  // Profile: inclusive time of the named steps until the first figure (sampled).
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const fn = (id) => byId.get(id).callFrame.functionName;
  const isWasm = (id) => byId.get(id).callFrame.url.includes('.wasm') || /^\$|^wasm-function/.test(fn(id));
  const STEPS = ['wrap', 'quickStart', 'readPresets', 'update', 'render', 'paintFigures', 'trafficTable', 'drawGrid',
    'staticText', 'axesView', 'setup', 'widgetTools', 'buildShell', 'registerWidgets', 'connectedCallback'];
  let t = (profile.startTime - nav.ts) / 1000;
  profile.samples.forEach((id, i) => {
    t += (profile.timeDeltas[i] ?? 0) / 1000;
    if (t < 0 || t > first) return;
    const ms = (profile.timeDeltas[i + 1] ?? profile.timeDeltas[i] ?? 0) / 1000;
    const seen = new Set();
    let inWasm = false;
    for (let a = id; a; a = parent.get(a)) {
      if (isWasm(a)) inWasm = true;
      const f = fn(a);
      if (STEPS.includes(f) && !seen.has(f)) { seen.add(f); spans[`js ${f}()`] = (spans[`js ${f}()`] ?? 0) + ms; }
    }
    if (inWasm) spans['inside wasm (samples)'] = (spans['inside wasm (samples)'] ?? 0) + ms;
    if (seen.has('setup')) {  // the widget's set-up, by what its samples were doing
      const leaf = byId.get(id).callFrame;
      const kind = inWasm ? 'engine (wasm, JSON in/out)'
        : /^(createElement|createElementNS|setAttribute|append|appendChild|replaceChildren|createTextNode|addEventListener|set textContent|toggleAttribute|removeAttribute|insertBefore|attachShadow)$/.test(leaf.functionName) ? 'DOM calls'
          : leaf.functionName === '(program)' ? 'browser (style, layout)' : leaf.functionName === '(garbage collector)' ? 'GC'
            : /^(parse|stringify)$/.test(leaf.functionName) ? 'JSON.parse/stringify' : 'other JS';
      spans[`  setup: ${kind}`] = (spans[`  setup: ${kind}`] ?? 0) + ms;
      if (kind === 'other JS' && process.env.FIRST_PATH_LEAVES) {
        const k = `    ${leaf.functionName || '(anonymous)'} ${leaf.url.split('/').pop()}:${leaf.lineNumber + 1}`;
        spans[k] = (spans[k] ?? 0) + ms;
      }
    }
    if (fn(id) === '(program)') spans['(program): browser work'] = (spans['(program): browser work'] ?? 0) + ms;
    if (fn(id) === '(garbage collector)') spans['(gc) samples'] = (spans['(gc) samples'] ?? 0) + ms;
  });
  return { marks, spans };
}

const runs = [];
try {
  for (let r = 0; r < Number(rounds); r += 1) {
    runs.push(await coldLoad());
    const m = runs.at(-1).marks;
    console.log(`round ${r + 1}: first figure ready ${m['first figure ready'].toFixed(0)} ms, painted ${m['first figure painted'].toFixed(0)} ms`);
  }
} finally {
  await browser.close();
  server.close();
}
const table = (kind) => {
  const keys = [...new Set(runs.flatMap((r) => Object.keys(r[kind])))];
  const rows = keys.map((k) => [k, runs.map((r) => r[kind][k]).filter((x) => x !== undefined)]);
  if (kind === 'marks') rows.sort((a, b) => median(a[1]) - median(b[1]));
  for (const [k, xs] of rows) {
    console.log(`  ${k.padEnd(36)} median ${median(xs).toFixed(1).padStart(7)}  [${xs.map((x) => x.toFixed(0)).join(' ')}]`);
  }
};
console.log(`\nmilestones, ms from navigation (${runs.length} cold loads${jsFlags ? `, --js-flags=${jsFlags}` : ''}):`);
table('marks');
console.log('\ntime spent before the first figure was ready (ms):');
table('spans');
