// Each widget's stylesheets: an embed loads widget.css and that widget's own sheet, no other's; the article loads one
// sheet for all its widgets (scripts/bundle.mjs joins them); and no widget's rules reach another widget's elements, so
// a widget looks the same alone (its own sheet) as on the article (every widget's rules in one sheet).
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';

import { FIGURES, filesOf } from '../../web/widgets/index.js';
import { openPage, useSite, widgetReady } from './harness.mjs';

const site = useSite(before, after);
const NAMES = FIGURES.map((f) => f.name);
/** A figure's own sheet on the site, from the site's root ("widgets/axes/axes.css"). */
const ownSheet = (name) => `widgets/${filesOf(FIGURES.find((f) => f.name === name)).stylesheet.slice(2)}`;
const WIDGET_SHEET = /\/(css\/widget|widgets\/[a-z]+\/[a-z]+)(?:-[A-Z2-7]{8})?\.css$/;

/** The widget stylesheets a page requested, by path without hash (css/widget, widgets/axes/axes, …). */
function sheetRequests(page) {
  const seen = [];
  page.on('request', (r) => {
    const m = WIDGET_SHEET.exec(new URL(r.url()).pathname);
    if (m) seen.push(m[1]);
  });
  return seen;
}

/**
 * The rules of `others` (source sheets of other widgets) whose selector matches an element of the widget `tag`
 * (its host or anything in its shadow root). Conservative: a :host(…) condition and pseudo-elements are dropped.
 */
async function strayRules(page, tag, others) {
  return page.evaluate(async ({ tag, others }) => {
    const host = document.querySelector(tag);
    const elements = [...host.shadowRoot.querySelectorAll('*')];
    const found = [];
    const walk = (rules, file) => {
      for (const rule of rules) {
        if (rule.cssRules && !(rule instanceof CSSStyleRule)) { walk(rule.cssRules, file); continue; }
        if (!(rule instanceof CSSStyleRule)) continue;
        for (const one of rule.selectorText.split(/,(?![^(]*\))/)) {
          const plain = one.replace(/::?(before|after|placeholder|marker)\b/g, '').replace(/:host(\([^)]*\))?/g, '').trim();
          const hit = plain === '' ? [host] : elements.filter((el) => el.matches(plain));
          if (hit.length) found.push(`${file}: ${one.trim()} (${hit[0].localName}.${hit[0].getAttribute('class') ?? ''})`);
        }
      }
    };
    for (const file of others) {
      const sheet = new CSSStyleSheet();
      sheet.replaceSync(await (await fetch(new URL(file, location.href))).text());
      walk(sheet.cssRules, file);
    }
    return found;
  }, { tag, others });
}

for (const name of NAMES) {
  test(`embed of ${name}: widget.css and its own sheet only, and no other widget's rule matches it in any state`, async () => {
    const tag = `parascope-${name}`;
    const others = NAMES.filter((n) => n !== name).map(ownSheet);
    for (const width of [360, 1000]) {
      const { page, problems, context } = await openPage(site(), 'favicon.svg', { width });
      const requested = sheetRequests(page);
      await page.goto(new URL(`embed.html#widget=${name}`, site().url).href);
      await widgetReady(page, tag);
      await page.waitForFunction((t) => [...document.querySelector(t).shadowRoot.querySelectorAll('link[rel="stylesheet"]')]
        .every((l) => l.sheet), tag);
      const links = await page.evaluate((t) => [...document.querySelector(t).shadowRoot.querySelectorAll('link[rel="stylesheet"]')]
        .map((l) => new URL(l.href).pathname.replace(/-[A-Z2-7]{8}\.css$/, '.css')), tag);
      assert.deepEqual(links, ['/css/widget.css', `/${ownSheet(name)}`], 'widget.css, then its own');
      assert.deepEqual([...new Set(requested)].sort(), ['css/widget', ownSheet(name).slice(0, -4)]);
      // States: as it starts, then after each tab, radio, checkbox and button of the figure (not the tools row).
      assert.deepEqual(await strayRules(page, tag, others), [], `${width} px, at the start`);
      const count = await page.evaluate((t) => document.querySelector(t).shadowRoot
        .querySelectorAll('[role="tab"], input[type="radio"], input[type="checkbox"], button:not(.tools *)').length, tag);
      for (let i = 0; i < Math.min(count, 16); i += 1) {
        const what = await page.evaluate(({ t, i }) => {
          const el = document.querySelector(t).shadowRoot
            .querySelectorAll('[role="tab"], input[type="radio"], input[type="checkbox"], button:not(.tools *)')[i];
          if (!el || el.disabled || !el.getClientRects().length) return null;
          el.click();
          return `${el.localName}.${el.className} ${el.textContent.trim().slice(0, 30)}`;
        }, { t: tag, i });
        if (!what) continue;
        await page.waitForTimeout(150);
        assert.deepEqual(await strayRules(page, tag, others), [], `${width} px, after ${what}`);
      }
      assert.deepEqual(problems, []);
      await context.close();
    }
  });
}

test('the article loads one widget sheet, linked once in every widget', async () => {
  const { page, problems, context } = await openPage(site(), 'favicon.svg');
  const requested = sheetRequests(page);
  await page.goto(site().url);
  for (const name of NAMES) await widgetReady(page, `parascope-${name}`);
  const links = await page.evaluate((names) => names.map((n) => [...document.querySelector(`parascope-${n}`).shadowRoot
    .querySelectorAll('link[rel="stylesheet"]')].map((l) => l.href)), NAMES);
  for (const own of links) assert.deepEqual(own, links[0], 'the same one sheet');
  assert.equal(links[0].length, 1);
  assert.match(links[0][0], /\/css\/widget-[A-Z2-7]{8}\.css$/);
  assert.deepEqual(requested, ['css/widget'], 'one request');
  assert.deepEqual(problems, []);
  await context.close();
});
