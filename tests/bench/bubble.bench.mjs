// In-page speed of <parascope-bubble> at its largest setting (32 stages x 128 microbatches, interleaved, v = 4): one
// slider step = engine call (JSON + binary op columns) + canvas redraw, timed inside the page, p50 and p95 over many steps.
import { openPage, widgetReady } from '../browser/harness.mjs';

const STEPS = 60;

export default async function bubble(site, report) {
  const { page, context } = await openPage(site, '', { width: 1000, height: 900 });
  await widgetReady(page, 'parascope-bubble');
  const times = await page.evaluate(async (steps) => {
    const widget = document.querySelector('parascope-bubble');
    const root = widget.shadowRoot;
    const input = (name) => root.querySelector(`[name="${name}"]`);
    const set = (name, value, type = 'input') => {
      const el = input(name);
      if (el.type === 'checkbox') el.checked = value;
      else el.value = String(value);
      el.dispatchEvent(new Event(type, { bubbles: true }));
    };
    set('forward-only', false, 'change');
    set('schedule', 'interleaved', 'change');
    set('stages', 32);
    set('microbatches', 128);
    set('chunks', 4);
    const frame = () => new Promise((resolve) => requestAnimationFrame(() => resolve()));
    const handler = [];
    const toFrame = [];
    const sizes = [];
    for (let i = 0; i < steps; i += 1) {
      await frame();
      const [name, value] = i % 2 ? ['chunks', 4] : i % 4 ? ['microbatches', 96] : ['chunks', 3];
      const t0 = performance.now();
      set(name, value);
      const t1 = performance.now();
      await frame();
      const t2 = performance.now();
      handler.push(t1 - t0);
      toFrame.push(t2 - t0);
      sizes.push(widget.result.ops.microbatch.length);
      if (name === 'microbatches') set('microbatches', 128);
    }
    // Where the time goes, at 32 x 128 x 4: the engine call alone (wasm, JSON, op columns copied out) and the redraw.
    const engineTimes = [];
    const drawTimes = [];
    for (let i = 0; i < steps; i += 1) {
      const t0 = performance.now();
      widget.engine.callWithAttachment({ op: 'pipeline', schedule: 'interleaved', stages: 32, microbatches: 128,
        chunks: 4, forward_only: false, ops_format: 'binary' });
      const t1 = performance.now();
      widget.draw();
      drawTimes.push(performance.now() - t1);
      engineTimes.push(t1 - t0);
    }
    return { handler, toFrame, engineTimes, drawTimes, ops: Math.max(...sizes) };
  }, STEPS);
  await context.close();
  const pct = (xs, q) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(q * xs.length))];
  report(`slider step, 32x128 v=4 (${times.ops} ops): recompute + redraw p50`, pct(times.handler, 0.5), 'ms');
  report('slider step, 32x128 v=4: recompute + redraw p95', pct(times.handler, 0.95), 'ms', '< 16 ms');
  report('slider step, 32x128 v=4: until the next frame p95', pct(times.toFrame, 0.95), 'ms');
  report('  engine call alone (wasm + JSON + binary ops), p50', pct(times.engineTimes, 0.5), 'ms');
  report('  canvas redraw alone, p50', pct(times.drawTimes, 0.5), 'ms');
}
