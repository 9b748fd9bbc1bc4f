// A canvas Gantt chart of a pipeline timeline: one row per stage, ops coloured by microbatch and shaded by kind, idle
// time hatched as the bubble, peak activations per stage in a column on the right. Drawing and hit testing only.

const KIND_LIGHTNESS = { F: 68, B: 50, W: 36 };
const KIND_NAMES = { F: 'forward', B: 'backward', W: 'weight gradient' };
export const GANTT_LAYOUT = { axis: 20, activations: 44, minRow: 8, maxRow: 26, budget: 330 };

/** Colour of an op: hue from its microbatch (golden-angle steps so neighbours differ), lightness from its kind. */
export function opColour(microbatch, kind) {
  return `hsl(${Math.round((microbatch * 137.508) % 360)} 62% ${KIND_LIGHTNESS[kind] ?? 50}%)`;
}

export function kindName(kind) {
  return KIND_NAMES[kind] ?? kind;
}

/** Row height for p stages: the chart stays about `budget` px tall, rows between minRow and maxRow. */
export function rowHeight(stages, layout = GANTT_LAYOUT) {
  return Math.max(layout.minRow, Math.min(layout.maxRow, Math.floor(layout.budget / stages)));
}

/** Index ranges of each stage's ops in the engine's column arrays (ops come grouped by stage, in execution order). */
export function stageRanges(ops, stages) {
  const first = new Int32Array(stages + 1).fill(-1);
  const n = ops.stage.length;
  for (let i = n - 1; i >= 0; i -= 1) first[ops.stage[i]] = i;
  first[stages] = n;
  for (let s = stages - 1; s >= 0; s -= 1) if (first[s] < 0) first[s] = first[s + 1];
  return first;
}

/** "Nice" tick step for a time axis of length `span` with about `count` ticks. */
function tickStep(span, count) {
  const raw = span / Math.max(1, count);
  const power = 10 ** Math.floor(Math.log10(raw));
  return [1, 2, 5, 10].map((k) => k * power).find((s) => s >= raw) ?? 10 * power;
}

let hatch = null;
function hatchPattern(ctx, ratio) {
  if (hatch?.ratio === ratio && hatch.ctx === ctx) return hatch.pattern;
  const size = Math.round(8 * ratio);
  const tile = document.createElement('canvas');
  tile.width = size;
  tile.height = size;
  const t = tile.getContext('2d');
  t.fillStyle = '#fbe3c9';
  t.fillRect(0, 0, size, size);
  t.strokeStyle = '#e39a4f';
  t.lineWidth = Math.max(1, ratio);
  t.beginPath();
  t.moveTo(0, size);
  t.lineTo(size, 0);
  t.moveTo(-size / 2, size / 2);
  t.lineTo(size / 2, -size / 2);
  t.moveTo(size / 2, size * 1.5);
  t.lineTo(size * 1.5, size / 2);
  t.stroke();
  hatch = { ctx, ratio, pattern: ctx.createPattern(tile, 'repeat') };
  return hatch.pattern;
}

/**
 * Draws `result` (an engine "pipeline" response with ops as columns) into `canvas`, `width` CSS px wide.
 * Returns the geometry needed for hit testing: { rowH, plotX, plotW, scale, ranges }.
 */
