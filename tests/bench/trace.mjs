// Where a missed budget's time goes, from Chromium's own trace (CDP Tracing), taken exactly as tests/bench/reader.mjs
// measures: `load` lists the page thread's long tasks from navigation to the first figure drawn, with their biggest
// parts (parsing, layout, module evaluation, wasm compiling, widget setup); `slider` splits each real key press into
// the input handler, the wait for the frame and that frame's own work (style, layout, paint, commit), and names the
// script behind any style or layout forced before the frame (in the first draw and in the key handler).
// `node tests/bench/trace.mjs load|slider` (on the built dist/; run `bash scripts/build` first).
import { startSite } from '../browser/harness.mjs';
import { quantile, sliderPresses } from './reader.mjs';

const what = process.argv[2] ?? 'load';
const CATEGORIES = 'devtools.timeline,v8,v8.execute,blink,blink.user_timing,loading,cc,disabled-by-default-devtools.timeline,'
  + 'disabled-by-default-devtools.timeline.stack';

/** Starts tracing on `page`; the returned function stops it and resolves to the trace events. */
async function trace(page) {
  const cdp = await page.context().newCDPSession(page);
  const events = [];
  cdp.on('Tracing.dataCollected', ({ value }) => events.push(...value));
  await cdp.send('Tracing.start', { categories: CATEGORIES, transferMode: 'ReportEvents' });
  return async () => {
    const done = new Promise((resolve) => { cdp.once('Tracing.tracingComplete', resolve); });
    await cdp.send('Tracing.end');
    await done;
    return events;
  };
}

/** The complete ('X') events of the renderer's main thread that ran `marker` (an event name). */
function mainThread(events, marker) {
  const hit = events.find(marker);
  return events.filter((e) => e.pid === hit.pid && e.tid === hit.tid && e.ph === 'X');
}

const ms = (us) => (us / 1000).toFixed(1).padStart(7);
/** The script that made Chromium lay out (or restyle) the page at once: its top frames, or '' (the frame's own). */
const forcedBy = (e) => (e.args?.beginData?.stackTrace ?? e.args?.data?.stackTrace ?? []).slice(0, 3)
  .map((f) => `${f.functionName || '(anonymous)'}:${f.lineNumber}`).join(' < ');
const inside = (outer, e) => e !== outer && e.ts >= outer.ts && e.ts + (e.dur ?? 0) <= outer.ts + outer.dur;

const site = await startSite();
try {
  if (what === 'load') {
    const context = await site.browser.newContext({ viewport: { width: 1280, height: 800 } });
    await context.addInitScript(() => {
      window.__ready = {};
      document.addEventListener('parascope-ready', (e) => { window.__ready[e.target.localName] ??= performance.now(); }, true);
    });
    const page = await context.newPage();
    const stop = await trace(page);
    await page.goto(site.url, { waitUntil: 'commit' });
    await page.waitForFunction(() => Object.keys(window.__ready).length > 0, null, { timeout: 60000 });
    const ready = await page.evaluate(() => window.__ready);
    const events = await stop();
    await context.close();
    const start = events.find((e) => e.name === 'navigationStart' && e.args?.data?.isLoadingMainFrame) ?? events.find((e) => e.name === 'navigationStart');
    const main = mainThread(events, (e) => e === start).filter((e) => e.ts >= start.ts);
    const first = Math.min(...Object.values(ready));
    console.log(`cold load: first figure drawn at ${first.toFixed(0)} ms (${Object.keys(ready).join(', ')})`);
    console.log('page thread tasks over 8 ms until then (ms from navigation, duration), with their parts over 3 ms:');
    let busy = 0;
    for (const task of main.filter((e) => e.name === 'RunTask' && e.dur > 8000 && (e.ts - start.ts) / 1000 < first)) {
      busy += task.dur;
      console.log(`  @${ms(task.ts - start.ts)} ${ms(task.dur)} ms task`);
      const parts = main.filter((e) => inside(task, e) && e.dur > 3000 && e.name !== 'RunTask');
      for (const p of parts.slice(0, 8)) {
        const detail = p.args?.data?.url ?? p.args?.data?.type ?? '';
        console.log(`      ${ms(p.dur)} ms ${p.name} ${String(detail).split('/').pop()}`);
      }
    }
    console.log(`  busy in those tasks: ${ms(busy)} ms of ${first.toFixed(0)} ms`);
    console.log('style, layout, parsing and compiling over 1.5 ms until then (forced by script: the script named):');
    const named = ['Layout', 'UpdateLayoutTree', 'ParseAuthorStyleSheet', 'EvaluateScript', 'v8.evaluateModule',
      'v8.wasm.compileConsume', 'Paint'];
    for (const e of main.filter((x) => named.includes(x.name) && x.dur > 1500 && (x.ts - start.ts) / 1000 < first)) {
      const what = String(e.args?.data?.url ?? e.args?.data?.styleSheetUrl ?? '').split('/').pop();
      console.log(`  @${ms(e.ts - start.ts)} ${ms(e.dur)} ms ${e.name} ${what} ${forcedBy(e)}`);
    }
  } else if (what === 'slider') {
    let stop;
    let events;
    const s = await sliderPresses(site, 40, {
      start: async (page) => { stop = await trace(page); },
      stop: async () => { events = await stop(); },
    });
    console.log(`slider: key press -> next frame p50 ${quantile(s.times, 0.5).toFixed(1)} ms, p95 ${quantile(s.times, 0.95).toFixed(1)} ms`);
    const keys = events.filter((e) => e.name === 'EventDispatch' && e.args?.data?.type === 'keydown');
    const main = mainThread(events, (e) => e === keys[0]);
    const frames = main.filter((e) => e.name === 'ProxyMain::BeginMainFrame').sort((a, b) => a.ts - b.ts);
    const parts = ['FireAnimationFrame', 'UpdateLayoutTree', 'Layout', 'PrePaint', 'Paint', 'Layerize', 'Commit'];
    const sums = new Map();
    const add = (k, v) => sums.set(k, (sums.get(k) ?? 0) + v);
    const forced = new Map();  // style and layout a handler forced, by the script that forced it
    let n = 0;
    for (const key of keys) {
      const frame = frames.find((f) => f.ts >= key.ts + key.dur);
      if (!frame) continue;
      n += 1;
      add('key press handled (input event: engine call, redraw, DOM)', key.dur);
      for (const e of main) {
        if ((e.name === 'Layout' || e.name === 'UpdateLayoutTree') && inside(key, e)) {
          const k = `${e.name} forced by ${forcedBy(e) || '?'}`;
          forced.set(k, (forced.get(k) ?? 0) + e.dur);
        }
      }
      add('wait from the handler to the next frame', frame.ts - key.ts - key.dur);
      add('that frame on the page thread', frame.dur);
      for (const e of main) if (parts.includes(e.name) && inside(frame, e)) add(`  ${e.name}`, e.dur);
    }
    console.log(`each key press, the mean over ${n}:`);
    for (const [k, v] of sums) console.log(`  ${ms(v / n)} ms  ${k}`);
    console.log('style and layout forced inside the handler (a frame does them anyway: each is work done twice):');
    if (!forced.size) console.log('  none');
    for (const [k, v] of forced) console.log(`  ${ms(v / n)} ms  ${k}`);
  } else {
    throw new Error(`trace what? load or slider (got ${what})`);
  }
} finally {
  await site.close();
}
