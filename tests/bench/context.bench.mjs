// <parascope-context>: real key presses on its context-parallel slider, ← then → between two cp values (the timed
// ones find every answer kept, KEPT_LADDERS in element.js, show the cp's drawing kept and redraw every panel) and on
// its sequence slider (answers cached, everything redrawn); and each cp's first visit: a fresh page opened at one end
// of the cp slider, a reader's pause, then presses toward the other end, each reaching a cp that page has not shown
// (its answers and drawing made while the page was idle, element.js warmUp). All traced as the bubble's are
// (press-cost.mjs: the key's time stamp to the end of the frame that draws it, less the idle wait for vsync); and the
// figure embedded alone (embed.html#widget=context), every file fetched, gzip -9.
import { CP_VALUES } from '../../web/widgets/context/model/request.js';
import { pressCost } from './press-cost.mjs';
import { embeds, quantile, recorder, timeKeys, timePresses } from './reader.mjs';

/** A reader's pause between the figure appearing and the first press (ms): it has been read, at least briefly. */
const READ_MS = 1000;

/** A fresh page at `path` with the context figure drawn and scrolled to the top: { context, page, widget }. */
async function openFigure(site, path) {
  const context = await site.browser.newContext({ viewport: { width: 1000, height: 900 } });
  await context.addInitScript(recorder);
  const page = await context.newPage();
  await page.goto(`${site.url}${path}`);
  await page.waitForFunction(() => window.__bench.ready['parascope-context'] !== undefined, null, { timeout: 60000 });
  await page.evaluate(() => document.querySelector('parascope-context').scrollIntoView({ block: 'start' }));
  return { context, page, widget: page.locator('parascope-context') };
}

/** Whether the figure shows its problem sentence (a setting the engine refused). */
const refusedOn = (page) => page.evaluate(() =>
  !document.querySelector('parascope-context').shadowRoot.querySelector('[data-out="problem"]').hidden);

/** Traced presses (← then →) on the context figure's slider `name`; returns each press's cost in ms. */
export async function presses(site, name, n = 60) {
  const { context, page, widget } = await openFigure(site, '#context');
  const cost = pressCost();
  await timePresses(page, widget.locator(`input[name="${name}"]`), n, cost.hooks);
  const refused = await refusedOn(page);
  await context.close();
  if (refused) throw new Error(`the context figure refused a setting its ${name} slider reached`);
  return cost.ms();
}

/**
 * First visits: `runs` fresh pages opened at each end of the cp slider (cp 2, cp 16); after READ_MS, presses toward
 * the other end (→ or ←, 30 ms apart), each reaching a cp that page has not drawn. Returns [{ cp, ms }] per press.
 */
export async function firstVisits(site, runs = 4) {
  const out = [];
  for (let r = 0; r < runs; r += 1) {
    for (const [start, key, path] of [
      [CP_VALUES[0], 'ArrowRight', CP_VALUES.slice(1)],
      [CP_VALUES.at(-1), 'ArrowLeft', CP_VALUES.slice(0, -1).reverse()],
    ]) {
      const { context, page, widget } = await openFigure(site, `#context.cp=${start}`);
      await page.waitForLoadState('load');
      await page.waitForTimeout(READ_MS);
      await page.evaluate(timeKeys);
      await widget.locator('input[name="cp"]').focus();
      const cost = pressCost({ skip: 0 });
      await cost.hooks.start(page);
      for (let i = 0; i < path.length; i += 1) {
        await page.keyboard.press(key);
        await page.waitForFunction((n) => window.__keys.length >= n, i + 1);
        await page.waitForTimeout(30);
      }
      await cost.hooks.stop(page);
      const shown = await widget.evaluate((el) => el.state.cp);
      const refused = await refusedOn(page);
      await context.close();
      if (refused || shown !== path.at(-1)) throw new Error(`first visits from cp ${start}: ended at cp ${shown}`);
      const costs = cost.ms();
      if (costs.length !== path.length) throw new Error(`from cp ${start}: ${costs.length} presses traced`);
      out.push(...costs.map((ms, i) => ({ cp: path[i], ms })));
    }
  }
  return out;
}

export default async function context(site, report) {
  for (const [name, what] of [['cp', 'cp slider (cached + redraw)'], ['sequence', 'sequence slider (cached + redraw)']]) {
    const costs = await presses(site, name);
    report(`context: key press on the ${what} -> its frame drawn (traced), p50 (${costs.length} presses)`, quantile(costs, 0.5), 'ms');
    report(`context: key press on the ${what} -> its frame drawn (traced), p95`, quantile(costs, 0.95), 'ms', '≤ 16 ms');
  }
  const first = await firstVisits(site);
  const ms = first.map((f) => f.ms);
  report(`context: a cp's first visit on a fresh page (traced), p50 (${ms.length} presses)`, quantile(ms, 0.5), 'ms');
  report(`context: a cp's first visit on a fresh page (traced), p95`, quantile(ms, 0.95), 'ms', '≤ 16 ms');
  for (const cp of CP_VALUES) {
    const at = first.filter((f) => f.cp === cp).map((f) => f.ms);
    const median = quantile(at, 0.5).toFixed(1);
    report(`  cp ${cp}'s first visit, worst of ${at.length} (median ${median})`, Math.max(...at), 'ms');
  }
  const e = await embeds(site, ['parascope-context']);
  const alone = e['parascope-context'];
  report(`context alone: ${alone.files.length} files, gzip -9`, alone.gzip / 1024, 'KiB', '≤ 120 KB');
}
