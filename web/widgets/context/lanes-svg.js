// The timing lanes as SVG (model/lanes.js places them): per pass, the attention lane and the K/V lane on one time
// axis, the exposed part (the attention waiting for keys and values) hatched, the current step outlined.
import { svg } from '../../lib/dom.js';
import { seconds } from '../../lib/format.js';

const W = 400;
const X0 = 86; // the lanes' start: right of the widest name ("backward": 74 units in WebKitGTK's sans) and a gap
const ROW = 50;
const BAR = 14;

/** { rows, scale } from laneRows, `current`: the step to outline (-1: none). Returns an <svg>. */
export function lanesSvg({ rows, scale }, current, label) {
  const height = 14 + rows.length * ROW + 18;
  const root = svg('svg', { viewBox: `0 0 ${W} ${height}`, class: 'context-lanes', role: 'img', 'aria-label': label });
  root.append(
    svg(
      'defs',
      {},
      svg(
        'pattern',
        { id: 'context-hatch', width: 6, height: 6, patternUnits: 'userSpaceOnUse', patternTransform: 'rotate(45)' },
        svg('rect', { width: 2.5, height: 6, class: 'context-hatch-line' }),
      ),
    ),
  );
  const x = (t) => X0 + (scale > 0 ? (t / scale) * (W - X0 - 4) : 0);
  rows.forEach((row, r) => {
    const y = 8 + r * ROW;
    root.append(
      svg('text', { x: 0, y: y + BAR / 2, class: 'context-label lane' }, row.name),
      svg('text', { x: 0, y: y + BAR + 4 + BAR / 2, class: 'context-label lane small' }, 'K/V'),
      svg('line', { x1: X0, x2: W - 4, y1: y + BAR + 2, y2: y + BAR + 2, class: 'context-lane-line' }),
    );
    for (const b of row.bars) {
      const lane = b.kind === 'transfer' ? 1 : 0;
      const cls = `context-bar ${b.kind}${b.step === current ? ' current' : ''}`;
      const w = Math.max(0.6, x(b.end) - x(b.start));
      const rect = svg('rect', { x: x(b.start), y: y + lane * (BAR + 4), width: w, height: BAR, class: cls });
      rect.append(
        svg('title', {}, `${b.kind === 'exposed' ? 'waiting for K/V' : b.kind}: ${seconds(b.end - b.start)}`),
      );
      root.append(rect);
    }
  });
  const axisY = 8 + rows.length * ROW + 6;
  root.append(
    svg('text', { x: X0, y: axisY, class: 'context-label axis start' }, '0'),
    svg('text', { x: W - 4, y: axisY, class: 'context-label axis end' }, seconds(scale)),
  );
  return root;
}
