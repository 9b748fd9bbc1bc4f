// The stacked memory chart as SVG: one step's time across, bytes up, each part (model/stack.js PARTS) stacked per
// drawn step, the GPU's capacity dashed, the engine's memory error band shaded, the peak's moment marked, and under it
// a strip of the activation sets in flight (one bar per microbatch and chunk, from its forward to its backward).
// Drawn at the box's own width in px, so text keeps its size at 360 px.
import { svg } from '../../lib/dom.js';
import { bytes, seconds } from '../../lib/format.js';
import { PARTS, drawnSteps, moment, setLanes } from './model/stack.js';

const H = 250; // the stacked chart, px
const STRIP = 44; // the activation sets' strip, px
const M = { left: 58, right: 12, top: 14, bottom: 22 };
const GIB = 2 ** 30;

/** A round tick step for a span: 1, 2 or 5 × a power of ten, about `n` ticks. */
function tickStep(span, n) {
  const raw = span / n;
  const p = 10 ** Math.floor(Math.log10(raw));
  return [1, 2, 5, 10].map((k) => k * p).find((s) => s >= raw);
}

/**
 * t: the memory_timeline answer; band: [low, high] bytes or null; width: px. Returns { element, steps, x, at(time) }:
 * steps the drawn steps (model/stack.js), x seconds -> px, and mark(index) moving the cursor to segment `index`.
 */
export function memoryChart(t, band, width, label) {
  const W = Math.max(260, Math.round(width));
  const plotW = W - M.left - M.right;
  const top = Math.max(t.capacity, t.peak.total, band?.[1] ?? 0) * 1.04;
  const x = (s) => M.left + (s / t.step_time) * plotW;
  const y = (b) => M.top + H - (b / top) * H;
  const root = svg('svg', {
    class: 'mem-chart',
    viewBox: `0 0 ${W} ${M.top + H + M.bottom + STRIP + 18}`,
    width: W,
    role: 'img',
    'aria-label': label,
  });
  const g = (cls) => svg('g', { class: cls });
  const grid = g('mem-grid');
  const gib = tickStep(top / GIB, 5);
  for (let v = 0; v * GIB <= top; v += gib) {
    grid.append(
      svg('line', { x1: M.left, x2: W - M.right, y1: y(v * GIB), y2: y(v * GIB) }),
      svg('text', { x: M.left - 6, y: y(v * GIB) + 4, class: 'tick y' }, bytes(v * GIB)),
    );
  }
  const sec = tickStep(t.step_time, Math.max(2, Math.floor(plotW / 90)));
  for (let v = 0; v <= t.step_time * 1.0001; v += sec) {
    grid.append(svg('text', { x: x(v), y: M.top + H + 16, class: 'tick x' }, seconds(v || 0).replace(/^0 ns$/, '0')));
  }
  root.append(grid);

  if (band) {
    root.append(
      svg('rect', {
        class: 'mem-band',
        x: M.left,
        width: plotW,
        y: y(band[1]),
        height: Math.max(1, y(band[0]) - y(band[1])),
        'data-low': band[0],
        'data-high': band[1],
      }),
    );
  }

  const steps = drawnSteps(t, plotW);
  root.append(areas(t, steps, x, y));

  root.append(
    svg('line', { class: 'mem-cap', x1: M.left, x2: W - M.right, y1: y(t.capacity), y2: y(t.capacity) }),
    svg('text', { class: 'mem-cap-label', x: W - M.right - 4, y: y(t.capacity) - 5 }, `capacity ${bytes(t.capacity)}`),
  );
  const px = x(t.peak.time);
  root.append(
    svg('line', { class: 'mem-peak', x1: px, x2: px, y1: M.top, y2: M.top + H + STRIP + 22 }),
    svg('circle', { class: 'mem-peak-dot', cx: px, cy: y(t.peak.total), r: 4, 'data-total': t.peak.total }),
    svg(
      'text',
      { class: 'mem-peak-label', x: px + (px > M.left + plotW * 0.7 ? -6 : 6), y: M.top + 10 },
      `peak ${bytes(t.peak.total)}`,
    ),
  );
  if (px > M.left + plotW * 0.7) root.lastChild.classList.add('left');
  root.append(strip(t, x, M.top + H + M.bottom, plotW));
  const cursor = svg('line', { class: 'mem-cursor', y1: M.top, y2: M.top + H + STRIP + 22, hidden: true });
  root.append(cursor);
  return {
    element: root,
    steps,
    timeAt: (px) => ((px - M.left) / plotW) * t.step_time,
    mark(index) {
      const m = moment(t, index);
      const mid = x((m.start + m.end) / 2);
      cursor.setAttribute('x1', mid);
      cursor.setAttribute('x2', mid);
      cursor.removeAttribute('hidden');
    },
  };
}

