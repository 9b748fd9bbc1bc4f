// The stacked memory chart as SVG: one step's time across, bytes up, each part (model/stack.js PARTS) stacked per
// drawn step, the GPU's capacity dashed (its label and the peak's kept apart: model/labels.js), the engine's memory error band shaded, the peak's moment marked, and under it
// a strip of the activation sets in flight (one bar per microbatch and chunk, from its forward to its backward).
// Drawn at the box's own width in px, so text keeps its size at 360 px.
import { setAttributes as set, setText as text, svg } from '../../lib/dom.js';
import { bytes, seconds } from '../../lib/format.js';
import { PARTS, drawnSteps, moment, setLanes } from './model/stack.js';
import { placeLabels } from './model/labels.js';

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
 * The chart, built once and redrawn in place: each move sets the attributes and text that changed on the same nodes
 * (a new <svg> per move made Chromium create, shape and lay out every node again: at Megatron 1T's 64 x 512 a
 * redraw's layout in Chromium went from a median 1.6 to 1.1 ms, tests/bench/memory.bench.mjs's page, 80 redraws).
 * draw(t, band, width, label) takes the memory_timeline answer, band [low, high] bytes or null and the width in px,
 * and returns { element, steps, timeAt(px), mark(index) }: steps the drawn steps (model/stack.js), timeAt px ->
 * seconds, and mark(index) moving the cursor to segment `index`.
 */
export function memoryChart() {
  const root = svg('svg', { class: 'mem-chart', viewBox: '0 0 0 0', width: 0, role: 'img', 'aria-label': '' });
  const grid = svg('g', { class: 'mem-grid' });
  const ticks = { rows: 0, cols: 0 }; // how many of each the grid's nodes draw
  const band = svg('rect', { class: 'mem-band', x: 0, width: 0, y: 0, height: 0, 'data-low': 0, 'data-high': 0 });
  const parts = PARTS.map(([key, words]) =>
    svg('path', { d: 'M0,0Z', class: `mem-part ${key}`, 'data-part': key }, svg('title', {}, words)),
  );
  const cap = svg('line', { class: 'mem-cap', x1: 0, x2: 0, y1: 0, y2: 0 });
  const capLabel = svg('text', { class: 'mem-cap-label', x: 0, y: 0 }, '');
  const peak = svg('line', { class: 'mem-peak', x1: 0, x2: 0, y1: 0, y2: 0 });
  const dot = svg('circle', { class: 'mem-peak-dot', cx: 0, cy: 0, r: 4, 'data-total': 0 });
  const peakLabel = svg('text', { class: 'mem-peak-label', x: 0, y: 0 }, '');
  const sets = stripNodes();
  const cursor = svg('line', { class: 'mem-cursor', y1: 0, y2: 0, hidden: true });
  const areas = svg('g', { class: 'mem-areas' }, parts);
  root.append(grid, areas, cap, capLabel, peak, dot, peakLabel, sets.group, cursor);
  return {
    element: root,
    draw(t, range, width, label) {
      const W = Math.max(260, Math.round(width));
      const plotW = W - M.left - M.right;
      const top = Math.max(t.capacity, t.peak.total, range?.[1] ?? 0) * 1.04;
      const x = (s) => M.left + (s / t.step_time) * plotW;
      const y = (b) => M.top + H - (b / top) * H;
      set(root, { viewBox: `0 0 ${W} ${M.top + H + M.bottom + STRIP + 18}`, width: W, 'aria-label': label });
      drawGrid(grid, ticks, t, top, W, plotW, x, y);
      if (range) {
        const at = { x: M.left, width: plotW, y: y(range[1]), height: Math.max(1, y(range[0]) - y(range[1])) };
        set(band, { ...at, 'data-low': range[0], 'data-high': range[1] });
        if (!band.isConnected) root.insertBefore(band, areas);
      } else band.remove();
      const steps = drawnSteps(t, plotW);
      drawAreas(parts, t, steps, x, y);
      set(cap, { x1: M.left, x2: W - M.right, y1: y(t.capacity), y2: y(t.capacity) });
      const px = x(t.peak.time);
      const words = { cap: `capacity ${bytes(t.capacity)}`, peak: `peak ${bytes(t.peak.total)}` };
      const at = placeLabels({
        plot: { left: M.left, right: W - M.right, top: M.top },
        cap: { y: y(t.capacity), words: words.cap },
        peak: { x: px, words: words.peak },
      });
      set(capLabel, { x: at.cap.x, y: at.cap.y });
      text(capLabel, words.cap);
      set(peak, { x1: px, x2: px, y1: M.top, y2: M.top + H + STRIP + 22 });
      set(dot, { cx: px, cy: y(t.peak.total), 'data-total': t.peak.total });
      const left = at.peak.anchor === 'end';
      set(peakLabel, { class: left ? 'mem-peak-label left' : 'mem-peak-label', x: at.peak.x, y: at.peak.y });
      text(peakLabel, words.peak);
      drawStrip(sets, t, x, M.top + H + M.bottom, plotW);
      set(cursor, { y1: M.top, y2: M.top + H + STRIP + 22 });
      return {
        element: root,
        steps,
        timeAt: (at) => ((at - M.left) / plotW) * t.step_time,
        mark(index) {
          const m = moment(t, index);
          const mid = x((m.start + m.end) / 2);
          set(cursor, { x1: mid, x2: mid });
          cursor.removeAttribute('hidden');
        },
      };
    },
  };
}

