// In-page speed of <parascope-ring>: a GPU-count change (traced request + redraw; chart cached) and one chart rebuild.
import { openPage, widgetReady } from '../browser/harness.mjs';

export default async function ring(site, report) {
  const { page, context } = await openPage(site);
  await widgetReady(page, 'parascope-ring');
  const times = await page.evaluate(() => {
    const el = document.querySelector('parascope-ring');
    const median = (fn, runs) => {
      const t = [];
      for (let i = 0; i < runs; i += 1) {
        const t0 = performance.now();
        fn(i);
        t.push(performance.now() - t0);
      }
      return t.sort((a, b) => a - b)[Math.floor(runs / 2)];
    };
    return {
      rebuild: median((i) => el.change({ gpus: i % 2 ? 16 : 15 }), 40),
      chart: median(() => {
        el.chartKey = null;
        el.updateChart({ gpus: el.state.gpus, time: Number(el.shadowRoot.querySelector('[data-out="time"]').dataset.value) });
      }, 40),
      trace64: median(() => el.engine.call({ op: 'allreduce', algorithm: 'ring', gpus: 64, bytes: 1e9, bandwidth: 1e9,
        latency: 0, trace: true }), 10),
    };
  });
  report('ring: change N to 15/16 (trace + redraw; chart curves cached), median', times.rebuild, 'ms', '< 16 ms');
  report('ring: chart, every point an engine request (3 algorithms, 2 to 16,384 GPUs), median', times.chart, 'ms', '< 8 ms');
  report('engine: traced ring all-reduce, N = 64 (wasm), median', times.trace64, 'ms');
  await context.close();
}
