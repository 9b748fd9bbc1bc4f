// Size of what a page downloads for each engine module: the wasm and its JS glue, raw and gzip -9. The figures' engine
// (parascope.*: every page and widget) and the planner's (parascope-planner.*: only <parascope-planner>'s worker).
// Returns { figures, planner }: each module's gzip total in bytes.
import { readFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';

export default function sizes(report) {
  const dist = new URL('../../dist/wasm/', import.meta.url);
  const totals = {};
  for (const [key, name] of [['figures', 'parascope'], ['planner', 'parascope-planner']]) {
    let total = 0;
    for (const file of [`${name}.wasm`, `${name}.mjs`]) {
      const raw = readFileSync(new URL(file, dist));
      const gz = gzipSync(raw, { level: 9 }).length;
      total += gz;
      report(`${file} raw`, raw.length / 1024, 'KiB');
      report(`${file} gzip -9`, gz / 1024, 'KiB');
    }
    report(`${key === 'figures' ? 'figures\'' : 'planner\'s'} engine download, wasm + glue, gzip -9`, total / 1024, 'KiB');
    totals[key] = total;
  }
  return totals;
}
