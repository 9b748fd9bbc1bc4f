// The pipeline timeline as vector SVG (for export): the same layout as the canvas chart in widgets/bubble/gantt.js, each op a
// rectangle coloured by kind and microbatch, the bubble hatched, peak activations per stage, the time axis.
import { GANTT_LAYOUT, indexStages } from './gantt.js';

const NS = 'http://www.w3.org/2000/svg';
const unpack = (c) => `rgb(${c & 255}, ${(c >>> 8) & 255}, ${(c >>> 16) & 255})`;
/** rgb(r g b) as rgb(r, g, b): the older syntax every SVG reader (Inkscape, librsvg) takes. */
const commas = (c) => c.replace(/^rgb\((\d+) (\d+) (\d+)\)$/, 'rgb($1, $2, $3)');

function el(name, attributes, text) {
  const node = document.createElementNS(NS, name);
  for (const [k, v] of Object.entries(attributes)) node.setAttribute(k, String(v));
  if (text !== undefined) node.textContent = text;
  return node;
}

/** "Nice" tick step (as the canvas chart picks it). */
function tickStep(span, count) {
  const raw = span / Math.max(1, count);
  const power = 10 ** Math.floor(Math.log10(raw));
  return [1, 2, 5, 10].map((k) => k * power).find((s) => s >= raw) ?? 10 * power;
}

/**
 * An <svg> of `result` (a pipeline answer with decoded ops) in a box { x, y, width, height } (CSS px), with the
 * chart's colours (model/colours.js chartColours) and the row labels' width `labelWidth` to its left.
 */
export function ganttSvg(result, box, colours, { labelWidth = 0, font = 'system-ui, sans-serif' } = {}) {
  const layout = GANTT_LAYOUT;
  const p = result.stages;
  const plotW = Math.max(40, box.width - layout.activations);
  const rowH = (box.height - layout.axis) / p;
  const scale = result.makespan > 0 ? plotW / result.makespan : 0;
  const root = el('svg', {
    x: box.x - labelWidth,
    y: box.y,
    width: box.width + labelWidth,
    height: box.height,
    viewBox: `${-labelWidth} 0 ${box.width + labelWidth} ${box.height}`,
    'font-family': font,
  });
  const defs = el('defs', {});
  const hatch = el('pattern', {
    id: 'bubble-hatch',
    width: 8,
    height: 8,
    patternUnits: 'userSpaceOnUse',
    patternTransform: 'rotate(45)',
  });
  hatch.append(
    el('rect', { width: 8, height: 8, fill: unpack(colours.back) }),
    el('rect', { width: 1.5, height: 8, fill: unpack(colours.hatch) }),
  );
  defs.append(hatch);
  root.append(defs);
  const { ranges } = result.index ?? indexStages(result.ops);
  const { microbatch, kind, start, end } = result.ops;
  const ops = el('g', {});
  for (let s = 0; s < p; s += 1) {
    const y = s * rowH;
    const h = rowH >= 6 && s < p - 1 ? rowH - 1 : rowH;
    ops.append(el('rect', { x: 0, y, width: result.makespan * scale, height: h, fill: 'url(#bubble-hatch)' }));
    if (labelWidth > 0 && rowH >= layout.label + 2) {
      ops.append(
        el(
          'text',
          { x: -6, y: y + rowH / 2 + 4, 'text-anchor': 'end', 'font-size': layout.label, fill: commas(colours.text) },
          String(s),
        ),
      );
    }
    for (let i = ranges[s]; i < ranges[s + 1]; i += 1) {
      if (end[i] <= start[i]) continue;
      const w = (end[i] - start[i]) * scale;
      ops.append(
        el('rect', {
          x: start[i] * scale,
          y,
          width: w,
          height: h,
          fill: commas(colours.kindCss(kind[i], microbatch[i])),
          stroke: unpack(colours.edge(kind[i], microbatch[i])),
          'stroke-width': w >= 4 ? 0.5 : 0,
        }),
      );
      if (w >= 14 && rowH >= layout.label + 4) {
        ops.append(
          el(
            'text',
            {
              x: ((start[i] + end[i]) * scale) / 2,
              y: y + rowH / 2 + 4,
              'text-anchor': 'middle',
              'font-size': Math.min(13, Math.max(layout.label, Math.floor(rowH * 0.45))),
              fill: commas(colours.label(kind[i], microbatch[i])),
            },
            w >= 30 ? `${kind[i]}${microbatch[i]}` : kind[i],
          ),
        );
      }
    }
  }
  root.append(ops);
  const peak = result.peak_activations;
  const most = Math.max(1, ...peak);
  const ax = plotW + 6;
  const aw = layout.activations - 28;
  for (let s = 0; s < p; s += 1) {
    root.append(
      el('rect', {
        x: ax,
        y: s * rowH + rowH * 0.2,
        width: Math.max(1, (peak[s] / most) * aw),
        height: Math.max(1, rowH * 0.6),
        fill: commas(colours.muted),
      }),
    );
    if (rowH >= layout.label + 2) {
      root.append(
        el(
          'text',
          { x: ax + aw + 3, y: s * rowH + rowH / 2 + 4, 'font-size': layout.label, fill: commas(colours.text) },
          String(peak[s]),
        ),
      );
    }
  }
  const axisY = p * rowH;
  root.append(
    el('line', {
      x1: 0,
      y1: axisY + 0.5,
      x2: plotW,
      y2: axisY + 0.5,
      stroke: commas(colours.muted),
      'stroke-width': 1,
    }),
  );
  const step = tickStep(result.makespan, Math.max(2, Math.floor(plotW / 70)));
  for (let t = 0; t <= result.makespan + 1e-9 && step > 0; t += step) {
    const x = t * scale;
    root.append(
      el('line', { x1: x, y1: axisY, x2: x, y2: axisY + 4, stroke: commas(colours.muted), 'stroke-width': 1 }),
    );
    root.append(
      el(
        'text',
        {
          x,
          y: axisY + 16,
          'font-size': layout.label,
          fill: commas(colours.muted),
          'text-anchor': t === 0 ? 'start' : x > plotW - 20 ? 'end' : 'middle',
        },
        String(Number(t.toPrecision(6))),
      ),
    );
  }
  return root;
}
