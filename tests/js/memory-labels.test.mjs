// The memory chart's label places (web/widgets/memory/model/labels.js): the peak's label never covers the capacity's
// and stays inside the plot, at 360 px and at 1280 px, wherever the peak falls.
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { collide, labelBox, labelWidth, placeLabels } from '../../web/widgets/memory/model/labels.js';

/** The chart's plot at a box width W (chart.js: margins 58 left, 12 right, 14 top). */
const plotAt = (W) => ({ left: 58, right: W - 12, top: 14 });

/** Both labels' boxes for a placement. */
function boxes(at, words) {
  return {
    cap: labelBox(at.cap.x, at.cap.y, labelWidth(words.cap), at.cap.anchor),
    peak: labelBox(at.peak.x, at.peak.y, labelWidth(words.peak, true), at.peak.anchor),
  };
}

const words = { cap: 'capacity 80 GiB', peak: 'peak 71.3 GiB' };

test('two boxes collide when they overlap or come within the gap, and not when apart', () => {
  const a = { left: 0, right: 10, top: 0, bottom: 10 };
  assert.equal(collide(a, { left: 5, right: 15, top: 5, bottom: 15 }), true);
  assert.equal(collide(a, { left: 12, right: 20, top: 0, bottom: 10 }), true);
  assert.equal(collide(a, { left: 14, right: 20, top: 0, bottom: 10 }), false);
  assert.equal(collide(a, { left: 0, right: 10, top: 20, bottom: 30 }), false);
});

test('at 360 px with the capacity line at the top, the peak label leaves the capacity label clear', () => {
  // the chart's top is capacity × 1.04: the line sits 9.6 px under the plot's top, its label above it
  const plot = plotAt(300);
  for (let share = 0; share <= 1; share += 0.05) {
    const x = plot.left + share * (plot.right - plot.left);
    const at = placeLabels({ plot, cap: { y: plot.top + 9.6, words: words.cap }, peak: { x, words: words.peak } });
    const b = boxes(at, words);
    assert.equal(collide(b.cap, b.peak), false, `peak at ${Math.round(share * 100)} % of the plot`);
    assert.ok(b.peak.left >= plot.left && b.peak.right <= plot.right, `inside at ${Math.round(share * 100)} %`);
  }
});

test('at 360 px, a peak label that would touch the capacity label rises into the margin atop its line', () => {
  // the article's memory figure at 360 px (Llama 3 70B, 64 H100s): the labels stood 1 px apart, overlapping across
  const plot = plotAt(298);
  const at = placeLabels({ plot, cap: { y: 44, words: words.cap }, peak: { x: 101, words: 'peak 73.4 GiB' } });
  assert.deepEqual(at.peak, { x: 107, y: 12, anchor: 'start' });
});

test("the peak label keeps its old place (the plot's top, right of its line) when nothing is in the way", () => {
  const plot = plotAt(1200);
  const at = placeLabels({ plot, cap: { y: 200, words: words.cap }, peak: { x: 300, words: words.peak } });
  assert.deepEqual(at.peak, { x: 306, y: 24, anchor: 'start' });
  assert.deepEqual(at.cap, { x: 1184, y: 195, anchor: 'end' });
});

test('past 70 % of the plot the peak label goes left of its line, and right again if left would cover the capacity', () => {
  const plot = plotAt(1200);
  const far = placeLabels({ plot, cap: { y: 200, words: words.cap }, peak: { x: 1000, words: words.peak } });
  assert.equal(far.peak.anchor, 'end');
  // capacity at the top, peak just right of the capacity label's left end: left of the line would cover it
  const near = placeLabels({ plot, cap: { y: 24, words: words.cap }, peak: { x: 1100, words: words.peak } });
  const b = boxes(near, words);
  assert.equal(collide(b.cap, b.peak), false);
  assert.ok(near.peak.y > 24, 'moved under the capacity line');
});

test('a peak label too wide for either side at the top row stays inside the plot', () => {
  const plot = plotAt(260);
  const long = 'peak 1,234.5 GiB';
  const at = placeLabels({ plot, cap: { y: 23.6, words: words.cap }, peak: { x: 130, words: long } });
  const box = labelBox(at.peak.x, at.peak.y, labelWidth(long, true), at.peak.anchor);
  assert.ok(box.left >= plot.left && box.right <= plot.right);
});
