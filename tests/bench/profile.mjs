// Where the reader's time goes: a V8 CPU profile (Chromium's own sampler) around one of the bench's measurements,
// taken exactly as tests/bench/reader.mjs takes it. Prints the functions by self and by inclusive time.
// `node tests/bench/profile.mjs load|slider|ring` (on the built dist/; run `bash scripts/build` first).
import { startSite } from '../browser/harness.mjs';
import { loads, quantile, ringFrames, sliderPresses } from './reader.mjs';

const what = process.argv[2] ?? 'load';
let profile = null;
const hooks = {
  async start(page, kind = 'cold') {
    if (kind !== 'cold') return;
    page.cdp = await page.context().newCDPSession(page);
    await page.cdp.send('Profiler.enable');
    await page.cdp.send('Profiler.setSamplingInterval', { interval: 100 });
    await page.cdp.send('Profiler.start');
  },
  async stop(page, kind = 'cold') {
    if (kind === 'cold' && page.cdp) profile = (await page.cdp.send('Profiler.stop')).profile;
  },
};

const site = await startSite();
try {
  if (what === 'load') {
    const l = await loads(site, 1, { hooks });
    console.log(`cold load: first figure drawn at ${l.cold[0].first.toFixed(0)} ms (profile: navigation to that figure)`);
  } else if (what === 'slider') {
    const s = await sliderPresses(site, 80, { ...hooks, start: (page) => hooks.start(page), stop: (page) => hooks.stop(page) });
    console.log(`slider: key press -> next frame p50 ${quantile(s.times, 0.5).toFixed(1)} ms, p95 ${quantile(s.times, 0.95).toFixed(1)} ms`);
  } else if (what === 'ring') {
    const r = await ringFrames(site, 4, { start: (page) => hooks.start(page), stop: (page) => hooks.stop(page) });
    console.log(`ring: ${r.dropped} frames dropped of ${r.frames + r.dropped} (${(100 * r.fraction).toFixed(1)} %), worst gap ${r.worst.toFixed(0)} ms`);
  } else {
    throw new Error(`profile what? load, slider or ring (got ${what})`);
  }
} finally {
  await site.close();
}

const byId = new Map(profile.nodes.map((n) => [n.id, n]));
const parent = new Map();
for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
const name = ({ functionName, url, lineNumber, columnNumber }) =>
  `${functionName || '(anonymous)'} ${url.split('/').pop()}:${lineNumber + 1}:${columnNumber + 1}`;
const self = new Map();
const inclusive = new Map();
profile.samples.forEach((id, i) => {
  const ms = (profile.timeDeltas[i] ?? 0) / 1000;
  const own = name(byId.get(id).callFrame);
  self.set(own, (self.get(own) ?? 0) + ms);
  const seen = new Set();
  for (let at = id; at; at = parent.get(at)) {
    const key = name(byId.get(at).callFrame);
    if (!seen.has(key)) inclusive.set(key, (inclusive.get(key) ?? 0) + ms);
    seen.add(key);
  }
});
const top = (map, n) => [...map].sort((a, b) => b[1] - a[1]).slice(0, n)
  .map(([key, ms]) => `  ${ms.toFixed(1).padStart(9)} ms  ${key}`).join('\n');
console.log(`self time (the wasm's functions are numbered; "(program)" is the browser's own work: style, layout, paint)\n${top(self, 25)}`);
console.log(`inclusive time\n${top(inclusive, 35)}`);
