// Keeps the bubble widget's controls on settings the engine accepts: it asks the engine (check_only requests) and
// moves a control that breaks a rule to the nearest accepted value, with the engine's rule as the hint beside it.
import { OPS_FORMAT, pipelineRequest } from './request.js';
import { LIMITS, scheduleLabel } from './state.js';

const NUMBERS = ['stages', 'microbatches', 'chunks'];
// An answer with more ops than its format lists blames ops_format: fewer microbatches mend it.
const CONTROL_OF_FIELD = {
  stages: 'stages',
  microbatches: 'microbatches',
  chunks: 'chunks',
  forward_only: 'forwardOnly',
  schedule: 'schedule',
  ops_format: 'microbatches',
};

/**
 * An engine-backed check: request -> null when the engine accepts it, else the refusal { code, field, message }.
 * It asks in the format the figure draws (OPS_FORMAT), so the limit on listed ops is the drawn one.
 * Answers are remembered (the engine gives the same answer to the same request), up to `remember` requests: a slider
 * step re-checks mostly the same few settings.
 */
export function engineCheck(engine, remember = 512) {
  const known = new Map();
  return (request) => {
    const key = JSON.stringify(request);
    if (known.has(key)) return known.get(key);
    let verdict = null;
    try {
      engine.call({ ...request, ops_format: OPS_FORMAT, check_only: true });
    } catch (err) {
      if (err?.name !== 'EngineError') throw err;
      verdict = Object.freeze({ code: err.code, field: err.field, message: err.message });
    }
    if (known.size >= remember) known.clear();
    known.set(key, verdict);
    return verdict;
  };
}

/**
 * The rule an engine refusal states first (its message up to the first colon), with a schedule id at its start
 * written as the schedule's name: "dualpipe needs an even number of stages: it pairs…" -> "DualPipe needs an even
 * number of stages".
 */
export function ruleOf(message) {
  const head = String(message).split(': ')[0];
  const named = head.replace(/^\S+/, (word) => scheduleLabel(word));
  return named.charAt(0).toUpperCase() + named.slice(1);
}

/** The sentence a reader sees for a refusal: the engine's rule, or for too many ops to list, what that means here. */
export function hintOf(refusal) {
  if (refusal.code === 'too_large') return 'More ops than the figure can draw';
  return ruleOf(refusal.message);
}

/** Whether the schedule takes an optional control at all: the engine refuses it (on that field) or not. */
function probe(state, key, check) {
  const request =
    key === 'chunks'
      ? pipelineRequest({ ...state, chunks: 2 }, { chunks: true, forwardOnly: false })
      : pipelineRequest({ ...state, forwardOnly: true }, { chunks: false, forwardOnly: true });
  const refusal = check(request);
  return refusal && CONTROL_OF_FIELD[refusal.field] === key ? refusal : null;
}

/**
 * The value of number control `key` nearest its current one that the engine does not refuse on `key` (another
 * control may still need to move). `direction` +1/−1: the reader moved it that way, so look past it that way first
 * (a keyboard step must not bounce back); 0: nearest either way, the lower on a tie.
 */
function nearestAccepted(state, key, applies, check, direction) {
  const [lo, hi] = LIMITS[key];
  const from = state[key];
  const order = [];
  if (direction !== 0) {
    for (let v = from + direction; v >= lo && v <= hi; v += direction) order.push(v);
    for (let v = from - direction; v >= lo && v <= hi; v -= direction) order.push(v);
  } else {
    for (let d = 1; d <= hi - lo; d += 1) {
      if (from - d >= lo) order.push(from - d);
      if (from + d <= hi) order.push(from + d);
    }
  }
  return order.find((v) => {
    const refusal = check(pipelineRequest({ ...state, [key]: v }, applies));
    return !refusal || CONTROL_OF_FIELD[refusal.field] !== key;
  });
}

/**
 * Settles the controls: `wanted` is what the reader asked for ({ schedule, stages, microbatches, chunks, forwardOnly });
 * `moved` the control just moved (null at the start) and `from` its value before. Returns
 * - state: `wanted` with number controls moved to accepted values (chunks and forwardOnly keep the reader's wish even
 *   where the schedule does not take them, so that they come back with a schedule that does);
 * - applies: { chunks, forwardOnly }: whether the schedule takes them (a control that does not apply is disabled);
 * - shown: what each control shows; request: the engine request the figure is drawn from (the engine accepts it);
 * - hints: per control, '' or the sentence beside it: why it moved ("DualPipe needs an even number of stages: 5 → 6")
 *   or why it is disabled.
 * `check(request)` answers null or the engine's refusal (engineCheck).
 */
export function settle(wanted, check, { moved = null, from } = {}) {
  const state = { ...wanted };
  const moves = {};
  for (let round = 0; round < 12; round += 1) {
    const noChunks = probe(state, 'chunks', check);
    const noForward = probe(state, 'forwardOnly', check);
    const applies = { chunks: !noChunks, forwardOnly: !noForward };
    const request = pipelineRequest(state, applies);
    const refusal = check(request);
    if (!refusal) {
      const hints = { schedule: '', stages: '', microbatches: '', chunks: '', forwardOnly: '', ...moves };
      if (noChunks) hints.chunks = hintOf(noChunks);
      if (noForward) hints.forwardOnly = hintOf(noForward);
      return {
        state,
        applies,
        shown: {
          ...state,
          chunks: applies.chunks ? state.chunks : 1,
          forwardOnly: applies.forwardOnly && state.forwardOnly,
        },
        request,
        hints,
      };
    }
    const key = CONTROL_OF_FIELD[refusal.field];
    if (!NUMBERS.includes(key)) throw new Error(`no control can mend this refusal: ${refusal.message}`);
    const direction = key === moved && from !== undefined ? Math.sign(state[key] - from) : 0;
    const value = nearestAccepted(state, key, applies, check, direction);
    if (value === undefined) throw new Error(`no value of ${key} is accepted: ${refusal.message}`);
    moves[key] = `${hintOf(refusal)}: ${wanted[key]} → ${value}`;
    state[key] = value;
  }
  throw new Error(`the controls did not settle: ${JSON.stringify(wanted)}`);
}
