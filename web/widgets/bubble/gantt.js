// A canvas Gantt chart of a pipeline timeline in a box of fixed size: one row per stage (rows share the height), ops
// coloured by kind with a subtle shade per microbatch, idle time hatched as the bubble, peak activations per stage in
// a column on the right. Drawing and hit testing only; colours come in from the palette (model/colours.js).

export const GANTT_LAYOUT = { axis: 20, activations: 44, label: 11 };

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

/** Row geometry for p stages in `rowsH` CSS px: every row the same (fractional) height. */
export function rowGeometry(stages, rowsH) {
  const rowH = rowsH / stages;
  return { rowH, rowTop: (s) => s * rowH };
}

const imageCache = new WeakMap();

/**
 * The font last set on each canvas. Setting ctx.font makes Chromium bring the whole page's style and layout up to date
 * first (2–4 ms on the article, in the middle of a slider step, even when the font is the same), so it is set only
 * when it changes. Resizing a canvas resets its context, and forgets the record (drawGantt).
 */
const fontSet = new WeakMap();

const layers = new WeakMap();

/**
 * A transparent canvas off the page, the chart's size, cleared, for its text and lines: in Chromium every fillText on
 * a canvas in the page first brings the page's style and layout up to date (the widget is a size container, so that
 * means a layout: 2–4 ms per slider step on the article), while one off the page needs neither. Null where the browser
 * has no OffscreenCanvas (or outside a page): the chart is then drawn on directly.
 */
function textLayer(canvas, width, height) {
  if (typeof OffscreenCanvas !== 'function' || !canvas.isConnected) return null;
  let layer = layers.get(canvas);
  if (!layer || layer.canvas.width !== width || layer.canvas.height !== height) {
    const offscreen = new OffscreenCanvas(width, height);
    const ctx = offscreen.getContext('2d');
    if (!ctx) return null;
    layer = { canvas: offscreen, ctx };
    layers.set(canvas, layer);
  }
  layer.ctx.setTransform(1, 0, 0, 1, 0, 0);
  layer.ctx.clearRect(0, 0, width, height);
  return layer;
}
function useFont(canvas, ctx, font) {
  if (fontSet.get(canvas) === font) return;
  ctx.font = font;
  fontSet.set(canvas, font);
}

/**
 * The hatch as one long run of pixels: row y of the plot shows band[x + y % period] at x, so a row's hatch is a copy of
 * a slice of it (no per-pixel arithmetic). Kept with the image and rebuilt only when its inputs change.
 */
function hatchBand(cached, width, period, line, colours) {
  const key = `${width} ${period} ${line} ${colours.hatch} ${colours.back}`;
  if (cached.bandKey !== key) {
    const band = new Uint32Array(width + period);
    for (let j = 0; j < band.length; j += 1) band[j] = j % period < line ? colours.hatch : colours.back;
    cached.band = band;
    cached.bandKey = key;
  }
  return cached.band;
}

/**
 * Paints the plot area pixel by pixel: the bubble hatch (every row, 0 to the makespan; what the ops leave uncovered is
 * idle time), each op as a solid block at least one device pixel wide with a darker first column where it is wide
 * enough (so neighbours stay apart without a gap that would read as idle), and a thin background gutter between rows.
 * A stage's ops are laid into one scan line once; each pixel row of the stage is then that line copied, with the hatch
 * copied into its gaps (a slider step at 32 stages x 128 microbatches stays well inside a frame).
 */
