// <parascope-nccl> as a reader sees it, in Chromium, Firefox ESR and WebKitGTK at 360 and 1280 px: every example's
// name fits its menu, the empty box's hint fits the box line by line, and with nothing pasted no legend names a chart
// that is not there (the fit itself and a refused paste: run.test.mjs). PARASCOPE_ENGINES=firefox,webkit narrows.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';

import { EXAMPLES } from '../../web/widgets/nccl/model/examples.js';
import { ENGINES, serveSite, browserPages, startFigure, setControl } from './figure-suite.mjs';

const TAG = 'parascope-nccl';
const SIZES = [
  { width: 1280, height: 1000 },
  { width: 360, height: 800 },
];

// ---- page functions (sent as source text: they see only their arguments; `win` is the page's window) ----

function settled(win, tag) {
  const el = win.document.querySelector(tag);
  return Boolean(el?.hasAttribute('data-ready') && !el.hasAttribute('data-loading'));
}

/** Each example's label against the room its menu has for text (its box less padding, arrow and border). */
function menuRoom(win, tag) {
  const select = win.document.querySelector(tag).shadowRoot.querySelector('select[name="example"]');
  const style = win.getComputedStyle(select);
  const room =
    select.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
  const widthOf = (text) => {
    const s = win.getComputedStyle(select);
    const ctx = win.document.createElement('canvas').getContext('2d');
    ctx.font = `${s.fontStyle} ${s.fontWeight} ${s.fontSize} ${s.fontFamily}`;
    return ctx.measureText(text).width;
  };
  return { room, labels: [...select.options].map((o) => ({ label: o.textContent, width: widthOf(o.textContent) })) };
}

/** The paste box's placeholder lines against the room its lines have. */
function placeholderRoom(win, tag) {
  const box = win.document.querySelector(tag).shadowRoot.querySelector('textarea[name="nccl-tests"]');
  const style = win.getComputedStyle(box);
  const ctx = win.document.createElement('canvas').getContext('2d');
  ctx.font = `${style.fontStyle} ${style.fontWeight} ${style.fontSize} ${style.fontFamily}`;
  const room = box.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
  return { room, lines: box.placeholder.split('\n').map((line) => ({ line, width: ctx.measureText(line).width })) };
}

/** What the figure shows with nothing pasted: its status, whether a chart is drawn, whether its legend shows. */
function emptyState(win, tag) {
  const root = win.document.querySelector(tag).shadowRoot;
  const legend = root.querySelector('.nccl-legend');
  return {
    status: root.querySelector('[data-out="status"]').textContent,
    drawn: root.querySelectorAll('.nccl-chart').length,
    legendShown: win.getComputedStyle(legend).visibility !== 'hidden' && legend.getClientRects().length > 0,
  };
}

// ---- the tests ----

const site = serveSite();

for (const name of ENGINES) {
  describe(`${name}: your nccl-tests output, as a reader meets the box`, () => {
    const onPage = browserPages(name, site);

    for (const size of SIZES) {
      test(`at ${size.width} px every example's name fits its menu and the hint fits the box`, async () => {
        await onPage(
          '#nccl.example=none',
          async (page) => {
            await startFigure(page, TAG, { isReady: settled });
            const menu = await page.evaluate(menuRoom, TAG);
            assert.deepEqual(
              menu.labels.map((l) => l.label),
              [...EXAMPLES.map((e) => e.label), 'none: my own paste'],
            );
            for (const { label, width } of menu.labels) {
              assert.ok(width <= menu.room, `"${label}" is ${width.toFixed(0)} px in a ${menu.room} px menu: cut`);
            }
            const hint = await page.evaluate(placeholderRoom, TAG);
            assert.ok(hint.lines.length > 1, 'the hint is set in lines');
            for (const { line, width } of hint.lines) {
              assert.ok(width <= hint.room, `"${line}" is ${width.toFixed(0)} px in a ${hint.room} px box: cut`);
            }
          },
          size,
        );
      });
    }

    test('with nothing pasted it says so, and no legend names a chart that is not drawn', async () => {
      await onPage('#nccl.example=none', async (page) => {
        await startFigure(page, TAG, { isReady: settled });
        const empty = await page.evaluate(emptyState, TAG);
        assert.deepEqual(empty, {
          status: 'Paste nccl-tests output above to fit your network.',
          drawn: 0,
          legendShown: false,
        });
        // an example loaded: the chart and its legend come back together
        await page.evaluate(setControl, TAG, 'select[name="example"]', EXAMPLES[0].id);
        const fitted = await page.waitFor(
          (win, tag) => {
            const s = win.document.querySelector(tag).shadowRoot.querySelectorAll('.nccl-chart').length;
            return s ? true : null;
          },
          [TAG],
          { what: 'the example fitted' },
        );
        assert.ok(fitted);
        const shown = await page.evaluate(emptyState, TAG);
        assert.equal(shown.drawn, 1);
        assert.equal(shown.legendShown, true);
      });
    });
  });
}
