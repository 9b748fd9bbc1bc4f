// The ring figure's geometry for 2..16 GPUs: one fixed square, nothing overlapping, numbers only where they fit at
// 11 px or more on a 360 px screen (issue 10, items 8 and 9).
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { FONT, MIN_WIDTH_PX, VIEW, labelWidth, ringLayout, textWidth } from '../../web/widgets/ring/model/layout.js';
import { nodeEngine } from './node-engine.mjs';

const engine = await nodeEngine();
const maxValue = (n) => {
  const t = engine.call({
    op: 'allreduce',
    algorithm: 'ring',
    gpus: n,
    bytes: 1e6,
    bandwidth: 1e9,
    latency: 0,
    trace: true,
  });
  return Math.max(...t.rounds.at(-1).buffers.flat());
};

/** A text label's box, generously estimated. */
const labelBox = (l) => {
  const w = labelWidth(l.text);
  const x = l.anchor === 'middle' ? l.x - w / 2 : l.anchor === 'end' ? l.x - w : l.x;
  return { x, y: l.y - FONT / 2 - 1, w, h: FONT + 2 };
};
const overlap = (a, b) => a.x < b.x + b.w && b.x < a.x + a.w && a.y < b.y + b.h && b.y < a.y + a.h;
const inside = (a) => a.x >= 0 && a.y >= 0 && a.x + a.w <= VIEW && a.y + a.h <= VIEW;

test('text is 11 px or more whenever the figure is at least 284 px wide (a 360 px screen gives it about 290)', () => {
  assert.ok((FONT * MIN_WIDTH_PX) / VIEW >= 11);
  assert.ok(MIN_WIDTH_PX <= 290);
});

for (let n = 2; n <= 16; n += 1) {
  test(`${n} GPUs: boxes, cells and labels stay inside the square and apart; numbers fit their cells`, () => {
    const m = maxValue(n);
    const layout = ringLayout(n, m);
    assert.equal(layout.kind, n <= 8 ? 'circle' : 'grid');
    for (const b of layout.boxes) assert.ok(inside(b), `box ${b.g} outside`);
    if (layout.kind === 'circle') {
      layout.boxes.forEach((a, i) =>
        layout.boxes.forEach((b, j) => {
          if (j > i) assert.ok(!overlap(a, b), `boxes ${i} ${j}`);
        }),
      );
    }
    const labels = layout.labels.map(labelBox);
    labels.forEach((a, i) => {
      assert.ok(inside(a), `label ${layout.labels[i].text} outside`);
      labels.forEach((b, j) => {
        if (j > i) assert.ok(!overlap(a, b), `labels ${layout.labels[i].text} / ${layout.labels[j].text}`);
      });
      for (const row of layout.cells)
        for (const c of row)
          assert.ok(!overlap(a, { x: c.x, y: c.y, w: c.s, h: c.s }), `label ${layout.labels[i].text} on a cell`);
    });
    const s = layout.cells[0][0].s;
    if (layout.showValues) assert.ok(s - 2 >= textWidth(String(m).length), `${m} does not fit a ${s} cell`);
    // Up to 10 GPUs every number is printed in the figure; beyond, the figure shows colours and the strip the numbers.
    assert.equal(layout.showValues, n <= 10);
  });
}
