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

/**
 * Where each stage's ops are in the engine's column arrays (they come stage by stage; `per_stage` counts them):
 * ranges[s] .. ranges[s+1] − 1.
 */
export function indexStages(ops) {
  const counts = ops.per_stage;
  const ranges = new Int32Array(counts.length + 1);
  for (let s = 0; s < counts.length; s += 1) ranges[s + 1] = ranges[s] + counts[s];
  return { ranges };
}

/** The stage of op i, from the ranges (a binary search). */
export function stageOfOp(ranges, i) {
  let lo = 0;
  let hi = ranges.length - 2;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (ranges[mid] <= i) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

/** "Nice" tick step for a time axis of length `span` with about `count` ticks. */
function tickStep(span, count) {
  const raw = span / Math.max(1, count);
  const power = 10 ** Math.floor(Math.log10(raw));
  return [1, 2, 5, 10].map((k) => k * power).find((s) => s >= raw) ?? 10 * power;
}

/** RGBA packed for a little-endian Uint32Array view of ImageData. */
function packed(r, g, b) {
  return (255 << 24) | (b << 16) | (g << 8) | r;
}

/** CSS hsl(h s% l%) to packed RGBA. */
function hslPacked(h, s, l) {
  s /= 100;
  l /= 100;
  const k = (n) => (n + h / 30) % 12;
  const a = s * Math.min(l, 1 - l);
  const f = (n) => Math.round(255 * (l - a * Math.max(-1, Math.min(k(n) - 3, 9 - k(n), 1))));
  return packed(f(0), f(8), f(4));
}

const colourCache = new Map();
function opPacked(microbatch, kind) {
  const key = microbatch * 4 + (kind === 'F' ? 0 : kind === 'B' ? 1 : 2);
  let c = colourCache.get(key);
  if (c === undefined) {
    c = hslPacked((microbatch * 137.508) % 360, 62, KIND_LIGHTNESS[kind] ?? 50);
    colourCache.set(key, c);
  }
  return c;
}

const imageCache = new WeakMap();
const HATCH_BACK = packed(0xfb, 0xe3, 0xc9);
const HATCH_LINE = packed(0xe3, 0x9a, 0x4f);

/**
 * Paints the plot area pixel by pixel: the bubble hatch (every row, 0 to the makespan; what the ops leave uncovered is
 * idle time), then each op as a solid block at least one device pixel wide.
 */
function rasterise(ctx, result, ranges, { rowH, plotX, plotW, scale, ratio, gap }) {
  const p = result.stages;
  const width = Math.max(1, Math.round(plotW * ratio));
  const rowPx = Math.max(1, Math.round(rowH * ratio));
  const height = p * rowPx;
  // Reuse the pixel buffer while the size stays (a fresh one per slider step is a megabyte of garbage each time).
  let cached = imageCache.get(ctx);
  if (!cached || cached.image.width !== width || cached.image.height !== height) {
    const image = ctx.createImageData(width, height);
    cached = { image, px: new Uint32Array(image.data.buffer), scan: new Uint32Array(width) };
    imageCache.set(ctx, cached);
  }
  const { image, px, scan } = cached;
  const period = Math.max(4, Math.round(8 * ratio));
  const line = Math.max(1, Math.round(ratio));
  const { microbatch, kind, start, end } = result.ops;
  const k = scale * ratio;
  const inset = Math.round(gap * ratio);
  // `scan`: one stage's ops along a scanline; 0 where the stage is idle.
  for (let s = 0; s < p; s += 1) {
    scan.fill(0);
    for (let i = ranges[s]; i < ranges[s + 1]; i += 1) {
      if (end[i] <= start[i]) continue;
      let x0 = Math.round(start[i] * k);
      let x1 = Math.round(end[i] * k);
      if (x1 - x0 > 2 && inset) x1 -= inset;  // a hairline between neighbouring blocks
      if (x1 <= x0) x1 = x0 + 1;
      if (x0 >= width) continue;
      if (x1 > width) x1 = width;
      scan.fill(opPacked(microbatch[i], kind[i]), x0, x1);
    }
    for (let y = s * rowPx; y < (s + 1) * rowPx; y += 1) {
      const row = y * width;
      const band = y >= s * rowPx + inset && y < (s + 1) * rowPx - inset;
      for (let x = 0; x < width; x += 1) {
        const c = band ? scan[x] : 0;
        px[row + x] = c !== 0 ? c : (x + y) % period < line ? HATCH_LINE : HATCH_BACK;
      }
    }
  }
  ctx.putImageData(image, Math.round(plotX * ratio), 0);
}

/**
 * Draws `result` (an engine "pipeline" response, its ops decoded by opsFromAttachment) into `canvas`, `width` CSS px wide.
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
  const deviceW = Math.round(width * ratio);
  const deviceH = Math.round(height * ratio);
  if (canvas.width !== deviceW || canvas.height !== deviceH) {  // resizing reallocates: only when it changes
    canvas.width = deviceW;
    canvas.height = deviceH;
    canvas.style.width = `${width}px`;
    canvas.style.height = `${height}px`;
  }
  const ctx = canvas.getContext('2d');
  ctx.setTransform(ratio, 0, 0, ratio, 0, 0);
  ctx.clearRect(0, 0, width, height);

  const scale = result.makespan > 0 ? plotW / result.makespan : 0;
  // Ops are rasterised straight into pixels (tens of thousands of fillRect calls would take far longer than a frame).
  const gap = rowH >= 12 ? 1 : 0;
  const { ranges } = result.index ?? (result.index = indexStages(ops));
  rasterise(ctx, result, ranges, { rowH, plotX, plotW, scale, ratio, gap });
  const { microbatch, kind, start, end } = ops;
  if (rowH >= 14) {  // letters on ops wide enough to hold them
    ctx.font = `${Math.min(12, rowH - 4)}px system-ui, sans-serif`;
    ctx.textAlign = 'center';
    ctx.textBaseline = 'middle';
    for (let s = 0; s < p; s += 1) {
      for (let i = ranges[s]; i < ranges[s + 1]; i += 1) {
        const w = (end[i] - start[i]) * scale;
        if (w < 12) continue;
        const k = kind[i];
        ctx.fillStyle = k === 'F' ? '#1d2330' : '#fff';
        ctx.fillText(w >= 26 ? `${k}${microbatch[i]}` : k, plotX + (start[i] + end[i]) * scale / 2, (s + 0.5) * rowH + 0.5);
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
