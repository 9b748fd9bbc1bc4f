// A CSS colour as numbers, for figures that paint a canvas (their palettes mix and compare colours). Pure.

/** "#abc", "#aabbcc", "rgb(1, 2, 3)" or "rgba(1, 2, 3, 1)" -> [r, g, b], or null. */
export function parseColour(text) {
  const t = String(text ?? '')
    .trim()
    .toLowerCase();
  let m = /^#([0-9a-f]{3})$/.exec(t);
  if (m) return [...m[1]].map((c) => parseInt(c + c, 16));
  m = /^#([0-9a-f]{6})$/.exec(t);
  if (m) return [0, 2, 4].map((i) => parseInt(m[1].slice(i, i + 2), 16));
  m = /^rgba?\(\s*([\d.]+)[\s,]+([\d.]+)[\s,]+([\d.]+)/.exec(t);
  if (m) return [m[1], m[2], m[3]].map((x) => Math.round(Number(x)));
  return null;
}
