import { serve } from '../../scripts/serve.mjs';
import { launchEngine } from './engines/index.mjs';
const [name = 'chromium', scheme = 'light', width = '1280', hash = ''] = process.argv.slice(2);
const site = await serve({ port: 0 });
const browser = await launchEngine(name, { colorScheme: scheme });
try {
  const page = await browser.open(`${site.url}${hash}`, { width: Number(width), height: Number(width) < 500 ? 2000 : 1500 });
  await page.evaluate((win) => { win.document.querySelector('parascope-memory').scrollIntoView({ block: 'start' }); return true; });
  await page.waitFor((win) => win.document.querySelector('parascope-memory').hasAttribute('data-ready'), [], { timeout: 60000 });
  await new Promise((r) => setTimeout(r, 800));
  await page.evaluate((win) => { win.document.querySelector('parascope-memory').scrollIntoView({ block: 'start' }); return true; });
  await new Promise((r) => setTimeout(r, 300));
  await page.screenshot(`/tmp/memlook/${name}-${scheme}-${width}.png`);
  const info = await page.evaluate((win) => { const el = win.document.querySelector('parascope-memory'); const r = el.shadowRoot;
    return { h: el.getBoundingClientRect().height, headline: r.querySelector('[data-out="headline"]')?.textContent, problem: r.querySelector('[data-out="problem"]')?.textContent, notes: [...r.querySelectorAll('.note, [role="note"]')].map((n)=>n.textContent) }; });
  console.log(JSON.stringify(info));
  console.log(JSON.stringify(await page.problems()));
  await page.close();
} finally {
  await browser.close();
  site.server.close();
}
