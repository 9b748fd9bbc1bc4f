import { startSite } from '../browser/harness.mjs';
import { embeds } from './reader.mjs';
const site = await startSite();
try {
  const e = await embeds(site, ['parascope-memory', 'parascope-mfu']);
  for (const [n, v] of Object.entries(e)) { console.log(n, v.gzip, 'B gzip'); for (const [p, b] of Object.entries(v.bytes)) console.log('   ', p, b); }
} finally { await site.close(); }
