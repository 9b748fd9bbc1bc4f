// What a reader feels, measured in headless Chromium on the served dist/: cold and warm loads of the article (time to
// the first and to every figure drawn while scrolling through, layout shift, bytes of every file the browser asked
// for), each widget embedded alone, real key presses on the bubble's slider to the next frame, and the ring's
// animation frames. Each function returns plain numbers; tests/bench/run-web.mjs reports them. Each takes optional
// hooks { start(page), stop(page) } around what it measures (tests/bench/profile.mjs records a CPU profile there).
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';

import { serve } from '../../scripts/serve.mjs';
import { FIGURES } from '../../web/widgets/index.js';

export const WIDGETS = ['parascope-axes', 'parascope-ring', 'parascope-bubble', 'parascope-mfu'];

export const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor((xs.length - 1) / 2)];
export const quantile = (xs, q) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(q * xs.length))];

/** Installed before any page script: when each widget is drawn, and Chromium's layout shifts not caused by input. */
export function recorder() {
  window.__bench = { ready: {}, painted: {}, shift: 0 };
  document.addEventListener('parascope-ready', (e) => {
    const name = e.target.localName;
    if (name in window.__bench.ready) return;
    window.__bench.ready[name] = performance.now();
    // Its pixels: the end of the next frame's work (rAF, then the first task after it: a user-blocking one where the
    // browser has them, so that a timer the page set for later, e.g. the axes' routing, does not run first).
    requestAnimationFrame(() => {
      const mark = () => { window.__bench.painted[name] = performance.now(); };
      if (globalThis.scheduler?.postTask) globalThis.scheduler.postTask(mark, { priority: 'user-blocking' });
      else {
        const channel = new MessageChannel();
        channel.port1.onmessage = mark;
        channel.port2.postMessage(0);
      }
    });
  }, true);
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) if (!entry.hadRecentInput) window.__bench.shift += entry.value;
  }).observe({ type: 'layout-shift', buffered: true });
}

/**
 * What the page really fetched over the network (Chromium's own log, so files served from its cache do not count):
 * returns an async function listing { path, status, wire (bytes received), gzip (gzip -9 of the body) }.
 */
async function watchRequests(page, origin) {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Network.enable');
  const seen = new Map();
  const bodies = [];
  cdp.on('Network.responseReceived', ({ requestId, response }) => {
    const url = new URL(response.url);
    if (url.origin !== origin) return;
    seen.set(requestId, { path: url.pathname, status: response.status, cached: response.fromDiskCache || response.fromPrefetchCache, wire: 0, gzip: 0 });
  });
  cdp.on('Network.requestServedFromCache', ({ requestId }) => {
    if (seen.has(requestId)) seen.get(requestId).cached = true;
  });
  cdp.on('Network.loadingFinished', ({ requestId, encodedDataLength }) => {
    const r = seen.get(requestId);
    if (!r) return;
    r.wire = encodedDataLength;
    if (r.status === 200 && !r.cached) {
      bodies.push(cdp.send('Network.getResponseBody', { requestId }).then(({ body, base64Encoded }) => {
        r.gzip = gzipSync(Buffer.from(body, base64Encoded ? 'base64' : 'utf8'), { level: 9 }).length;
      }).catch(() => {}));
    }
  });
  return async () => {
    await Promise.all(bodies);
    return [...seen.values()].filter((r) => !r.cached);
  };
}

/** Scrolls the page to the bottom in steps of 0.8 viewport, one per frame (a quick fling: every figure passes by). */
async function scrollThrough(page) {
  await page.evaluate(() => new Promise((resolve) => {
    const step = () => {
      if (scrollY >= document.documentElement.scrollHeight - innerHeight - 1) resolve();
      else {
        scrollBy(0, innerHeight * 0.8);
        requestAnimationFrame(step);
      }
    };
    requestAnimationFrame(step);
  }));
}

const allReady = (page) => page.waitForFunction((names) => names.every((n) => window.__bench.ready[n] !== undefined),
  WIDGETS, { timeout: 60000 });

