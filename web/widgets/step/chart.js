// The step chart's canvas: the lanes' pixels (model/raster.js) put in one ImageData, the time axis drawn on a strip
// below, sized to the plot at the device's pixel ratio. Drawing only; what to draw comes from model/.
import { rasterise } from './model/raster.js';
import { tickLabel, ticks } from './model/view.js';

/** The axis strip under the lanes, CSS px. */
export const AXIS_H = 20;

/**
 * The chart on `canvas`: draw({ rows, view, end, colours, width, height }) paints lanes and axis (height: the whole
 * canvas, the axis included) and returns { laid, ms } (events laid, time taken).
 */
export function stepChart(canvas) {
  const cache = {};
  let image = null;
  let px = null;
  let font = '';
  return {
    draw({ rows, view, end, colours, width, height }) {
      const t = performance.now();
      const ratio = globalThis.devicePixelRatio || 1;
      const w = Math.max(1, Math.round(width * ratio));
      const h = Math.max(1, Math.round(height * ratio));
      if (canvas.width !== w || canvas.height !== h) {
        canvas.width = w;
        canvas.height = h;
        canvas.style.width = `${width}px`;
        canvas.style.height = `${height}px`;
        font = '';
      }
      const ctx = canvas.getContext('2d');
      const plotH = Math.max(1, Math.round((height - AXIS_H) * ratio));
      if (!image || image.width !== w || image.height !== plotH) {
        image = ctx.createImageData(w, plotH);
        px = new Uint32Array(image.data.buffer);
      }
      const laid = rasterise(px, w, plotH, rows, view, end, colours, cache, ratio);
      ctx.putImageData(image, 0, 0);
      font = drawAxis(ctx, { w, h, plotH, ratio, width, view, colours, font });
      return { laid, ms: performance.now() - t };
    },
  };
}

/** The time axis: a line, ticks and their labels in ms, under the lanes. Returns the font set on the context. */
function drawAxis(ctx, { w, h, plotH, ratio, width, view, colours, font }) {
  ctx.setTransform(1, 0, 0, 1, 0, 0);
  ctx.fillStyle = colours.bgCss;
  ctx.fillRect(0, plotH, w, h - plotH);
  ctx.setTransform(ratio, 0, 0, ratio, 0, 0);
  const want = '11px system-ui, sans-serif';
  if (font !== want) ctx.font = want; // setting a font costs Chromium a style update: only when it changes
  const y = plotH / ratio;
  ctx.fillStyle = colours.muted;
  ctx.fillRect(0, y, width, 1);
  const { step, ticks: at } = ticks(view.t0, view.t1, Math.max(2, Math.floor(width / 90)));
  const k = width / (view.t1 - view.t0);
  ctx.textBaseline = 'top';
  for (const t of at) {
    const x = (t - view.t0) * k;
    ctx.fillRect(Math.round(x), y, 1, 4);
    ctx.textAlign = x < 30 ? 'left' : x > width - 30 ? 'right' : 'center';
    ctx.fillText(tickLabel(t, step), x, y + 6);
  }
  return want;
}