function rasterise(ctx, result, ranges, { rowH, plotW, scale, ratio }, colours) {
  const p = result.stages;
  const width = Math.max(1, Math.round(plotW * ratio));
  const height = Math.max(1, Math.round(p * rowH * ratio));
  let cached = imageCache.get(ctx);
  if (!cached || cached.image.width !== width || cached.image.height !== height) {
    const image = ctx.createImageData(width, height);
    cached = {
      image,
      px: new Uint32Array(image.data.buffer),
      scan: new Uint32Array(width),
      gaps: new Int32Array(width + 2),
    };
    imageCache.set(ctx, cached);
  }
  const { image, px, scan, gaps } = cached;
  const period = Math.max(4, Math.round(8 * ratio));
  const line = Math.max(1, Math.round(ratio));
  const band = hatchBand(cached, width, period, line, colours);
  const { microbatch, kind, start, end } = result.ops;
  const k = scale * ratio;
  // Colour tables when the palette has them (model/colours.js): rows looked up by the kind's character code, so
  // an op costs two array reads; short ops (most, at 32 x 128) are written by a plain loop rather than a fill() call.
  const { fills, edges, shades } = colours;
  const rowsByCode = (table) => {
    const rows = [];
    for (const [name, row] of Object.entries(table)) rows[name.charCodeAt(0)] = row;
    return rows;
  };
  const fillRows = fills ? rowsByCode(fills) : null;
  const edgeRows = edges ? rowsByCode(edges) : null;
  const packed = typeof kind === 'string'; // binary ops: one character per op; else an array of kind names
  const fillOf =
    fills && packed
      ? (i) => (fillRows[kind.charCodeAt(i)] ?? fills.F)[microbatch[i] % shades]
      : fills
        ? (i) => (fills[kind[i]] ?? fills.F)[microbatch[i] % shades]
        : (i) => colours.op(kind[i], microbatch[i]);
  const edgeOf =
    edges && packed
      ? (i) => (edgeRows[kind.charCodeAt(i)] ?? edges.F)[microbatch[i] % shades]
      : edges
        ? (i) => (edges[kind[i]] ?? edges.F)[microbatch[i] % shades]
        : (i) => colours.edge(kind[i], microbatch[i]);
  for (let s = 0; s < p; s += 1) {
    scan.fill(0);
    for (let i = ranges[s]; i < ranges[s + 1]; i += 1) {
      if (end[i] <= start[i]) continue;
      const x0 = Math.round(start[i] * k);
      let x1 = Math.max(x0 + 1, Math.round(end[i] * k));
      if (x0 >= width) continue;
      if (x1 > width) x1 = width;
      const fill = fillOf(i);
      if (x1 - x0 <= 8) {
        for (let x = x0; x < x1; x += 1) scan[x] = fill;
      } else {
        scan.fill(fill, x0, x1);
      }
      if (x1 - x0 >= 4 * line) scan.fill(edgeOf(i), x0, x0 + line);
    }
    // The runs the ops leave empty (idle time): gaps[2g] .. gaps[2g + 1] − 1.
    let runs = 0;
    for (let x = 0; x < width; x += 1) {
      if (scan[x] !== 0) continue;
      const from = x;
      while (x < width && scan[x] === 0) x += 1;
      gaps[runs] = from;
      gaps[runs + 1] = x;
      runs += 2;
    }
    const top = Math.round(s * rowH * ratio);
    const bottom = Math.round((s + 1) * rowH * ratio);
    const gutter = bottom - top >= 5 * line && s < p - 1 ? line : 0;
    for (let y = top; y < bottom; y += 1) {
      const row = y * width;
      if (y >= bottom - gutter) {
        px.fill(colours.gutter, row, row + width);
        continue;
      }
      px.set(scan, row);
      const shift = y % period;
      for (let g = 0; g < runs; g += 2) px.set(band.subarray(gaps[g] + shift, gaps[g + 1] + shift), row + gaps[g]);
    }
  }
  ctx.putImageData(image, 0, 0);
}

/**
 * Draws `result` (an engine "pipeline" response, its ops decoded by opsFromAttachment) into `canvas`, a box `width` ×
 * `height` CSS px whatever the number of stages (the rows share the height). Returns what hit testing needs:
 * { rowH, plotX, plotW, scale, ranges }.
 */
