// The mfu figure's split logic as it was before `step_check`: every candidate split asked as a whole `step` (the
// answer's schedule read back). Kept as the oracle the check path must equal (tests/js/mfu-offers-equal.test.mjs).
import { DEPENDENTS, KEYS, nearest, presetSplit, shortReason, stepRequest, valuesOf } from '../../web/lib/model/mfu-split.js';

const MAX_TRIES = 200;

function settled(split, response) {
  return split.schedule ? split : { ...split, schedule: response.parallel.schedule };
}

/** mfu-split.js's resolve() before step_check: { split, moved, response } or null. */
export function resolveByStep(ask, preset, split, key, value) {
  let s = { ...split, [key]: value };
  const moved = [];
  let tries = 0;
  const attempt = (candidate) => {
    tries += 1;
    return ask(stepRequest(preset, candidate));
  };
  for (;;) {
    const answer = attempt(s);
    if (answer.response) return { split: settled(s, answer.response), moved, response: answer.response };
    const { error } = answer;
    const free = DEPENDENTS[key].filter((d) => !moved.some((m) => m.key === d));
    const blamed = error.field?.replace(/^parallel\./, '');
    if (free.length === 0 || (blamed !== key && !free.includes(blamed))) return null;
    let next = null;
    let fallback = null;
    const consider = (candidate, moves) => {
      const a = attempt(candidate);
      if (a.response) next = { candidate, moves };
      else if (!fallback && a.error.field !== error.field) fallback = { candidate, moves };
      return next !== null;
    };
    search: for (const d of free) {
      for (const w of nearest(d, preset, s)) {
        if (tries >= MAX_TRIES) return null;
        if (consider({ ...s, [d]: w }, [[d, w]])) break search;
      }
    }
    if (!next && !fallback && free.length >= 2 && blamed !== key) {
      const [d1, d2] = free;
      search: for (const w1 of nearest(d1, preset, s)) {
        for (const w2 of nearest(d2, preset, s)) {
          if (tries >= MAX_TRIES) return null;
          if (consider({ ...s, [d1]: w1, [d2]: w2 }, [[d1, w1], [d2, w2]])) break search;
        }
      }
    }
    next ??= fallback;
    if (!next) return null;
    for (const [d, w] of next.moves) moved.push({ key: d, from: s[d], to: w, reason: shortReason(error.message) });
    s = next.candidate;
  }
}

/** mfu-split.js's offered() before step_check. */
export function offeredByStep(ask, preset, split) {
  const out = {};
  for (const key of KEYS) {
    out[key] = valuesOf(key, preset, split).filter((v) => v === split[key] || resolveByStep(ask, preset, split, key, v));
  }
  return out;
}

/** mfu-split.js's settle() before step_check. */
export function settleByStep(ask, preset, split) {
  const first = ask(stepRequest(preset, split));
  if (first.response) return { split: settled(split, first.response), moved: [], response: first.response, fellBack: false };
  const base = presetSplit(preset);
  for (const key of KEYS) {
    if (split[key] === base[key]) continue;
    const r = resolveByStep(ask, preset, { ...split }, key, split[key]);
    if (r) return { ...r, fellBack: false };
  }
  const own = ask(stepRequest(preset, base));
  return { split: settled(base, own.response), moved: [], response: own.response, fellBack: true };
}