/**
 * Loads the article `runs` times, each in a fresh browser context (empty cache) and then once more in the same context
 * (warm: cached files, compiled code). Per load: first figure drawn (its parascope-ready) and the end of the frame
 * that paints it, all drawn (ms from navigation), layout shift.
 */
export async function loads(site, runs = 4, { width = 1280, height = 800, hooks = {} } = {}) {
  const origin = new URL(site.url).origin;
  const out = { cold: [], warm: [] };
  for (let i = 0; i < runs; i += 1) {
    const context = await site.browser.newContext({ viewport: { width, height } });
    await context.addInitScript(recorder);
    for (const kind of ['cold', 'warm']) {
      const page = await context.newPage();
      const requests = await watchRequests(page, origin);
      await hooks.start?.(page, kind);
      await page.goto(site.url, { waitUntil: 'commit' });
      await page.waitForFunction(() => Object.keys(window.__bench.ready).length > 0, null, { timeout: 60000 });
      await hooks.stop?.(page, kind);
      await scrollThrough(page);
      await allReady(page);
      await page.waitForTimeout(300);
      const b = await page.evaluate(() => window.__bench);
      await page.waitForLoadState('load');
      const times = Object.values(b.ready);
      out[kind].push({ first: Math.min(...times), firstPainted: Math.min(...Object.values(b.painted)), all: Math.max(...times),
        shift: b.shift, requests: await requests() });
      await page.close();
    }
    await context.close();
  }
  return out;
}

/** The blank page of blankLoads: no text, no style, one tiny module script (the article's script is a module too). */
const BLANK_HTML = '<!doctype html><html lang="en"><head><meta charset="utf-8">'
  + '<meta name="viewport" content="width=device-width, initial-scale=1"><title>blank</title><link rel="icon" href="data:,">'
  + '<script type="module" src="blank.js"></script></head><body><bench-parsed></bench-parsed><bench-frame></bench-frame></body></html>';
/** Its script: a parascope-ready from <bench-parsed> at DOMContentLoaded and from <bench-frame> in the first frame. */
const BLANK_JS = `const ready = (tag) => document.querySelector(tag).dispatchEvent(new CustomEvent('parascope-ready', { bubbles: true }));
document.addEventListener('DOMContentLoaded', () => ready('bench-parsed'));
requestAnimationFrame(() => ready('bench-frame'));
`;

/**
 * The floor of loads()' first figure in this browser on this machine: a blank page (no widget, no text; served by
 * scripts/serve.mjs like the site, from a folder of its own) loaded the same way, cold, each time in a fresh context,
 * and its parascope-ready-like events timed by the same recorder. No page can draw a figure before its own
 * DOMContentLoaded (a widget could at the earliest draw in the module script that runs just before it), and none is
 * painted before its first frame: returns { parsed: [ms to DOMContentLoaded], frame: [ms to the first rAF] }.
 */
export async function blankLoads(site, runs = 4, { width = 1280, height = 800 } = {}) {
  const root = await mkdtemp(join(tmpdir(), 'parascope-blank-'));
  const out = { parsed: [], frame: [] };
  let server = null;
  try {
    await writeFile(join(root, 'index.html'), BLANK_HTML);
    await writeFile(join(root, 'blank.js'), BLANK_JS);
    let url;
    ({ server, url } = await serve({ root, port: 0 }));
    for (let i = 0; i < runs; i += 1) {
      const context = await site.browser.newContext({ viewport: { width, height } });
      await context.addInitScript(recorder);
      const page = await context.newPage();
      await page.goto(url, { waitUntil: 'commit' });
      await page.waitForFunction(() => ['bench-parsed', 'bench-frame'].every((n) => window.__bench.ready[n] !== undefined),
        null, { timeout: 60000 });
      const { ready } = await page.evaluate(() => window.__bench);
      out.parsed.push(ready['bench-parsed']);
      out.frame.push(ready['bench-frame']);
      await context.close();
    }
  } finally {
    if (server) await new Promise((resolve) => { server.close(resolve); });
    await rm(root, { recursive: true, force: true });
  }
  return out;
}

