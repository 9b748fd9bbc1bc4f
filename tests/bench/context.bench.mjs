// <parascope-context>: real key presses on its context-parallel slider, ← then → between two cp values (the warm-up's
// first two presses ask their ladders; the timed ones find every answer kept, KEPT_LADDERS in element.js, show the
// cp's drawing kept and redraw every panel; a cp not visited yet asks one request in its press and the chart's ladder
// after the frame) and on its sequence slider (answers cached, everything redrawn), traced as the bubble's are
// (press-cost.mjs: the key's time stamp to the end of the frame that draws it, less the idle wait for vsync); and the
// figure embedded alone (embed.html#widget=context), every file fetched, gzip -9.
import { pressCost } from './press-cost.mjs';
import { embeds, quantile, recorder, timePresses } from './reader.mjs';

/** Traced presses (← then →) on the context figure's slider `name`; returns each press's cost in ms. */
export async function presses(site, name, n = 60) {
  const context = await site.browser.newContext({ viewport: { width: 1000, height: 900 } });
  await context.addInitScript(recorder);
  const page = await context.newPage();
  await page.goto(`${site.url}#context`);
  await page.waitForFunction(() => window.__bench.ready['parascope-context'] !== undefined, null, { timeout: 60000 });
  await page.evaluate(() => document.querySelector('parascope-context').scrollIntoView({ block: 'start' }));
  const cost = pressCost();
  await timePresses(page, page.locator('parascope-context').locator(`input[name="${name}"]`), n, cost.hooks);
  const refused = await page.evaluate(() => !document.querySelector('parascope-context').shadowRoot
    .querySelector('[data-out="problem"]').hidden);
  await context.close();
  if (refused) throw new Error(`the context figure refused a setting its ${name} slider reached`);
  return cost.ms();
}

export default async function context(site, report) {
  for (const [name, what] of [['cp', 'cp slider (cached + redraw)'], ['sequence', 'sequence slider (cached + redraw)']]) {
    const costs = await presses(site, name);
    report(`context: key press on the ${what} -> its frame drawn (traced), p50 (${costs.length} presses)`, quantile(costs, 0.5), 'ms');
    report(`context: key press on the ${what} -> its frame drawn (traced), p95`, quantile(costs, 0.95), 'ms', '≤ 16 ms');
  }
  const e = await embeds(site, ['parascope-context']);
  const alone = e['parascope-context'];
  report(`context alone: ${alone.files.length} files, gzip -9`, alone.gzip / 1024, 'KiB', '≤ 120 KB');
}
