// Each widget's stylesheets: text inside the code (scripts/bundle.mjs), adopted as constructable sheets and fetched by
// no request (no bundler's CSS rule nor style-src in their way): an embed's widget has widget.css and its own sheet,
// no other's; on the article every widget shares the one widget.css sheet object; and no widget's rules reach another
// widget's elements, so a widget looks the same alone as on the article.
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
 * (its host or anything in its shadow root). Conservative: a :host(…) condition (parentheses nested up to three deep) and pseudo-elements are dropped.
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
          const plain = one.replace(/::?(before|after|placeholder|marker)\b/g, '').replace(/:host(\((?:[^()]|\([^()]*(?:\([^()]*\))?[^()]*\))*\))?/g, '').trim();
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
      const sheets = await page.evaluate((t) => {
        const root = document.querySelector(t).shadowRoot;
        return { links: root.querySelectorAll('link[rel="stylesheet"]').length, adopted: root.adoptedStyleSheets.length };
      }, tag);
      assert.deepEqual(sheets, { links: 0, adopted: 3 }, 'widget.css, its own, the structure: adopted, none linked');
      assert.deepEqual(requested, [], 'no widget sheet fetched');
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

test('the article fetches no widget sheet; every widget adopts the one widget.css sheet and its own', async () => {
  const { page, problems, context } = await openPage(site(), 'favicon.svg');
  const requested = sheetRequests(page);
  await page.goto(site().url);
  for (const name of NAMES) await widgetReady(page, `parascope-${name}`);
  const shared = await page.evaluate((names) => {
    const roots = names.map((n) => document.querySelector(`parascope-${n}`).shadowRoot);
    return { same: roots.every((r) => r.adoptedStyleSheets[0] === roots[0].adoptedStyleSheets[0]),
      own: new Set(roots.map((r) => r.adoptedStyleSheets[1])).size, links: roots.map((r) => r.querySelectorAll('link').length) };
  }, NAMES);
  assert.deepEqual(shared, { same: true, own: NAMES.length, links: NAMES.map(() => 0) });
  assert.deepEqual(requested, [], 'no request');
  assert.deepEqual(problems, []);
  await context.close();
});
