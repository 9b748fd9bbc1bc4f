// The page's hover channel between figures (lib/focus.js): one vocabulary of costs that both the MFU figure's tax bar
// (its segments) and the step figure (the engine's timeline pieces) speak, and the key that says two figures show the
// same step. Pure.

/**
 * Each cost the channel names: the MFU bar's segments (web/widgets/mfu/step-bar.js) and the timeline's pieces (the
 * engine's `pieces` ids, engine/API.md `timeline`) that are that cost. The timeline charges `stretch` (kernels slowed
 * by hidden data-parallel traffic) to compute and `accumulation` to memory-bound time (engine/src/timeline.cpp,
 * lay_tail), so they sit there; the bubble is the hatched idle time, no piece; `wait` is the bar's "waiting on the
 * slowest stage".
 */
export const FOCUS_KINDS = {
  compute: { segments: ['useful', 'recompute', 'kernels'], pieces: ['kernels', 'stretch'] },
  memory: { segments: ['memory'], pieces: ['memory', 'accumulation'] },
  tp: { segments: ['tp'], pieces: ['tp'] },
  cp: { segments: ['cp'], pieces: ['cp'] },
  pp: { segments: ['pp'], pieces: ['send'] },
  dp: { segments: ['dp'], pieces: ['dp'] },
  ep: { segments: ['ep'], pieces: ['ep'] },
  bubble: { segments: ['bubble'], pieces: [] },
  optimizer: { segments: ['optimizer'], pieces: ['optimizer'] },
  other: { segments: ['other'], pieces: ['wait'] },
};

const find = (list, name) => Object.keys(FOCUS_KINDS).find((k) => FOCUS_KINDS[k][list].includes(name)) ?? null;

/** The kind of the MFU bar's segment `key` (null: none). */
export const kindOfSegment = (key) => find('segments', key);

/** The kind of the timeline's piece `id` (null: none). */
export const kindOfPiece = (id) => find('pieces', id);

/**
 * The key of the step a figure shows: its model, hardware and GPU count and the engine's own step time and breakdown
 * for it (the `step` answer's, which `timeline` repeats bit for bit). Two figures react to each other only when their
 * keys are equal: the same step, however their requests were spelt.
 */
export function focusKey({ model, hardware, gpus }, answer) {
  const b = answer.breakdown ?? {};
  return JSON.stringify([
    model,
    hardware,
    gpus,
    answer.step_time,
    Object.keys(b)
      .sort()
      .map((k) => [k, b[k]]),
  ]);
}
