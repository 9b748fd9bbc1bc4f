// Resizing the window: every drawn figure (the axes' grid, the bubble's canvas, the planner's scatter) repaints for its
// box's new width in the next frame, and no ResizeObserver callback changes the page (the harness reports one that
// does: that is what makes a browser fire "ResizeObserver loop completed with undelivered notifications").
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';

import { FIGURES } from '../../web/widgets/index.js';
import { openPage, useSite } from './harness.mjs';

const site = useSite(before, after);
const WIDGETS = FIGURES.map((f) => f.tag); // every figure (web/widgets/index.js, the one list)

/** Each drawing's width against its box's (CSS px). */
function drawnWidths() {
  const shadow = (tag) => document.querySelector(tag).shadowRoot;
  const bubblePlot = shadow('parascope-bubble').querySelector('.bubble-plot');
  const plannerPlot = shadow('parascope-planner').querySelector('.planner-plot');
  return {
    bubble: { box: Math.floor(bubblePlot.getBoundingClientRect().width),
      drawn: parseFloat(bubblePlot.querySelector('canvas').style.width) },
    planner: { box: Math.floor(plannerPlot.clientWidth),
      drawn: Number(plannerPlot.querySelector('svg')?.getAttribute('width')) },
  };
}

const twoFrames = () => new Promise((resolve) => { requestAnimationFrame(() => requestAnimationFrame(() => resolve(true))); });

test('a resized window repaints each figure for its new width, and no ResizeObserver callback changes the page', async () => {
  const { page, problems, context } = await openPage(site(), '', { width: 1280, height: 900 });
  await page.evaluate(() => window.dispatchEvent(new Event('beforeprint')));  // starts every widget, on screen or not
  await page.waitForFunction((tags) => tags.every((t) => document.querySelector(t)?.hasAttribute('data-ready')), WIDGETS);
  await page.waitForFunction(() => document.querySelector('parascope-planner').shadowRoot.querySelector('.planner-plot svg'),
    null, { timeout: 60_000 });
  for (const width of [1280, 360, 1000, 700, 1280]) {
    await page.setViewportSize({ width, height: 900 });
    await page.waitForFunction(twoFrames);
    const w = await page.evaluate(drawnWidths);
    for (const [name, { box, drawn }] of Object.entries(w)) {
      assert.equal(drawn, box, `${width} px: the ${name}'s drawing is ${drawn} px wide in a ${box} px box`);
    }
  }
  assert.deepEqual(problems, []);
  await context.close();
});
