// The context figure's geometry in a fixed viewBox (its height never depends on cp): the sequence bar, the ring
// strip of GPUs with the keys and values each holds, and the 2cp × 2cp attention matrix. Pure.

export const VIEW_W = 400;
export const VIEW_H = 544;
export const FONT = 15; // user units: 11 px or more while the figure is at least 294 px wide (a 360 px phone)
const BAR = { y: 22, h: 22 };
const STRIP = { y: 90, h: 42, gap: 8 };
const MATRIX = { x: 40, y: 186, size: VIEW_W - 44 };

/** Geometry for cp GPUs: { chunks, bar: [{ x, y, w, h }], barLabels, boxes: [{ x, y, w, h }], chip(g), wrap, cells(q, k),
 *  cell, rowLabels, colLabels, titles }. */
export function contextLayout(cp) {
  const chunks = 2 * cp;
  const w = VIEW_W / chunks;
  const bar = Array.from({ length: chunks }, (_, c) => ({ x: c * w, y: BAR.y, w, h: BAR.h }));
  const every = w >= 2.2 * FONT ? 1 : w >= 1.1 * FONT ? 2 : 4;
  const barLabels = bar
    .map((b, c) => ({ x: b.x + w / 2, y: BAR.y + BAR.h + FONT, text: String(c) }))
    .filter((_, c) => c % every === 0);
  const bw = (VIEW_W - 20 - STRIP.gap * (cp - 1)) / cp;
  const boxes = Array.from({ length: cp }, (_, g) => ({ x: 10 + g * (bw + STRIP.gap), y: STRIP.y, w: bw, h: STRIP.h }));
  const chip = (g) => ({ x: boxes[g].x + 3, y: STRIP.y + STRIP.h - 17, w: bw - 6, h: 13 });
  const bottom = STRIP.y + STRIP.h;
  const wrap = `M${VIEW_W - 10 + 1},${bottom - 10} H${VIEW_W - 3} V${bottom + 8} H3 V${bottom - 10} H8`;
  const s = MATRIX.size / chunks;
  const cells = (q, k) => ({ x: MATRIX.x + k * s, y: MATRIX.y + q * s, s });
  const digits = String(chunks - 1).length;
  const need = digits * 0.62 * FONT + 4; // a label's width and a gap
  const labelEvery = s >= need ? 1 : 2 * s >= need ? 2 : 4;
  const rowLabels = [];
  const colLabels = [];
  for (let c = 0; c < chunks; c += labelEvery) {
    rowLabels.push({ x: MATRIX.x - 12, y: MATRIX.y + c * s + s / 2, text: String(c) });
    colLabels.push({ x: MATRIX.x + c * s + s / 2, y: MATRIX.y - FONT / 2 - 2, text: String(c) });
  }
  const swatch = (q) => ({ x: MATRIX.x - 8, y: MATRIX.y + q * s + 1, w: 6, h: s - 2 });
  const titles = [
    { x: 0, y: BAR.y - 8, text: 'Sequence: 2·cp chunks, by whose queries' },
    { x: 0, y: STRIP.y - 10, text: 'Ring: whose keys and values each GPU holds' },
    { x: 0, y: MATRIX.y - FONT - 12, text: 'Attention blocks: queries ↓, keys →' },
  ];
  // "GPU g" where it fits, else the number; where two digits do not fit, every other GPU's number.
  const fits = bw >= String(cp - 1).length * 0.62 * FONT + 2;
  const labelText = bw >= 4.2 * FONT ? (g) => `GPU ${g}` : fits ? (g) => String(g) : (g) => (g % 2 ? '' : String(g));
  return { chunks, bar, barLabels, boxes, chip, wrap, cells, swatch, rowLabels, colLabels, titles, labelText };
}

/** Where GPU g's chip is on its way to GPU `to` after fraction f of the trip (the last GPU's goes under the strip). */
export function chipAt(layout, g, to, f) {
  const a = layout.chip(g);
  const b = layout.chip(to);
  const dip = to < g ? 30 * Math.sin(Math.PI * f) : 0;
  return [a.x + f * (b.x - a.x), a.y + dip];
}