export function drawGantt(canvas, result, { width, height, colours }, layout = GANTT_LAYOUT) {
  const p = result.stages;
  const ops = result.ops;
  const plotX = 0;
  const plotW = Math.max(40, width - layout.activations);
  const { rowH } = rowGeometry(p, height - layout.axis);
  const ratio = globalThis.devicePixelRatio || 1;
  const deviceW = Math.round(width * ratio);
  const deviceH = Math.round(height * ratio);
  if (canvas.width !== deviceW || canvas.height !== deviceH) {
    // resizing reallocates: only when it changes
    canvas.width = deviceW;
    canvas.height = deviceH;
    canvas.style.width = `${width}px`;
    canvas.style.height = `${height}px`;
    fontSet.delete(canvas);
  }
  const ctx = canvas.getContext('2d');
  ctx.setTransform(1, 0, 0, 1, 0, 0);
  ctx.clearRect(0, 0, deviceW, deviceH);

  const scale = result.makespan > 0 ? plotW / result.makespan : 0;
  // Ops are rasterised straight into pixels (tens of thousands of fillRect calls would take far longer than a frame).
  const { ranges } = result.index ?? (result.index = indexStages(ops));
  rasterise(ctx, result, ranges, { rowH, plotW, scale, ratio }, colours);
  // Letters, bars and the axis go on a layer off the page when the browser has one (see textLayer), then onto the chart.
  const lettered = rowH >= layout.label + 4; // letters on ops wide enough to hold them, never under 11 px
  const layer = textLayer(canvas, deviceW, deviceH);
  const v = layer?.ctx ?? ctx;
  const fontKey = layer?.canvas ?? canvas;
  v.setTransform(ratio, 0, 0, ratio, 0, 0);
  const { microbatch, kind, start, end } = ops;
  if (lettered) {
    useFont(fontKey, v, `${Math.min(13, Math.max(layout.label, Math.floor(rowH * 0.45)))}px system-ui, sans-serif`);
    v.textAlign = 'center';
    v.textBaseline = 'middle';
    for (let s = 0; s < p; s += 1) {
      for (let i = ranges[s]; i < ranges[s + 1]; i += 1) {
        const w = (end[i] - start[i]) * scale;
        if (w < 14) continue;
        const k = kind[i];
        v.fillStyle = colours.label(k, microbatch[i]);
        v.fillText(w >= 30 ? `${k}${microbatch[i]}` : k, plotX + ((start[i] + end[i]) * scale) / 2, (s + 0.5) * rowH);
      }
    }
  }

  // Peak activations per stage, as bars in the right-hand column; the count beside a bar when the row holds 11 px text.
  const peak = result.peak_activations;
  const most = Math.max(1, ...peak);
  const ax = plotW + 6;
  const aw = layout.activations - 28;
  v.textAlign = 'left';
  v.textBaseline = 'middle';
  useFont(fontKey, v, `${layout.label}px system-ui, sans-serif`);
  for (let s = 0; s < p; s += 1) {
    const y = s * rowH;
    v.fillStyle = colours.muted;
    v.fillRect(ax, y + rowH * 0.2, Math.max(1, (peak[s] / most) * aw), Math.max(1, rowH * 0.6));
    if (rowH >= layout.label + 2) {
      v.fillStyle = colours.text;
      v.fillText(String(peak[s]), ax + aw + 3, y + rowH / 2);
    }
  }

  // Time axis.
  const axisY = p * rowH;
  v.strokeStyle = colours.muted;
  v.fillStyle = colours.muted;
  v.lineWidth = 1;
  v.beginPath();
  v.moveTo(plotX, Math.round(axisY) + 0.5);
  v.lineTo(plotX + plotW, Math.round(axisY) + 0.5);
  v.stroke();
  useFont(fontKey, v, `${layout.label}px system-ui, sans-serif`);
  v.textBaseline = 'top';
  const step = tickStep(result.makespan, Math.max(2, Math.floor(plotW / 70)));
  for (let t = 0; t <= result.makespan + 1e-9 && step > 0; t += step) {
    const x = plotX + t * scale;
    v.beginPath();
    v.moveTo(Math.round(x) + 0.5, axisY);
    v.lineTo(Math.round(x) + 0.5, axisY + 4);
    v.stroke();
    v.textAlign = t === 0 ? 'left' : x > plotW - 20 ? 'right' : 'center';
    v.fillText(String(Number(t.toPrecision(6))), x, axisY + 6);
  }
  if (layer) {
    // only what the layer holds: the right-hand column and the axis strip, or all of it with letters
    const x = lettered ? 0 : Math.max(0, Math.floor(plotW * ratio));
    const y = Math.max(0, Math.floor(p * rowH * ratio) - 3); // the axis line's antialiased edge starts a little above
    ctx.setTransform(1, 0, 0, 1, 0, 0);
    ctx.drawImage(layer.canvas, x, 0, deviceW - x, deviceH, x, 0, deviceW - x, deviceH);
    if (x > 0) ctx.drawImage(layer.canvas, 0, y, x, deviceH - y, 0, y, x, deviceH - y);
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
