// What the figure writes from the engine's answers: the headline (the peak against the device), one moment of the
// step in words, the memory error band, and the stage picker's words. Pure: every number is a field of the `step` or
// `memory_timeline` answer (engine/API.md), only formatted here.
import { bytes, grouped, seconds } from '../../../lib/format.js';
import { KIND_WORDS, PARTS } from './stack.js';

/** "microbatch 7" / "microbatch 7, chunk 2" / "" for a segment's microbatch and chunk (−1: none). */
function whose(microbatch, chunk, chunks) {
  if (microbatch < 0) return '';
  return chunks > 1 && chunk >= 0 ? ` of microbatch ${microbatch}, chunk ${chunk}` : ` of microbatch ${microbatch}`;
}

/** The moment's activity in words: "the forward of microbatch 7", "the optimizer step". */
export function activity(kind, microbatch, chunk, chunks = 1) {
  const what = KIND_WORDS[kind] ?? kind;
  return microbatch >= 0 ? `the ${what}${whose(microbatch, chunk, chunks)}` : what;
}

/** The headline: the figure's total (the timeline's peak, which is `step`'s memory_per_gpu.total) and where it is. */
export function headline(t, step, device = 'GPU') {
  const p = t.peak;
  const stage = `Stage ${t.stage} of ${step.parallel.pp}`;
  const loaded = t.stage === t.most_loaded_stage ? ' (the most loaded)' : '';
  const fits =
    t.stage === t.most_loaded_stage
      ? step.fits
        ? `fits in the ${device}'s ${bytes(t.capacity)}`
        : `does not fit in the ${device}'s ${bytes(t.capacity)}`
      : `of the ${device}'s ${bytes(t.capacity)}`;
  return (
    `${stage}${loaded} peaks at ${bytes(p.total)}, which ${fits.startsWith('of') ? `is ${fits}` : fits}: at ` +
    `${seconds(p.time)} into the ${seconds(t.step_time)} step, during ${activity(p.kind, p.microbatch, -1)}, ` +
    `with ${grouped(p.sets)} activation ${p.sets === 1 ? 'set' : 'sets'} in flight.`
  );
}

/** One moment (stack.js `moment`) in words, each part with its bytes. */
export function momentText(m, chunks = 1) {
  const parts = PARTS.filter(([key]) => m.parts[key] > 0).map(([key, words]) => `${words} ${bytes(m.parts[key])}`);
  return (
    `${seconds(m.start)} to ${seconds(m.end)}: ${activity(m.kind, m.microbatch, m.chunk, chunks)}, ` +
    `${grouped(m.sets)} activation ${m.sets === 1 ? 'set' : 'sets'} in flight; ${bytes(m.total)} in all ` +
    `(${parts.join(', ')}).`
  );
}

/**
 * The memory error band in words: the engine's `error_band.memory_total` (the 10th–90th percentile of measured peaks
 * over predicted on runs it was not fitted to, applied to this total) and its `fits` record.
 */
export function bandText(step) {
  const m = step.error_band?.memory_total;
  if (!m) return '';
  const r = m.fits_record;
  return (
    `On ${grouped(m.held_out_runs)} published runs it was not fitted to, the measured peak came out between ` +
    `${bytes(m.range[0])} and ${bytes(m.range[1])} for a prediction like this one (10th to 90th percentile, ` +
    `shaded); "fits" matched what happened for ${grouped(r.ran_called_fits)} of ${grouped(r.ran)} runs that ran and ` +
    `${grouped(r.out_of_memory_called_no_fit)} of ${grouped(r.out_of_memory)} that ran out of memory.`
  );
}

/** The stage picker's words for stage `i` of `pp`, `most` the most loaded one. */
export function stageWords(i, pp, most) {
  return `${i} of ${pp}${i === most ? ' (most loaded)' : ''}`;
}

/** When the engine's answer carries a ZeRO-3 note (pipeline runs), why ZeRO-3 holds as much as or more than ZeRO-2. */
export function zeroNote(step) {
  if (!step.memory_per_gpu.note) return '';
  return step.parallel.reshard_after_forward
    ? 'With a pipeline, ZeRO-3 keeps whole gradients from the first microbatch to the last, so it can hold more than ZeRO-2. '
    : 'With a pipeline and no resharding, ZeRO-3 keeps the gathered weights and whole gradients for the whole step: ' +
        'only the optimizer states stay sliced. ';
}
