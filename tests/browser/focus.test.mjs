// The page's hover channel between figures (web/lib/focus.js, issue 29) in Chromium, Firefox ESR and WebKitGTK, on
// web/tests/focus.html (an MFU figure and a step figure of the same step, and a step figure of another): pointing at
// (or focusing) a cost in the MFU figure's tax bar shows that cost's events in the step figure of the same step and
// nothing in the other; pointing at an event in the step figure (or reading one with the keys) marks its segments in
// the tax bar; leaving clears both. PARASCOPE_ENGINES=firefox,webkit narrows.
import assert from 'node:assert/strict';
import { mkdir } from 'node:fs/promises';
import { after, before, describe, test } from 'node:test';

import { TEST_PAGES, serve } from '../../scripts/serve.mjs';
import { ENGINES, browserPages, startFigure, focusOn } from './figure-suite.mjs';

// ---- page functions (sent as source text: they see only their arguments; `win` is the page's window) ----

/** What each figure shows of the channel: the step figures' focused cost, the MFU bar's marked segments and rows. */
function marks(win) {
  const root = win.document.querySelector('#mfu').shadowRoot;
  const canvas = (id) => {
    const c = win.document.querySelector(id).shadowRoot.querySelector('canvas');
    const data = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
    let sum = 0;
    for (let i = 0; i < data.length; i += 97) sum = (sum * 31 + data[i]) % 1e9;
    return sum;
  };
  return {
    same: win.document.querySelector('#same').dataset.focus ?? null,
    other: win.document.querySelector('#other').dataset.focus ?? null,
    bar: root.querySelector('.step-bar-box').hasAttribute('data-focus'),
    segments: [...root.querySelectorAll('.step-bar .seg.focused')].map((s) => s.dataset.seg),
    rows: [...root.querySelectorAll('.step-legend li.focused')].map((s) => s.dataset.seg),
    pixels: canvas('#same'),
  };
}

/** Points at the MFU bar's segment `seg` (pointerover), or leaves the bar (null). */
function pointAtSegment(win, seg) {
  const root = win.document.querySelector('#mfu').shadowRoot;
  const box = root.querySelector('.step-bar-box');
  if (seg === null) box.dispatchEvent(new win.PointerEvent('pointerleave', { bubbles: false }));
  else root.querySelector(`.step-bar .seg[data-seg="${seg}"]`).dispatchEvent(new win.PointerEvent('pointerover', { bubbles: true, composed: true }));
  return true;
}

/** Moves the pointer over the step figure `id`'s canvas at fractions (fx, fy) of its box. */
function pointAtStep(win, id, fx, fy) {
  const canvas = win.document.querySelector(id).shadowRoot.querySelector('canvas');
  const box = canvas.getBoundingClientRect();
  const at = { clientX: box.left + fx * box.width, clientY: box.top + fy * box.height, bubbles: true, composed: true };
  canvas.dispatchEvent(new (win.PointerEvent ?? win.MouseEvent)('pointermove', { ...at, pointerId: 1 }));
  return true;
}

/** The step figure `id`'s readout reads an event (its moves, loaded on the first one, have run): its text, or null. */
function readsEvent(win, id) {
  const text = win.document.querySelector(id).shadowRoot.querySelector('[data-out="event"]').textContent;
  return text.startsWith('GPU') ? text : null;
}

/** Scrolls `id` into view and waits two frames: a screenshot then shows what was just drawn. */
function showing(win, id) {
  win.document.querySelector(id).scrollIntoView({ block: 'start' });
  return new Promise((resolve) => win.requestAnimationFrame(() => win.requestAnimationFrame(() => resolve(true))));
}

// ---- the tests ----

const site = {}; // the site with the test pages under /tests/
before(async () => Object.assign(site, await serve({ port: 0, testPages: TEST_PAGES })));
after(() => new Promise((resolve) => (site.server ? site.server.close(resolve) : resolve())));

