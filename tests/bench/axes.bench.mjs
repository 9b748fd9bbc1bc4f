// In-page bench for <parascope-axes>: one router-skew update (moe_route on 262,144 tokens + redraw) and one axis switch.
import { openPage, widgetReady } from '../browser/harness.mjs';

export default async function run(site, report) {
  const { page, context } = await openPage(site, '', { width: 1000, height: 1400 });
  const widget = await widgetReady(page, 'parascope-axes');
  await widget.locator('button[data-axis="expert"]').click();
  const timings = await page.evaluate(async () => {
    const el = document.querySelector('parascope-axes');
    const frame = () => new Promise((resolve) => requestAnimationFrame(resolve));
    const skew = [], axis = [];
    for (let i = 0; i < 20; i += 1) {
      const t0 = performance.now();
      el.state.skew = (i % 30) / 10;
      el.route();
      el.render();
      skew.push(performance.now() - t0);
      const t1 = performance.now();
      el.select(['data', 'tensor', 'pipeline', 'expert', 'all'][i % 5]);
      axis.push(performance.now() - t1);
      await frame();
    }
    const median = (v) => v.sort((a, b) => a - b)[v.length >> 1];
    return { skew: median(skew), axis: median(axis) };
  });
  report('axes: skew update (moe_route 262144 tokens, top-2, + redraw)', timings.skew, 'ms', '< 50 ms');
  report('axes: axis switch (redraw grid + table)', timings.axis, 'ms', '< 16 ms');
  await context.close();
}
