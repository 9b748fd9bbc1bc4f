// Web benchmarks: sizes, then every tests/bench/*.bench.mjs case in headless Chromium on the served site.
import { readdirSync } from 'node:fs';

import { startSite } from '../browser/harness.mjs';
import sizes from './sizes.mjs';

const report = (name, value, unit, target = '') =>
  console.log(`  ${name.padEnd(58)} ${value.toPrecision(4).padStart(12)} ${unit.padEnd(6)}${target ? `  target: ${target}` : ''}`);

console.log('sizes');
sizes(report);

const here = new URL('./', import.meta.url);
const cases = readdirSync(here).filter((f) => f.endsWith('.bench.mjs')).sort();
if (cases.length) {
  const site = await startSite();
  try {
    for (const file of cases) {
      console.log(file.replace('.bench.mjs', ''));
      const { default: run } = await import(new URL(file, here));
      await run(site, report);
    }
  } finally {
    await site.close();
  }
}
