// Printing the article in headless Chromium: every widget draws before printing, even those never scrolled into view,
// controls and note buttons are hidden, the figure prints light on white, and the PDF is written for a look.
import assert from 'node:assert/strict';
import { writeFile } from 'node:fs/promises';
import { after, before, test } from 'node:test';

import { SCREENSHOTS, openPage, useSite } from './harness.mjs';

const site = useSite(before, after);
const WIDGETS = ['parascope-axes', 'parascope-ring', 'parascope-bubble', 'parascope-mfu'];

const allReady = (page) =>
  page.waitForFunction((names) => names.every((n) => document.querySelector(n)?.hasAttribute('data-ready')), WIDGETS,
    { timeout: 10000 });

/** Visible form controls and buttons inside every widget (there should be none in print). */
const visibleControls = (page) => page.evaluate((names) => names.flatMap((n) => {
  const root = document.querySelector(n).shadowRoot;
  return [...root.querySelectorAll('input, select, button, .controls')]
    .filter((el) => el.getClientRects().length > 0 && getComputedStyle(el).visibility !== 'hidden')
    .map((el) => `${n} ${el.localName}${el.name ? `[name=${el.name}]` : ''}`);
}), WIDGETS);

test('print media starts every widget, hides the controls and prints without the reserved gaps', async () => {
  const { page, problems, context } = await openPage(site(), '', { width: 1280, height: 800 });
  await page.waitForFunction(() => document.querySelector('parascope-axes')?.hasAttribute('data-ready'));
  const waiting = await page.evaluate((names) => names.filter((n) => !document.querySelector(n).hasAttribute('data-ready')), WIDGETS);
  assert.ok(waiting.length > 0, 'some widgets should still be waiting off screen');
  await page.emulateMedia({ media: 'print' });
  await allReady(page);
  assert.deepEqual(await visibleControls(page), []);
  const gaps = await page.evaluate((names) => names.map((n) => getComputedStyle(document.querySelector(n), '::before').display), WIDGETS);
  assert.deepEqual(gaps, WIDGETS.map(() => 'none'));
  await page.screenshot({ path: new URL('print-1280.png', SCREENSHOTS).pathname, fullPage: true });
  // The PDF as a reader's print makes it: from the screen media, so the print media query starts to apply at the
  // paper's width (under the emulation above it already applied at the window's, and the figures were drawn for that).
  await page.emulateMedia({ media: null });
  const pdf = await page.pdf({ format: 'A4', printBackground: false });
  await writeFile(new URL('print.pdf', SCREENSHOTS), pdf);
  assert.ok(pdf.length > 10000);
  assert.deepEqual(problems, []);
  await context.close();
});

test('the beforeprint event starts every widget that has not started', async () => {
  const { page, context } = await openPage(site(), '', { width: 1280, height: 800 });
  await page.waitForFunction(() => document.querySelector('parascope-axes')?.hasAttribute('data-ready'));
  await page.evaluate(() => window.dispatchEvent(new Event('beforeprint')));
  await allReady(page);
  await context.close();
});

test('a dark-mode reader prints black on white', async () => {
  const { page, context } = await openPage(site(), '', { width: 1280, height: 800 });
  await page.emulateMedia({ colorScheme: 'dark', media: 'print' });
  await allReady(page);
  const colours = await page.evaluate(() => {
    const frame = document.querySelector('parascope-mfu').shadowRoot.querySelector('.frame');
    return { page: getComputedStyle(document.body).color, background: getComputedStyle(document.body).backgroundColor,
      widget: getComputedStyle(frame).color };
  });
  assert.deepEqual(colours, { page: 'rgb(0, 0, 0)', background: 'rgb(255, 255, 255)', widget: 'rgb(29, 35, 48)' });
  await context.close();
});

test('printed, each drawing is repainted for the paper\'s width (no frame runs before the snapshot)', async () => {
  const { page, problems, context } = await openPage(site(), '', { width: 1280, height: 800 });
  await page.evaluate(() => window.dispatchEvent(new Event('beforeprint')));  // starts every widget
  await allReady(page);
  await page.waitForFunction(() => new Promise((resolve) => { requestAnimationFrame(() => requestAnimationFrame(() => resolve(true))); }));
  // Registered after the widgets' own print listeners, so it reads what they drew for print.
  await page.evaluate(() => {
    const bubble = document.querySelector('parascope-bubble').shadowRoot;
    const grid = document.querySelector('parascope-axes').shadowRoot.querySelector('.axes-grid-box');
    window.printed = [];
    matchMedia('print').addEventListener('change', (e) => {
      if (!e.matches) return;
      const plot = bubble.querySelector('.bubble-plot');
      window.printed.push({ bubble: { box: Math.floor(plot.getBoundingClientRect().width),
        drawn: parseFloat(plot.querySelector('canvas').style.width) },
      axes: { box: grid.clientWidth, drawn: grid.querySelector('svg').viewBox.baseVal.width } });
    });
  });
  const screen = await page.evaluate(() => document.querySelector('parascope-bubble').shadowRoot.querySelector('.bubble-plot').clientWidth);
  await page.pdf({ format: 'A4', printBackground: false });
  const [printed] = await page.evaluate(() => window.printed);
  assert.ok(printed, 'the print media query applied while printing');
  assert.notEqual(printed.bubble.box, screen, 'the paper gives the chart another width than the screen (else this checks nothing)');
  assert.equal(printed.bubble.drawn, printed.bubble.box, 'the bubble\'s canvas is drawn for the printed plot');
  assert.ok(printed.axes.drawn <= printed.axes.box && printed.axes.drawn > printed.axes.box - 16,
    `the axes' grid is drawn ${printed.axes.drawn} px wide in a ${printed.axes.box} px box on paper`);
  assert.deepEqual(problems, []);
  await context.close();
});