/**
 * The gridlines and ticks: GiB up the side (a line and a label each), then seconds along the bottom. Last time's nodes
 * (`ticks`: how many of each) are redrawn in place; only ticks more or fewer than last time are added or removed.
 */
function drawGrid(grid, ticks, t, top, W, plotW, x, y) {
  const rows = [];
  const gib = tickStep(top / GIB, 5);
  for (let v = 0; v * GIB <= top; v += gib) rows.push(v * GIB);
  const cols = [];
  const sec = tickStep(t.step_time, Math.max(2, Math.floor(plotW / 90)));
  for (let v = 0; v <= t.step_time * 1.0001; v += sec) cols.push(v);
  const nodes = grid.children;
  for (; ticks.rows > rows.length; ticks.rows -= 1) {
    nodes[2 * ticks.rows - 1].remove();
    nodes[2 * ticks.rows - 2].remove();
  }
  for (; ticks.rows < rows.length; ticks.rows += 1) {
    const line = svg('line', { x1: 0, x2: 0, y1: 0, y2: 0 });
    grid.insertBefore(line, nodes[2 * ticks.rows] ?? null);
    line.after(svg('text', { x: 0, y: 0, class: 'tick y' }));
  }
  for (; ticks.cols > cols.length; ticks.cols -= 1) grid.lastChild.remove();
  for (; ticks.cols < cols.length; ticks.cols += 1) grid.append(svg('text', { x: 0, y: 0, class: 'tick x' }));
  rows.forEach((b, i) => {
    set(nodes[2 * i], { x1: M.left, x2: W - M.right, y1: y(b), y2: y(b) });
    set(nodes[2 * i + 1], { x: M.left - 6, y: y(b) + 4 });
    text(nodes[2 * i + 1], bytes(b));
  });
  cols.forEach((v, i) => {
    const node = nodes[2 * rows.length + i];
    set(node, { x: x(v), y: M.top + H + 16 });
    text(node, seconds(v || 0).replace(/^0 ns$/, '0'));
  });
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
 * Each part's <path> (`paths`, in PARTS order): its band's top and bottom along the drawn steps (read from the
 * answer's columns). Heights are compared in tenths of a px, and only the ends of each run of equal height are written
 * out; a path whose outline did not move keeps its `d`.
 */
function drawAreas(paths, t, steps, x, y) {
  const n = steps.length;
  const x0 = steps.map((s) => x(s.from));
  const x1 = steps.map((s) => x(s.to));
  let lower = new Int32Array(n).fill(Math.round(y(0) * 10));
  const base = new Float64Array(n);
  PARTS.forEach(([key, , from], k) => {
    const column = from === 'segments' ? t.segments[key] : null;
    const upper = new Int32Array(n);
    for (let i = 0; i < n; i += 1) {
      base[i] += column ? column[steps[i].index] : t.states[key];
      upper[i] = Math.round(y(base[i]) * 10);
    }
    set(paths[k], { d: `M${stepEdge(x0, x1, upper)}L${stepEdgeBack(x0, x1, lower)}Z` });
    lower = upper;
  });
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

/** The activation sets' strip: its group, its label, a path for the even microbatches' sets and one for the odd's. */
function stripNodes() {
  const label = svg('text', { class: 'tick strip', x: 0, y: 0 }, 'sets');
  const even = svg('path', { d: 'M0,0Z', class: 'mem-set even' });
  const odd = svg('path', { d: 'M0,0Z', class: 'mem-set odd' });
  const frame = svg('rect', { class: 'mem-strip-frame', x: 0, y: 0, width: 0, height: STRIP });
  const group = svg('g', { class: 'mem-strip', 'data-sets': 0, 'data-lanes': 0 }, label, even, odd, frame);
  return { group, label, paths: [even, odd], frame };
}

/** The activation sets as bars, one lane each while held (lanes reused once a set is freed). */
function drawStrip(nodes, t, x, top, plotW) {
  const { sets, lanes } = setLanes(t);
  set(nodes.group, { 'data-sets': sets.length, 'data-lanes': lanes });
  set(nodes.label, { x: x(0) - 6, y: top + STRIP / 2 + 4 });
  const lane = STRIP / Math.max(1, lanes);
  const d = [[], []];
  const height = lane.toFixed(2);
  const laneTop = Array.from({ length: lanes }, (_, k) => (top + k * lane).toFixed(2));
  for (const s of sets) {
    const x0 = x(s.from);
    const w = px(Math.max(0.5, x(s.to) - x0));
    d[s.microbatch % 2].push(`M${px(x0)},${laneTop[s.lane]}h${w}v${height}h-${w}Z`);
  }
  d.forEach((parts, i) => set(nodes.paths[i], { d: parts.join('') }));
  set(nodes.frame, { x: x(0), y: top, width: plotW, height: STRIP });
}
