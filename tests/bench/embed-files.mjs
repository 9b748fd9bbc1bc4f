// Every figure embedded alone (the iframe route, tests/bench/reader.mjs `embeds`) from a built site folder: each
// file it fetches and its gzip -9 bytes, and the total against the 120,000-byte budget (issue 30). For comparing two
// builds file by file: node tests/bench/embed-files.mjs [DIST (default dist/)] [FIGURES, e.g. memory,run] [OUT.json]
import { writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { chromium } from 'playwright-core';
import { serve } from '../../scripts/serve.mjs';
import { EMBED_WIDGETS, embeds } from './reader.mjs';

const BUDGET = 120_000;
const [root = 'dist', only, out] = process.argv.slice(2);
const names = only ? only.split(',').map((n) => `parascope-${n.replace(/^parascope-/, '')}`) : EMBED_WIDGETS;
const { server, url } = await serve({ root: resolve(root), port: 0 });
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', headless: true, args: ['--disable-gpu'] });
try {
  const found = await embeds({ url, browser }, names);
  for (const [name, { gzip, bytes }] of Object.entries(found)) {
    console.log(`${name}: ${gzip.toLocaleString('en-US')} bytes gzip -9 (${gzip > BUDGET ? 'over' : 'within'} ${BUDGET.toLocaleString('en-US')})`);
    for (const [file, size] of Object.entries(bytes).sort((a, b) => b[1] - a[1])) {
      console.log(`  ${String(size).padStart(7)}  ${file}`);
    }
  }
  if (out) writeFileSync(out, `${JSON.stringify(found, null, 1)}\n`);
} finally {
  await browser.close();
  server.close();
}
