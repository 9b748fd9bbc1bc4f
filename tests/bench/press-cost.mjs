// What each real key press costs the page thread, read from Chromium's own trace (CDP Tracing): from the key's time
// stamp to the end of the frame that draws it (ProxyMain::BeginMainFrame: animation callbacks, style, layout, paint,
// commit), less only the time the page thread sat idle between the key's handlers and that frame beginning (the wait
// for the display's next vsync, which a slider that does nothing waits too; the tasks the page ran in that gap
// count). A press that costs under one frame interval (16.7 ms at 60 Hz) shows in the first frame after its handlers.
// In-page probes cannot see a frame's end: a task posted from its rAF can be held by Chromium's scheduler until after
// the next frame (seen in the trace), so they count up to a whole frame interval of waiting as work. Used by
// tests/bench/run-web.mjs through reader.mjs's hooks: `const cost = pressCost(); await sliderPresses(site, n,
// cost.hooks); cost.ms()`.
import { WARM_UP_PRESSES } from './reader.mjs';

const CATEGORIES = 'toplevel,devtools.timeline,disabled-by-default-devtools.timeline,cc,blink.user_timing';
const TASKS = new Set(['RunTask', 'ThreadControllerImpl::RunTask']);
const ANCHOR = 'parascope-press-cost-anchor';

/**
 * Hooks { start(page), stop(page) } that trace the presses; ms() then gives each press's cost in ms, the first `skip`
 * presses (timePresses' warm-up) left out.
 */
export function pressCost({ skip = WARM_UP_PRESSES } = {}) {
  let cdp;
  let events = [];
  let anchorMs = 0;
  let keys = [];
  const hooks = {
    async start(page) {
      cdp = await page.context().newCDPSession(page);
      cdp.on('Tracing.dataCollected', ({ value }) => events.push(...value));
      await cdp.send('Tracing.start', { categories: CATEGORIES, transferMode: 'ReportEvents' });
      anchorMs = await page.evaluate((name) => performance.mark(name).startTime, ANCHOR);
    },
    async stop(page) {
      keys = (await page.evaluate(() => window.__keys.map((k) => k.t0))).slice(skip);
      const done = new Promise((resolve) => { cdp.once('Tracing.tracingComplete', resolve); });
      await cdp.send('Tracing.end');
      await done;
    },
  };
  const ms = () => {
    const anchor = events.find((e) => e.name === ANCHOR);
    if (!anchor) throw new Error('press-cost: the trace has no anchor mark');
    const offset = anchor.ts - anchorMs * 1000; // trace µs = page ms · 1000 + offset
    const dispatches = events.filter((e) => e.ph === 'X' && e.name === 'EventDispatch' && e.args?.data?.type === 'keydown')
      .sort((a, b) => a.ts - b.ts);
    if (!dispatches.length) throw new Error('press-cost: no key press in the trace');
    const { pid, tid } = dispatches[0];
    const frames = events.filter((e) => e.ph === 'X' && e.name === 'ProxyMain::BeginMainFrame' && e.pid === pid && e.tid === tid)
      .sort((a, b) => a.ts - b.ts);
    const tasks = events.filter((e) => e.ph === 'X' && TASKS.has(e.name) && e.pid === pid && e.tid === tid)
      .sort((a, b) => a.ts - b.ts);
    if (!tasks.length) throw new Error('press-cost: the trace has no page-thread tasks');
    const costs = [];
    for (const t0 of keys) {
      const pressed = t0 * 1000 + offset;
      const key = dispatches.find((e) => e.ts >= pressed - 100);
      if (!key) continue; // pressed before the trace began
      const handled = key.ts + key.dur;
      const frame = frames.find((f) => f.ts >= handled);
      if (!frame) continue;
      // Between the handlers and the frame: the page thread's tasks there count (their union: the trace nests a
      // task's ThreadControllerImpl::RunTask inside its RunTask), only the rest is idle.
      const idle = frame.ts - handled - busyWithin(tasks, handled, frame.ts);
      costs.push((frame.ts + frame.dur - pressed - idle) / 1000);
    }
    return costs;
  };
  return { hooks, ms };
}

/** How long `tasks` (sorted by start) ran inside [from, to], overlapping ones counted once (µs). */
function busyWithin(tasks, from, to) {
  let busy = 0;
  let reached = from;
  for (const e of tasks) {
    if (e.ts >= to) break;
    const start = Math.max(e.ts, reached);
    const end = Math.min(e.ts + e.dur, to);
    if (end > start) {
      busy += end - start;
      reached = end;
    }
  }
  return busy;
}
