// Size of what a page downloads for the engine: the wasm and its JS glue, raw and gzip -9 (returns the gzip total).
import { readFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';

export default function sizes(report) {
  const dist = new URL('../../dist/wasm/', import.meta.url);
  let total = 0;
  for (const file of ['parascope.wasm', 'parascope.mjs']) {
    const raw = readFileSync(new URL(file, dist));
    const gz = gzipSync(raw, { level: 9 }).length;
    total += gz;
    report(`${file} raw`, raw.length / 1024, 'KiB');
    report(`${file} gzip -9`, gz / 1024, 'KiB');
  }
  report('engine download, wasm + glue, gzip -9', total / 1024, 'KiB');
  return total;
}