/** Every widget the iframe route (embed.html#widget=…) can show: the article's four figures and the planner. */
/** Every figure embedded alone (the registry's list: web/widgets/index.js), not only the four the frames are timed on. */
export const EMBED_WIDGETS = FIGURES.map((f) => f.tag);

/**
 * Each widget embedded alone, cold: the iframe route (embed.html#widget=<name>, the widget's own defaults) in a fresh
 * context, until the widget is drawn and the network is quiet. Returns { widget: { files, gzip } }: every file the
 * browser asked for and the sum of their gzip -9 sizes.
 */
export async function embeds(site, names = EMBED_WIDGETS) {
  const origin = new URL(site.url).origin;
  const out = {};
  for (const name of names) {
    const context = await site.browser.newContext({ viewport: { width: 1000, height: 900 } });
    await context.addInitScript(recorder);
    const page = await context.newPage();
    const requests = await watchRequests(page, origin);
    await page.goto(new URL(`embed.html#widget=${name.replace(/^parascope-/, '')}`, site.url).href);
    await page.waitForFunction((n) => window.__bench.ready[n] !== undefined, name, { timeout: 60000 });
    await page.waitForLoadState('networkidle');
    const fetched = await requests();
    out[name] = { files: fetched.map((r) => r.path), gzip: fetched.reduce((a, r) => a + r.gzip, 0),
      bytes: Object.fromEntries(fetched.map((r) => [r.path, r.gzip])) };
    await context.close();
  }
  return out;
}

/**
 * Installed in a page: per keydown, into window.__keys, { t0: its time stamp, latency: from it to the end of the next
 * frame's work (rAF, then the first task after it, a user-blocking one where the browser has them) } in ms. That end
 * is as late as the probe task runs: after a frame that began late, Chromium's scheduler can hold it past the next
 * frame, so for what a press costs the page, tests/bench/press-cost.mjs reads the trace instead.
 */
export function timeKeys() {
  window.__keys = [];
  window.addEventListener('keydown', (e) => {
    const t0 = e.timeStamp;
    requestAnimationFrame(() => {
      const done = () => window.__keys.push({ t0, latency: performance.now() - t0 });
      if (globalThis.scheduler?.postTask) globalThis.scheduler.postTask(done, { priority: 'user-blocking' });
      else {
        const channel = new MessageChannel();
        channel.port1.onmessage = done;
        channel.port2.postMessage(0);
      }
    });
  }, true);
}

/** The presses timePresses makes first and leaves out (window.__keys still lists them). */
export const WARM_UP_PRESSES = 4;

/** Presses ← then → on the focused `slider` (a locator), each timed by timeKeys; the first 4 are warm-up. */
export async function timePresses(page, slider, presses, hooks) {
  await page.evaluate(timeKeys);
  await slider.focus();
  await hooks.start?.(page);
  for (let i = 0; i < presses + WARM_UP_PRESSES; i += 1) {
    await page.keyboard.press(i % 2 ? 'ArrowRight' : 'ArrowLeft');
    await page.waitForFunction((n) => window.__keys.length >= n, i + 1);
    await page.waitForTimeout(30);
  }
  await hooks.stop?.(page);
  return (await page.evaluate(() => window.__keys.map((k) => k.latency))).slice(WARM_UP_PRESSES);
}

/**
 * The bubble at 32 stages x 128 microbatches, interleaved, v = 4: real key presses (the driver's keyboard, ← then → on
 * the chunks slider, 4 <-> 3) to the end of the next frame's work (rAF, then the task after it: style, layout and paint
 * of that frame are done), measured from the key event's own time stamp, so waiting for a busy main thread counts.
 */
