// Reserved heights in three engines: at 1280 and 360 px, in Chromium, Firefox ESR and WebKitGTK, every figure on the
// article page, once started, fits the height css/embed.css reserves for it (steady.test.mjs checks the same in
// Chromium alone, with layout shift). Also: every <select> in every figure has one box height in each engine, the
// shared style of css/widget.css (WebKitGTK's native select was taller: the memory figure grew 61 px at 360 px).
// PARASCOPE_ENGINES=webkit narrows a run.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';

import { serve } from '../../scripts/serve.mjs';
import { FIGURES } from '../../web/widgets/index.js';
import { ENGINE_NAMES, launchEngine } from './engines/index.mjs';

const ENGINES = process.env.PARASCOPE_ENGINES ? process.env.PARASCOPE_ENGINES.split(',') : ENGINE_NAMES;
const WIDGETS = FIGURES.map((f) => f.tag);
const SIZES = [{ width: 1280, height: 1000 }, { width: 360, height: 800 }];
// A reserve is the tallest of the three engines (a taller figure moves the page; a shorter one leaves a gap). Text
// wraps differently per engine, so the gap in the shortest can exceed steady.test.mjs's 40 px in Chromium: WebKitGTK
// draws the axes figure 67 px and the track record 61 px shorter than Firefox at 1280 px.
const SLACK = 80;

// ---- page functions (sent as source text; `win` is the page's window) ----

/** Scrolls figure `tag` to the top of the viewport (a figure starts when on screen). */
function scrollTo(win, tag) {
  win.document.querySelector(tag).scrollIntoView({ block: 'start' });
  return true;
}

/** The figure started (the track record also drawn from its data file, fetched after the figure starts). */
function isReady(win, n) {
  const el = win.document.querySelector(n);
  return Boolean(el?.hasAttribute('data-ready')
    && (n !== 'parascope-track' || el.shadowRoot.querySelector('[data-out="summary"][data-value]')));
}

/** Waits for the fonts and two frames. */
function settled(win) {
  return win.document.fonts.ready.then(() => new Promise((resolve) =>
    win.requestAnimationFrame(() => win.requestAnimationFrame(() => resolve(true)))));
}

/** Each figure's reserved height (its ::before) and the height its started content needs, in px. */
function reservedAndDrawn(win, names) {
  return names.map((name) => {
    const host = win.document.querySelector(name);
    const body = host.shadowRoot.querySelector('.body');
    const style = win.getComputedStyle(body);
    const top = body.getBoundingClientRect().top;
    const last = Math.max(...[...body.children].map((c) => c.getBoundingClientRect().bottom
      + parseFloat(win.getComputedStyle(c).marginBottom)));
    const drawn = last - top + parseFloat(style.paddingBottom) + parseFloat(style.borderBottomWidth);
    return { name, reserved: parseFloat(win.getComputedStyle(host, '::before').paddingTop), drawn: Math.round(drawn) };
  });
}

/** The border-box height of every select in a figure's controls (px, rounded to 0.5), by figure. */
function selectHeights(win, names) {
  const out = {};
  for (const name of names) {
    const selects = [...win.document.querySelector(name).shadowRoot.querySelectorAll('.control select')];
    const shown = selects.filter((s) => s.getClientRects().length > 0); // not in a hidden panel
    if (shown.length) out[name] = [...new Set(shown.map((s) => Math.round(s.getBoundingClientRect().height * 2) / 2))];
  }
  return out;
}

// ---- the tests ----

let site;
before(async () => {
  site = await serve({ port: 0 });
});
after(async () => {
  await new Promise((resolve) => site?.server.close(resolve));
});

/** What one engine measured at each width, kept for the cross-engine comparison at the end. */
const selectsSeen = {};

for (const engine of ENGINES) {
  describe(engine, () => {
    let browser;
    before(async () => {
      browser = await launchEngine(engine);
    });
    after(async () => {
      await browser?.close();
    });
    for (const size of SIZES) {
      test(`at ${size.width} px each figure fits its reserved height (css/embed.css)`, async (t) => {
        const page = await browser.open(site.url, size);
        try {
          for (const tag of WIDGETS) {
            await page.evaluate(scrollTo, tag);
            await page.waitFor(isReady, [tag], { timeout: 30_000, what: `${tag} to start` });
          }
          await page.evaluate(settled);
          await new Promise((resolve) => setTimeout(resolve, 300));
          const rows = await page.evaluate(reservedAndDrawn, WIDGETS);
          const heights = await page.evaluate(selectHeights, WIDGETS);
          (selectsSeen[size.width] ??= {})[engine] = heights;
          t.diagnostic(`${engine} ${size.width} px: ${rows.map((r) => `${r.name.slice(10)} ${r.drawn}/${r.reserved}`).join(', ')}`);
          const all = new Set(Object.values(heights).flat());
          assert.equal(all.size, 1, `${engine}: the figures' selects differ in height: ${JSON.stringify(heights)}`);
          const wrong = rows.filter(({ reserved, drawn }) => drawn > reserved + 2 || reserved - drawn > SLACK);
          assert.deepEqual(wrong, [], `${engine}: retune reserve.${size.width < 760 ? 'narrow' : 'wide'} in `
            + `web/widgets/index.js (then UPDATE=1 node --test tests/js/embed-css.test.mjs): ${JSON.stringify(wrong)}`);
        } finally {
          await page.close();
        }
      });
    }
  });
}

test('a figure\'s select is the same height in every engine', { skip: ENGINES.length < 2 }, () => {
  for (const [width, byEngine] of Object.entries(selectsSeen)) {
    const heights = Object.entries(byEngine).map(([engine, h]) => [engine, new Set(Object.values(h).flat())]);
    const one = new Set(heights.flatMap(([, set]) => [...set]));
    assert.ok(one.size === 1, `${width} px: ${JSON.stringify(Object.fromEntries(heights.map(([e, s]) => [e, [...s]])))}`);
  }
});
