// What a control's move buys: the difference of two engine answers for the same run before and after the move, in
// words ("full recomputation: −38.9 GiB of activations, −43.5 GiB in all; compute +33 %"). Pure: both answers are
// `step`'s; the figure shows their difference and nothing it could not read off the two.
import { bytes, seconds } from '../../../lib/format.js';

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

/** A signed time: "+0.52 s", "−1.2 s". */
const signedSeconds = (d) => `${d < 0 ? '−' : '+'}${seconds(Math.abs(d))}`;

/** A signed relative change of `after` over `before` in whole percent: "+33 %", "−4 %" ("" when below 1 %). */
function relative(after, before) {
  if (!(before > 0)) return '';
  const r = Math.round((after / before - 1) * 100);
  return r === 0 ? '' : `${r < 0 ? '−' : '+'}${Math.abs(r)} %`;
}

/**
 * `before` and `after`: `step` answers; `what`: the move in words ("full recomputation", "tp 8"). Returns the
 * sentence, naming the memory parts that moved by at least 1 MiB (largest first) and the host's bytes under optimizer
 * offload, the total, and the step's compute and time as relative changes (the time also in seconds).
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
  // Optimizer offload: the bytes the host holds, which the GPU's total leaves out (memory_per_gpu.host_offloaded).
  const host = (ma.host_offloaded ?? 0) - (mb.host_offloaded ?? 0);
  if (Math.abs(host) >= 2 ** 20) moved.push(`${signedBytes(host)} on the host`);
  const memory = moved.length ? `${moved.join(', ')}; ${signedBytes(total)} in all` : 'no change in memory';
  const time = [
    ['compute', relative(after.breakdown.compute, before.breakdown.compute)],
    [
      'step time',
      relative(after.step_time, before.step_time),
      ` (${signedSeconds(after.step_time - before.step_time)})`,
    ],
  ]
    .filter(([, r]) => r)
    .map(([words, r, also = '']) => `${words} ${r}${also}`);
  const fit = before.fits === after.fits ? '' : after.fits ? '; now it fits' : '; now it does not fit';
  return `${what}: ${memory}${time.length ? `; ${time.join(', ')}` : ''}${fit}.`;
}