export async function sliderPresses(site, presses = 80, hooks = {}) {
  const context = await site.browser.newContext({ viewport: { width: 1000, height: 900 } });
  await context.addInitScript(recorder);
  const page = await context.newPage();
  await page.goto(`${site.url}#bubble`);
  await page.waitForFunction(() => window.__bench.ready['parascope-bubble'] !== undefined, null, { timeout: 60000 });
  await page.evaluate(() => {
    const widget = document.querySelector('parascope-bubble');
    const root = widget.shadowRoot;
    const set = (name, value, type = 'input') => {
      const el = root.querySelector(`[name="${name}"]`);
      if (el.type === 'checkbox') el.checked = value;
      else el.value = String(value);
      el.dispatchEvent(new Event(type, { bubbles: true }));
    };
    set('forward-only', false, 'change');
    set('schedule', 'interleaved', 'change');
    set('stages', 32);
    set('microbatches', 128);
    set('chunks', 4);
    widget.scrollIntoView({ block: 'center' });
  });
  const check = await page.evaluate(() => {
    const w = document.querySelector('parascope-bubble');
    return { stages: w.result.stages, ops: w.result.ops.microbatch.length, chunks: w.shadowRoot.querySelector('[name="chunks"]').value };
  });
  const times = await timePresses(page, page.locator('parascope-bubble').locator('input[name="chunks"]'), presses, hooks);
  const refused = await page.evaluate(() => !!document.querySelector('parascope-bubble').shadowRoot.querySelector('[data-note="engine"]'));
  await context.close();
  if (refused) throw new Error('the bubble refused a timed setting');
  return { times, ...check };
}

/**
 * The same presses, timed the same way, on a bare range input whose input handler only writes its value into the
 * page: the floor of that measurement in this browser on this machine. A key press lands anywhere in the display's
 * 16.7 ms frame interval and is shown at the next frame, so even a slider that does nothing waits for it.
 */
export async function bareSliderPresses(site, presses = 80, hooks = {}) {
  const context = await site.browser.newContext({ viewport: { width: 1000, height: 900 } });
  const page = await context.newPage();
  await page.goto(`${site.url}embed.html`);
  await page.evaluate(() => {
    const input = Object.assign(document.createElement('input'), { type: 'range', min: 0, max: 10, value: 5, id: 'bare-slider' });
    const output = document.createElement('output');
    input.addEventListener('input', () => { output.textContent = input.value; });
    document.body.prepend(input, output);
  });
  const times = await timePresses(page, page.locator('#bare-slider'), presses, hooks);
  await context.close();
  return { times };
}

/**
 * The ring at 16 GPUs, playing: frames between requestAnimationFrame callbacks over `seconds`; a frame dropped is a
 * vsync interval (16.7 ms) with no frame. Returns { fraction, frames, dropped, worst }.
 */
export async function ringFrames(site, seconds = 4, hooks = {}) {
  const context = await site.browser.newContext({ viewport: { width: 1000, height: 900 } });
  await context.addInitScript(recorder);
  const page = await context.newPage();
  await page.goto(`${site.url}#ring`);
  await page.waitForFunction(() => window.__bench.ready['parascope-ring'] !== undefined, null, { timeout: 60000 });
  await page.evaluate(() => {
    const el = document.querySelector('parascope-ring');
    el.change({ gpus: 16 });
    el.scrollIntoView({ block: 'center' });
  });
  await page.waitForTimeout(300);
  await hooks.start?.(page);
  await page.locator('parascope-ring').locator('button[name="play"]').click();
  const result = await page.evaluate((ms) => new Promise((resolve) => {
    const stamps = [];
    const t0 = performance.now();
    const frame = (now) => {
      stamps.push(now);
      if (now - t0 < ms) requestAnimationFrame(frame);
      else resolve(stamps);
    };
    requestAnimationFrame(frame);
  }), seconds * 1000);
  await hooks.stop?.(page);
  await context.close();
  const interval = 1000 / 60;
  let dropped = 0;
  let worst = 0;
  for (let i = 1; i < result.length; i += 1) {
    const gap = result[i] - result[i - 1];
    worst = Math.max(worst, gap);
    dropped += Math.max(0, Math.round(gap / interval) - 1);
  }
  const expected = (result.at(-1) - result[0]) / interval;
  return { fraction: dropped / expected, frames: result.length, dropped, worst };
}