for (const name of ENGINES) {
  describe(`${name}: the hover channel between figures`, () => {
    const onPage = browserPages(name, site);
    const shot = async (page, id, file) => {
      const dir = new URL(`screenshots/${name}/`, import.meta.url);
      await mkdir(dir, { recursive: true });
      await page.evaluate(showing, id);
      await page.screenshot(new URL(file, dir).pathname);
    };
    const open = async (page) => {
      for (const id of ['#other', '#same', '#mfu']) await startFigure(page, id);
      await page.waitFor((win) => win.document.querySelector('#same').shadowRoot.querySelector('[data-out="chart"]').dataset.view, []);
    };

    test('the tax bar points at a cost: the same step shows its events, another step nothing', async () => {
      await onPage('tests/focus.html', async (page) => {
        await open(page);
        const before = await page.evaluate(marks);
        assert.deepEqual([before.same, before.other, before.bar], [null, null, false]);
        await page.evaluate(pointAtSegment, 'tp');
        let m = await page.waitFor((win) => (win.document.querySelector('#same').dataset.focus ? true : null), []).then(() => page.evaluate(marks));
        assert.equal(m.same, 'tp');
        assert.equal(m.other, null, 'a figure of another step does not react');
        assert.notEqual(m.pixels, before.pixels, 'the other pieces faded on the canvas');
        await shot(page, '#same', 'focus-step-tp.png');
        await page.evaluate(pointAtSegment, 'tp'); // the scroll may have moved the pointer's target: point again
        await page.evaluate(pointAtSegment, 'bubble');
        m = await page.evaluate(marks);
        assert.equal(m.same, 'bubble');
        await page.evaluate(pointAtSegment, null);
        m = await page.evaluate(marks);
        assert.equal(m.same, null, 'leaving the bar clears it');
        assert.equal(m.pixels, before.pixels, 'and the canvas is as it was');
        // keyboard focus does what hover does: the legend row's label
        assert.ok(await page.evaluate(focusOn, '#mfu', '.step-legend li[data-seg="dp"] .what'));
        m = await page.evaluate(marks);
        assert.deepEqual([m.same, m.other], ['dp', null]);
        assert.ok(await page.evaluate(focusOn, '#same', '[data-out="chart"]'), 'focus leaves the bar');
        assert.equal((await page.evaluate(marks)).same, null);
      });
    });

    test('an event pointed at or read in the step figure marks its segments in the tax bar', async () => {
      await onPage('tests/focus.html', async (page) => {
        await open(page);
        // the first GPU's compute row, a fifth into the step: its kernels (useful work, recomputation, kernels below peak)
        await page.evaluate(pointAtStep, '#same', 0.2, 0.012);
        await page.waitFor(readsEvent, ['#same'], { what: 'the event read (interact.js loads on the first move)' });
        let m = await page.evaluate(marks);
        assert.ok(m.bar);
        assert.deepEqual(m.segments.filter((s) => !['useful', 'recompute', 'kernels'].includes(s)), []);
        assert.ok(m.segments.includes('useful'), `marked: ${m.segments}`);
        assert.ok(m.rows.includes('useful'));
        // the keys read events too: . the row below (the TP collectives)
        assert.ok(await page.evaluate(focusOn, '#same', '[data-out="chart"]'));
        await page.press(']');
        await page.press('.');
        // a loaded engine (WebKit under CI, beside two other browsers) may draw the keys' moves late: read until they
        // settle, for up to 6 s (3 s was once not enough with the three engines at once on a loaded machine)
        for (let i = 0; i < 60; i += 1) {
          m = await page.evaluate(marks);
          if (m.segments.length === 1 && m.segments[0] === 'tp') break;
          await new Promise((resolve) => setTimeout(resolve, 100));
        }
        assert.deepEqual(m.segments, ['tp']);
        await shot(page, '#mfu', 'focus-mfu-tp.png');
        // the other step's events mark nothing: its step is not the bar's
        await page.evaluate(pointAtStep, '#other', 0.2, 0.012);
        await page.waitFor(readsEvent, ['#other'], { what: "the other step's event read" });
        m = await page.evaluate(marks);
        assert.deepEqual(m.segments, ['tp'], 'unchanged by a figure of another step');
      });
    });
  });
}
