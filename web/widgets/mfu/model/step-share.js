// A part of a step as shown: its share as text, never "0.0 %" for a part above zero (a 2.75 ms optimizer step of a
// 17.5 s step), and a time below what any figure can show (float noise, like a 2.8e-14 s bubble at pp = 1) as none.
import { percent } from '../../../lib/format.js';

/**
 * `part` over `whole` as "12.3 %" (`digits` decimals), or "< 0.1 %" ("< 1 %" at 0 digits) when the part is above zero
 * but rounds to nothing; otherwise as percent() writes it (0 of anything, or anything of nothing, is "0.0 %").
 */
export function shareText(part, whole, digits = 1) {
  if (!(whole > 0)) return percent(0, digits);
  const fraction = part / whole;
  if (part > 0 && Number((fraction * 100).toFixed(digits)) === 0) return `< ${(10 ** -digits).toFixed(digits)} %`;
  return percent(fraction, digits);
}

/**
 * Seconds per step below one nanosecond (far under any modelled latency) are rounding left in the engine's sums (the
 * bubble of one pipeline stage came back as 2.8e-14 s): shown as 0 s, not drawn, not called waiting.
 */
export const SHOWN_SECONDS = 1e-9;

/** An engine time per step as the figure shows it: 0 below SHOWN_SECONDS, else as is. */
export function shownSeconds(t) {
  return Math.abs(t) < SHOWN_SECONDS ? 0 : t;
}
