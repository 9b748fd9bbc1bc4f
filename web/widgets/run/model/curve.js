// The scale curve: one point per GPU count the engine answered, goodput and MFU × goodput, and the sentence that
// reads it. Pure: the points are fields of the engine's `run` answers, gathered, never interpolated.
import { grouped, percent } from '../../../lib/format.js';

/** answers: [{ gpus, answer, error }] (answer null where the engine refused that count) -> the points it answered. */
export function curvePoints(answers) {
  return answers
    .filter((p) => p.answer)
    .map(({ gpus, answer: a }) => ({
      gpus,
      goodput: a.goodput,
      effectiveMfu: a.effective_mfu,
      mfu: a.mfu,
      days: a.wall_clock_days,
      failures: a.failures.expected,
      mtbf: a.failures.mtbf,
    }));
}

/** The GPU counts at which the engine answered that the run never finishes (failures outpace the work). */
export function neverFinishes(answers) {
  return answers.filter((p) => p.error?.field === 'failure_rate' && p.error.code === 'inconsistent').map((p) => p.gpus);
}

/**
 * The sentence under the curve: how goodput moves from the fewest to the most GPUs answered, and the counts at which
 * the engine says the run never finishes (`never`: neverFinishes).
 */
export function curveSentence(points, never = []) {
  const tail = never.length
    ? ` On ${never.map(grouped).join(' and ')} GPUs it never finishes: a failure comes before the restart and the work lost to the last one are made good.`
    : '';
  if (points.length < 2) return `Only one GPU count of this configuration runs, so there is no curve to draw.${tail}`;
  const lo = points[0];
  const hi = points[points.length - 1];
  const fastest = points.reduce((a, b) => (b.days < a.days ? b : a));
  return (
    `From ${grouped(lo.gpus)} to ${grouped(hi.gpus)} GPUs goodput goes from ${percent(lo.goodput)} to ${percent(hi.goodput)}: ` +
    `every GPU added is one more that can fail, so the job's mean time between failures shrinks as the count grows, ` +
    `while the time lost to each failure does not. The run finishes soonest on ${grouped(fastest.gpus)} GPUs ` +
    `(${Number(fastest.days.toPrecision(3))} days).${tail}`
  );
}