export function drawGantt(canvas, result, width, layout = GANTT_LAYOUT) {
  const p = result.stages;
  const ops = result.ops;
  const rowH = rowHeight(p, layout);
  const plotX = 0;
  const plotW = Math.max(40, width - layout.activations);
  const height = p * rowH + layout.axis;
  const ratio = globalThis.devicePixelRatio || 1;
  canvas.width = Math.round(width * ratio);
  canvas.height = Math.round(height * ratio);
  canvas.style.width = `${width}px`;
  canvas.style.height = `${height}px`;
  const ctx = canvas.getContext('2d');
  ctx.setTransform(ratio, 0, 0, ratio, 0, 0);
  ctx.clearRect(0, 0, width, height);

  const scale = result.makespan > 0 ? plotW / result.makespan : 0;
  // The bubble: every row is hatched from 0 to the makespan; ops are drawn over it, so what shows through is idle time.
  ctx.fillStyle = hatchPattern(ctx, ratio);
  ctx.fillRect(plotX, 0, plotW, p * rowH);

  const gap = rowH >= 12 ? 1 : 0;
  const ranges = stageRanges(ops, p);
  const { microbatch, kind, start, end } = ops;
  const label = rowH >= 14;
  ctx.font = `${Math.min(12, rowH - 4)}px system-ui, sans-serif`;
  ctx.textAlign = 'center';
  ctx.textBaseline = 'middle';
  for (let s = 0; s < p; s += 1) {
    const y = s * rowH + gap;
    const h = rowH - 2 * gap;
    for (let i = ranges[s]; i < ranges[s + 1]; i += 1) {
      const x0 = plotX + start[i] * scale;
      const w = (end[i] - start[i]) * scale;
      if (w <= 0) continue;
      const k = kind[i];
      ctx.fillStyle = opColour(microbatch[i], k);
      ctx.fillRect(x0, y, w > 2 ? w - gap : w, h);
      if (label && w >= 12) {
        ctx.fillStyle = k === 'F' ? '#1d2330' : '#fff';
        ctx.fillText(w >= 26 ? `${k}${microbatch[i]}` : k, x0 + w / 2, y + h / 2 + 0.5);
      }
    }
  }

  // Peak activations per stage, as bars in the right-hand column.
  const peak = result.peak_activations;
  const most = Math.max(1, ...peak);
  const ax = plotW + 6;
  const aw = layout.activations - 26;
  ctx.textAlign = 'left';
  ctx.font = `${Math.min(11, Math.max(8, rowH - 3))}px system-ui, sans-serif`;
  for (let s = 0; s < p; s += 1) {
    const y = s * rowH;
    ctx.fillStyle = '#c9cfdb';
    ctx.fillRect(ax, y + rowH * 0.2, Math.max(1, (peak[s] / most) * aw), rowH * 0.6);
    if (rowH >= 10) {
      ctx.fillStyle = '#1d2330';
      ctx.fillText(String(peak[s]), ax + aw + 3, y + rowH / 2);
    }
  }

  // Time axis.
  const axisY = p * rowH;
  ctx.strokeStyle = '#8a93a6';
  ctx.fillStyle = '#6b7385';
  ctx.lineWidth = 1;
  ctx.beginPath();
  ctx.moveTo(plotX, axisY + 0.5);
  ctx.lineTo(plotX + plotW, axisY + 0.5);
  ctx.stroke();
  ctx.font = '11px system-ui, sans-serif';
  ctx.textBaseline = 'top';
  const step = tickStep(result.makespan, Math.max(2, Math.floor(plotW / 70)));
  for (let t = 0; t <= result.makespan + 1e-9 && step > 0; t += step) {
    const x = plotX + t * scale;
    ctx.beginPath();
    ctx.moveTo(x + 0.5, axisY);
    ctx.lineTo(x + 0.5, axisY + 4);
    ctx.stroke();
    ctx.textAlign = t === 0 ? 'left' : x > plotW - 20 ? 'right' : 'center';
    ctx.fillText(String(Number(t.toPrecision(6))), x, axisY + 6);
  }
  return { rowH, plotX, plotW, scale, ranges };
}

/** The op under (x, y) in CSS px, or -1: the row from y, then a binary search on start times within that row. */
export function opAt(result, geometry, x, y) {
  const { rowH, plotX, scale, ranges } = geometry;
  const s = Math.floor(y / rowH);
  if (s < 0 || s >= result.stages || scale <= 0) return -1;
  const t = (x - plotX) / scale;
  const { start, end } = result.ops;
  let lo = ranges[s];
  let hi = ranges[s + 1] - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (start[mid] > t) hi = mid - 1;
    else if (end[mid] <= t) lo = mid + 1;
    else return mid;
  }
  return -1;
}
