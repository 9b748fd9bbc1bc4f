// The ring figure's geometry in a fixed square: GPU boxes on a circle up to 8 GPUs, a GPU × chunk grid from 9 on.
// Text is FONT user units everywhere, which stays at 11 px or more as long as the figure is ≥ 284 px wide.

export const VIEW = 400; // the viewBox is VIEW × VIEW for every N, so the figure's height never depends on N
export const FONT = 15.5;
export const MIN_WIDTH_PX = (11 * VIEW) / FONT; // the narrowest drawn width at which FONT is still 11 px
const DIGIT = 0.58 * FONT; // a tabular digit of system-ui is about 0.55 em
const GAP = 4; // the least space between two boxes or labels

/** Width of `chars` digits at FONT (generous). */
export const textWidth = (chars) => chars * DIGIT;

/** Width of a label at FONT, generously: capitals and lower case are wider than digits, spaces narrower. */
export function labelWidth(text) {
  let em = 0;
  for (const ch of text) em += /[0-9]/.test(ch) ? 0.58 : /[A-Z]/.test(ch) ? 0.72 : ch === ' ' ? 0.3 : 0.6;
  return em * FONT;
}

/**
 * n GPUs; maxValue: the largest number any cell will show (from the engine's trace), which sets the cell width
 * needed to print values. Returns { kind: 'circle' | 'grid', n, boxes, cells, labels, showValues, packet, track,
 * wrap, centre }: boxes [{ g, x, y, w, h }], cells [g][c] = { x, y, s }, labels [{ x, y, text, anchor, kind }],
 * packet { w, h, text } (the travelling chunk's size and whether it carries its number), track { cx, cy, r } (circle)
 * or wrap (grid: the path from the last GPU back to the first).
 */
export function ringLayout(n, maxValue) {
  const digits = String(Math.max(0, Math.round(maxValue))).length;
  return n <= 8 ? circle(n, digits) : grid(n, digits);
}

/** Where a chunk travelling from GPU `from` to GPU `to` is after fraction f (0..1) of the trip. */
export function packetAt(layout, from, to, chunk, f) {
  if (layout.kind === 'circle') {
    const { cx, cy, r } = layout.track;
    const a = -Math.PI / 2 + (2 * Math.PI * (from + f)) / layout.n;
    return [cx + r * Math.cos(a), cy + r * Math.sin(a)];
  }
  const a = layout.cells[from][chunk];
  const b = layout.cells[to][chunk];
  return [a.x + a.s / 2 + f * (b.x - a.x), a.y + a.s / 2 + f * (b.y - a.y)];
}

const overlaps = (a, b, gap = GAP) =>
  a.x < b.x + b.w + gap && b.x < a.x + a.w + gap && a.y < b.y + b.h + gap && b.y < a.y + a.h + gap;

function circle(n, digits) {
  const cols = n <= 4 ? n : Math.ceil(n / 2);
  const rows = Math.ceil(n / cols);
  const pad = 4;
  const head = FONT + 6;
  const c0 = VIEW / 2;
  const cw = labelWidth('clockwise');
  const centre = { x: c0 - cw / 2, y: c0 - FONT / 2 - 2, w: cw, h: FONT + 4 };
  for (let s = 40; s >= 10; s -= 0.5) {
    const w = Math.max(cols * s + 2 * pad, labelWidth(`GPU ${n - 1}`) + 2 * pad);
    const h = rows * s + 2 * pad + head;
    const r = c0 - 3 - Math.max(w, h) / 2;
    const boxes = Array.from({ length: n }, (_, g) => {
      const a = -Math.PI / 2 + (2 * Math.PI * g) / n;
      return { g, x: c0 + r * Math.cos(a) - w / 2, y: c0 + r * Math.sin(a) - h / 2, w, h };
    });
    const clash = boxes.some((b, i) => overlaps(b, centre) || boxes.some((o, j) => j > i && overlaps(b, o)));
    if (clash) continue;
    const cells = boxes.map((b) =>
      Array.from({ length: n }, (_, c) => ({
        x: b.x + (b.w - cols * s) / 2 + (c % cols) * s,
        y: b.y + head + pad + Math.floor(c / cols) * s,
        s,
      })),
    );
    const labels = boxes.map((b) => ({
      x: b.x + b.w / 2,
      y: b.y + head / 2 + 2,
      text: `GPU ${b.g}`,
      anchor: 'middle',
      kind: 'gpu',
    }));
    labels.push({ x: c0, y: c0, text: 'clockwise', anchor: 'middle', kind: 'centre' });
    const showValues = s - 2 >= textWidth(digits) + 1;
    const packet = showValues ? { w: textWidth(digits + 1) + 8, h: FONT + 8, text: true } : { w: s, h: s, text: false };
    return { kind: 'circle', n, boxes, cells, labels, showValues, packet, track: { cx: c0, cy: c0, r }, centre };
  }
  throw new Error(`no circle layout for ${n} GPUs`);
}

function grid(n, digits) {
  const labelW = labelWidth(`GPU ${n - 1}`) + 10;
  const head = FONT + 12;
  const right = 30; // the wrap-around path from the last GPU to the first
  const s = Math.min((VIEW - labelW - right) / n, (VIEW - head - 4) / n);
  const x0 = labelW;
  const y0 = head + (VIEW - head - n * s) / 2;
  const cells = Array.from({ length: n }, (_, g) =>
    Array.from({ length: n }, (_, c) => ({ x: x0 + c * s, y: y0 + g * s, s })),
  );
  const boxes = Array.from({ length: n }, (_, g) => ({ g, x: 0, y: y0 + g * s, w: x0 + n * s, h: s }));
  const labels = boxes.map((b) => ({ x: labelW - 8, y: b.y + s / 2, text: `GPU ${b.g}`, anchor: 'end', kind: 'gpu' }));
  const every = s >= textWidth(2) + GAP ? 1 : 2; // chunk numbers: every column when they fit, else every other one
  for (let c = 0; c < n; c += every)
    labels.push({ x: x0 + c * s + s / 2, y: y0 - FONT / 2 - 4, text: String(c), anchor: 'middle', kind: 'chunk' });
  labels.push({ x: labelW - 8, y: y0 - FONT / 2 - 4, text: 'chunk', anchor: 'end', kind: 'corner' }); // heads the columns
  const showValues = s - 2 >= textWidth(digits) + 1;
  const xr = x0 + n * s;
  const top = y0 + s / 2;
  const bottom = y0 + (n - 1) * s + s / 2;
  const wrap = `M${xr + 2},${bottom} H${xr + right - 8} V${top} H${xr + 6}`;
  const packet = showValues
    ? { w: Math.max(s - 2, textWidth(digits + 1) + 6), h: FONT + 8, text: true }
    : { w: s - 2, h: s - 2, text: false };
  return { kind: 'grid', n, boxes, cells, labels, showValues, packet, wrap };
}
