import { startSite } from '../browser/harness.mjs';
import run from './memory.bench.mjs';
const site = await startSite();
const report = (name, value, unit, target = '') => console.log(`  ${name.padEnd(70)} ${value.toPrecision(4).padStart(10)} ${unit} ${target}`);
try {
  const { sliderPresses, quantile } = await import('./reader.mjs');
  const { pressCost } = await import('./press-cost.mjs');
  const cost = pressCost(); await sliderPresses(site, 60, cost.hooks); const c = cost.ms();
  report('bubble (for comparison, same load): traced p95', quantile(c, 0.95), 'ms'); report('bubble median', quantile(c, 0.5), 'ms');
  await run(site, report);
} finally { await site.close(); }
