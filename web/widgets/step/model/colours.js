// The chart's colours from the widget's palette: one colour per piece of the engine's answer (its `pieces` list: the
// kernels, element-wise kernels, waits and each lane's collectives), a light version for a collective's hidden part,
// a darker first column to keep neighbours apart, the idle hatch. Pure.
import { contrast, css, mix, pack } from '../../bubble/model/colours.js';

/** The palette variable each piece is painted with (step.css defines them for both themes). */
export const PIECE_VARIABLES = {
  kernels: '--step-kernels',
  memory: '--step-memory',
  wait: '--step-wait',
  tp: '--step-tp',
  ep: '--step-ep',
  cp: '--step-cp',
  send: '--step-pp',
  dp: '--step-dp',
  stretch: '--step-stretch',
  accumulation: '--step-memory',
  optimizer: '--step-optimizer',
};

/** How far a collective's hidden part fades toward the background. */
export const HIDDEN_FADE = 0.62;

/** How far the pieces fade that another figure is not pointing at (lib/focus.js). */
export const UNFOCUSED_FADE = 0.8;

const BLACK = [0, 0, 0];
const WHITE = [255, 255, 255];

/**
 * palette: { pieces: piece id -> [r, g, b], idle, bg, lane, fg, muted } ([r, g, b] each); pieces: the answer's
 * `pieces`. Returns packed tables indexed like `pieces` (solid, light, edge), css strings for the legend and the
 * readout, and the hatch. `focus`: the piece ids another figure points at (the others faded), or null.
 */
export function chartColours(palette, pieces, focus = null) {
  const own = pieces.map((p) => palette.pieces[p.id] ?? palette.muted);
  const base = focus ? own.map((c, i) => (focus.includes(pieces[i].id) ? c : mix(c, palette.bg, UNFOCUSED_FADE))) : own;
  return {
    solid: Uint32Array.from(base.map(pack)),
    light: Uint32Array.from(base.map((c) => pack(mix(c, palette.bg, HIDDEN_FADE)))),
    edge: Uint32Array.from(base.map((c) => pack(mix(c, BLACK, 0.3)))),
    css: own.map(css),
    lightCss: own.map((c) => css(mix(c, palette.bg, HIDDEN_FADE))),
    label: own.map((c) => css(contrast(c, WHITE) >= contrast(c, BLACK) ? WHITE : BLACK)),
    hatch: pack(mix(palette.idle, palette.bg, 0.15)),
    back: pack(mix(palette.idle, palette.bg, 0.78)),
    lane: pack(palette.lane),
    bg: pack(palette.bg),
    text: css(palette.fg),
    muted: css(palette.muted),
  };
}
