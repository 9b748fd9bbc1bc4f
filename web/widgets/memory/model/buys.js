// What a control's move buys: the difference of two engine answers for the same run before and after the move, in
// words ("full recomputation: −38.9 GiB of activations, −43.5 GiB in all; compute +33 %"). Pure: both answers are
// `step`'s; the figure shows their difference and nothing it could not read off the two.
import { bytes } from '../../../lib/format.js';

/** `step`'s memory_per_gpu parts, in the words the difference uses. */
const MEMORY_PARTS = [
  ['activations', 'activations'],
  ['weights', 'weights'],
  ['gradients', 'gradients'],
  ['optimizer_states', 'optimizer states'],
  ['transient', 'workspace'],
  ['allocator_reserve', 'allocator reserve'],
  ['runtime', 'runtime'],
];

/** A signed size: "+1.2 GiB", "−38.9 GiB". */
const signedBytes = (d) => `${d < 0 ? '−' : '+'}${bytes(Math.abs(d))}`;

/** A signed relative change of `after` over `before` in whole percent: "+33 %", "−4 %" ("" when below 1 %). */
function relative(after, before) {
  if (!(before > 0)) return '';
  const r = Math.round((after / before - 1) * 100);
  return r === 0 ? '' : `${r < 0 ? '−' : '+'}${Math.abs(r)} %`;
}

/**
 * `before` and `after`: `step` answers; `what`: the move in words ("full recomputation", "tp 8"). Returns the
 * sentence, naming the memory parts that moved by at least 1 MiB (largest first), the total, and the step's compute
 * and time as relative changes.
 */
export function buysText(what, before, after) {
  const mb = before.memory_per_gpu;
  const ma = after.memory_per_gpu;
  const moved = MEMORY_PARTS.map(([key, words]) => [words, ma[key] - mb[key]])
    .filter(([, d]) => Math.abs(d) >= 2 ** 20)
    .sort((x, y) => Math.abs(y[1]) - Math.abs(x[1]))
    .slice(0, 3)
    .map(([words, d]) => `${signedBytes(d)} of ${words}`);
  const total = ma.total - mb.total;
  const memory = moved.length ? `${moved.join(', ')}; ${signedBytes(total)} in all` : 'no change in memory';
  const time = [
    ['compute', relative(after.breakdown.compute, before.breakdown.compute)],
    ['step time', relative(after.step_time, before.step_time)],
  ]
    .filter(([, r]) => r)
    .map(([words, r]) => `${words} ${r}`);
  const fit = before.fits === after.fits ? '' : after.fits ? '; now it fits' : '; now it does not fit';
  return `${what}: ${memory}${time.length ? `; ${time.join(', ')}` : ''}${fit}.`;
}
