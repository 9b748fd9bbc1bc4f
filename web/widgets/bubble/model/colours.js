// Colours of the bubble chart from the widget's palette: one colour per op kind (F, B, W, the same the legend shows),
// a subtle shade per microbatch so neighbours stay apart, the hatch of the bubble, text that reads on each.
import { parseColour } from '../../../lib/model/colour.js';

export { parseColour }; // where the bubble's tests and palette have always found it

/** a + (b − a)·t, channel by channel. */
export function mix(a, b, t) {
  return a.map((x, i) => Math.round(x + (b[i] - x) * t));
}

/** Relative luminance (WCAG 2), 0 black .. 1 white. */
export function luminance([r, g, b]) {
  const lin = (c) => {
    const s = c / 255;
    return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * lin(r) + 0.7152 * lin(g) + 0.0722 * lin(b);
}

/** WCAG contrast ratio of two colours. */
export function contrast(a, b) {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return (hi + 0.05) / (lo + 0.05);
}

/** RGBA packed for a little-endian Uint32Array view of ImageData. */
export function pack([r, g, b]) {
  return ((255 << 24) | (b << 16) | (g << 8) | r) >>> 0;
}

export const css = ([r, g, b]) => `rgb(${r} ${g} ${b})`;

/** Microbatch shades: toward white (+) or black (−) by these fractions, in turn; subtle, so the kind stays first. */
export const SHADES = [0, 0.14, -0.1, 0.24];

const WHITE = [255, 255, 255];
const BLACK = [0, 0, 0];

/**
 * The chart's colours from the palette as read from the page ({ f, b, w, idle, bg, fg, muted } as [r, g, b]):
 * op(kind, microbatch) packed for pixels, edge(kind, microbatch) a darker line where one op meets the next (never the
 * background, so it cannot read as idle), label(kind, microbatch) black or white, whichever reads better on that op,
 * hatch and back for the bubble, gutter between rows (the background), text and muted for the axis.
 */
export function chartColours(palette) {
  const kinds = { F: palette.f, B: palette.b, W: palette.w };
  const shadeOf = (base, t) => (t >= 0 ? mix(base, WHITE, t) : mix(base, BLACK, -t));
  const fills = {};
  const edges = {};
  const labels = {};
  for (const [kind, base] of Object.entries(kinds)) {
    const shades = SHADES.map((t) => shadeOf(base, t));
    fills[kind] = shades.map(pack);
    edges[kind] = shades.map((c) => pack(mix(c, BLACK, 0.35)));
    labels[kind] = shades.map((c) => css(contrast(c, WHITE) >= contrast(c, BLACK) ? WHITE : BLACK));
  }
  const shade = (microbatch) => ((microbatch % SHADES.length) + SHADES.length) % SHADES.length;
  const known = (kind) => (kind in kinds ? kind : 'F');
  return {
    // The same packed colours as plain tables (kind -> one per shade), for the pixel loop: no call per op.
    shades: SHADES.length,
    fills,
    edges,
    op: (kind, microbatch) => fills[known(kind)][shade(microbatch)],
    edge: (kind, microbatch) => edges[known(kind)][shade(microbatch)],
    label: (kind, microbatch = 0) => labels[known(kind)][shade(microbatch)],
    kindCss: (kind, microbatch = 0) => css(shadeOf(kinds[known(kind)], SHADES[shade(microbatch)])),
    hatch: pack(mix(palette.idle, palette.bg, 0.15)),
    back: pack(mix(palette.idle, palette.bg, 0.78)),
    gutter: pack(palette.bg),
    text: css(palette.fg),
    muted: css(palette.muted),
  };
}
