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

/** A coordinate in tenths of a px (an integer) as path text: 1234 -> "123.4", 1230 -> "123". */
function tenths(q) {
  const a = Math.abs(q);
  const whole = Math.floor(a / 10);
  return `${q < 0 ? '-' : ''}${whole}${a % 10 ? `.${a % 10}` : ''}`;
}

/** A px coordinate to the tenth, as path text. */
const px = (v) => tenths(Math.round(v * 10));

/**
 * One <path> per part: its band's top and bottom along the drawn steps (read from the answer's columns). Heights are
 * compared in tenths of a px, and only the ends of each run of equal height are written out (a move redraws them all).
 */
function areas(t, steps, x, y) {
  const group = svg('g', { class: 'mem-areas' });
  const n = steps.length;
  const x0 = steps.map((s) => x(s.from));
  const x1 = steps.map((s) => x(s.to));
  let lower = new Int32Array(n).fill(Math.round(y(0) * 10));
  const base = new Float64Array(n);
  for (const [key, words, from] of PARTS) {
    const column = from === 'segments' ? t.segments[key] : null;
    const upper = new Int32Array(n);
    for (let i = 0; i < n; i += 1) {
      base[i] += column ? column[steps[i].index] : t.states[key];
      upper[i] = Math.round(y(base[i]) * 10);
    }
    const d = `M${stepEdge(x0, x1, upper)}L${stepEdgeBack(x0, x1, lower)}Z`;
    group.append(svg('path', { d, class: `mem-part ${key}`, 'data-part': key }, svg('title', {}, words)));
    lower = upper;
  }
  return group;
}

/**
 * A stepped edge through the drawn steps, left to right: each run of steps at the same height (`ys`, tenths of a px)
 * is one horizontal line from its first step's start to its last's end, so a part that holds still (the model states,
 * most of a stage's steady state) costs two points, not four per step. The steps are contiguous (drawnSteps).
 */
function stepEdge(x0, x1, ys) {
  const points = [];
  const n = ys.length;
  for (let i = 0; i < n;) {
    let j = i;
    while (j + 1 < n && ys[j + 1] === ys[i]) j += 1;
    const h = tenths(ys[i]);
    points.push(`${px(x0[i])},${h}L${px(x1[j])},${h}`);
    i = j + 1;
  }
  return points.join('L');
}

/** The same edge right to left (a band's bottom, closing its path). */
function stepEdgeBack(x0, x1, ys) {
  const points = [];
  for (let j = ys.length - 1; j >= 0;) {
    let i = j;
    while (i - 1 >= 0 && ys[i - 1] === ys[j]) i -= 1;
    const h = tenths(ys[j]);
    points.push(`${px(x1[j])},${h}L${px(x0[i])},${h}`);
    j = i - 1;
  }
  return points.join('L');
}

/** The activation sets as bars, one lane each while held (lanes reused once a set is freed). */
function strip(t, x, top, plotW) {
  const { sets, lanes } = setLanes(t);
  const group = svg('g', { class: 'mem-strip', 'data-sets': sets.length, 'data-lanes': lanes });
  group.append(svg('text', { class: 'tick strip', x: x(0) - 6, y: top + STRIP / 2 + 4 }, 'sets'));
  const lane = STRIP / Math.max(1, lanes);
  const d = [[], []];
  const height = lane.toFixed(2);
  const laneTop = Array.from({ length: lanes }, (_, k) => (top + k * lane).toFixed(2));
  for (const s of sets) {
    const x0 = x(s.from);
    const w = px(Math.max(0.5, x(s.to) - x0));
    d[s.microbatch % 2].push(`M${px(x0)},${laneTop[s.lane]}h${w}v${height}h-${w}Z`);
  }
  d.forEach((parts, i) => group.append(svg('path', { d: parts.join(''), class: `mem-set ${i ? 'odd' : 'even'}` })));
  group.append(svg('rect', { class: 'mem-strip-frame', x: x(0), y: top, width: plotW, height: STRIP }));
  return group;
}
