// Size of what a page downloads for each engine module: the wasm and its JS glue, raw and gzip -9. The figures' engine
// (parascope.*: the article's and the guide's widgets), the planner's (parascope-planner.*: only <parascope-planner>'s
// worker) and each widget's own (parascope-<name>-engine.*: that widget embedded alone, lib/widget-engines.js).
// Returns { figures, planner, widgets: { module name: gzip bytes } }: each module's gzip total in bytes.
import { readFileSync, readdirSync } from 'node:fs';
import { gzipSync } from 'node:zlib';

export default function sizes(report) {
  const dist = new URL('../../dist/wasm/', import.meta.url);
  const totals = { widgets: {} };
  const own = readdirSync(dist).filter((f) => /^parascope-[a-z]+-engine\.wasm$/.test(f)).map((f) => f.slice(0, -5)).sort();
  for (const [key, name] of [['figures', 'parascope'], ['planner', 'parascope-planner'], ...own.map((n) => [n, n])]) {
    let total = 0;
    for (const file of [`${name}.wasm`, `${name}.mjs`]) {
      const raw = readFileSync(new URL(file, dist));
      const gz = gzipSync(raw, { level: 9 }).length;
      total += gz;
      report(`${file} raw`, raw.length / 1024, 'KiB');
      report(`${file} gzip -9`, gz / 1024, 'KiB');
    }
    const whose = { figures: 'figures\'', planner: 'planner\'s' }[key] ?? `${name}:`;
    report(`${whose} engine download, wasm + glue, gzip -9`, total / 1024, 'KiB');
    if (key === name) totals.widgets[name] = total;
    else totals[key] = total;
  }
  return totals;
}
