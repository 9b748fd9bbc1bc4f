// <parascope-track> as a reader sees it, in Chromium, Firefox ESR and WebKitGTK: at 360 and 1280 px, in both views,
// every number of the held-out table is on screen without scrolling the table sideways (the reader's walk found the
// four number columns past the right edge of a phone). PARASCOPE_ENGINES=firefox,webkit narrows the engines.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';

import { ENGINES, serveSite, browserPages, startFigure } from './figure-suite.mjs';

const TAG = 'parascope-track';

// ---- page functions (sent as source text: they see only their arguments; `win` is the page's window) ----

/** The table once drawn: how far it scrolls sideways, and its number cells that end past its box or the screen. */
function tableFit(win, tag) {
  const root = win.document.querySelector(tag).shadowRoot;
  const box = root.querySelector('.track-table');
  const rows = box.querySelectorAll('tbody tr');
  if (!rows.length) return null;
  const edge = Math.min(box.getBoundingClientRect().right, win.innerWidth) + 0.5;
  const cut = [...box.querySelectorAll('td[data-value], thead th')]
    .filter((c) => c.getBoundingClientRect().right > edge)
    .map((c) => c.textContent);
  return { rows: rows.length, sideways: box.scrollWidth - box.clientWidth, cut };
}

// ---- the tests ----

const site = serveSite();

for (const name of ENGINES) {
  describe(`${name}: the track record's table`, () => {
    const onPage = browserPages(name, site);
    for (const width of [360, 1280]) {
      for (const view of ['speed', 'memory']) {
        test(`at ${width} px, the ${view} view: every number of the table on screen`, async () => {
          await onPage(
            `#track.view=${view}`,
            async (page) => {
              await startFigure(page, TAG);
              const fit = await page.waitFor(tableFit, [TAG], { what: 'the table drawn' });
              assert.ok(fit.rows > 1, 'the table has publications');
              assert.deepEqual(fit.cut, [], `cells past the right edge at ${width} px`);
              assert.ok(fit.sideways <= 1, `the table scrolls ${fit.sideways} px sideways at ${width} px`);
            },
            { width, height: 1000 },
          );
        });
      }
    }
  });
}