/** One <path> per part: its band's top and bottom along the drawn steps (read from the answer's columns). */
function areas(t, steps, x, y) {
  const group = svg('g', { class: 'mem-areas' });
  const n = steps.length;
  const x0 = steps.map((s) => x(s.from).toFixed(1));
  const x1 = steps.map((s) => x(s.to).toFixed(1));
  let lower = new Array(n).fill(y(0).toFixed(1));
  const base = new Float64Array(n);
  for (const [key, words, from] of PARTS) {
    const column = from === 'segments' ? t.segments[key] : null;
    const upper = new Array(n);
    for (let i = 0; i < n; i += 1) {
      base[i] += column ? column[steps[i].index] : t.states[key];
      upper[i] = y(base[i]).toFixed(1);
    }
    const d = `M${stepEdge(x0, x1, upper, false)}L${stepEdge(x0, x1, lower, true)}Z`;
    group.append(svg('path', { d, class: `mem-part ${key}`, 'data-part': key }, svg('title', {}, words)));
    lower = upper;
  }
  return group;
}

/**
 * A stepped edge through the drawn steps, left to right (or right to left): each run of steps at the same height is
 * one horizontal line from its first step's start to its last's end, so a part that holds still (the model states,
 * most of a stage's steady state) costs two points, not four per step. The steps are contiguous (drawnSteps).
 */
function stepEdge(x0, x1, ys, backwards) {
  const points = [];
  const n = ys.length;
  for (let i = 0; i < n;) {
    let j = i;
    while (j + 1 < n && ys[j + 1] === ys[i]) j += 1;
    points.push(`${x0[i]},${ys[i]}L${x1[j]},${ys[i]}`);
    i = j + 1;
  }
  if (backwards) points.reverse();
  return backwards ? points.map((p) => p.split('L').reverse().join('L')).join('L') : points.join('L');
}

/** The activation sets as bars, one lane each while held (lanes reused once a set is freed). */
function strip(t, x, top, plotW) {
  const { sets, lanes } = setLanes(t);
  const group = svg('g', { class: 'mem-strip', 'data-sets': sets.length, 'data-lanes': lanes });
  group.append(svg('text', { class: 'tick strip', x: x(0) - 6, y: top + STRIP / 2 + 4 }, 'sets'));
  const lane = STRIP / Math.max(1, lanes);
  const d = [[], []];
  for (const s of sets) {
    const x0 = x(s.from);
    const w = Math.max(0.5, x(s.to) - x0);
    d[s.microbatch % 2].push(
      `M${x0.toFixed(1)},${(top + s.lane * lane).toFixed(2)}h${w.toFixed(1)}v${lane.toFixed(2)}h${(-w).toFixed(1)}Z`,
    );
  }
  d.forEach((parts, i) => group.append(svg('path', { d: parts.join(''), class: `mem-set ${i ? 'odd' : 'even'}` })));
  group.append(svg('rect', { class: 'mem-strip-frame', x: x(0), y: top, width: plotW, height: STRIP }));
  return group;
}
