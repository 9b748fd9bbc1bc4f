// The split controls of <parascope-mfu> as pure state: the values each control offers (only those the engine accepts,
// possibly after moving a dependent control) and what a change does (the new split, which controls moved and why).
// Every validity rule is the engine's: a value is offered when the engine's `step_check` of a `step` request with it
// passes (the engine's own rules and refusals, without timing the step: engine/API.md).
import { engineList, scheduleLabel, scheduleTries } from '../../../lib/model/engine-lists.js';

/** Slider stops; a preset's or attribute's own value joins its list. */
export const STOPS = {
  tp: [1, 2, 3, 4, 6, 8, 12, 16, 24, 32, 48, 64], // head counts are often 3·2^k (PaLM: 48)
  pp: [1, 2, 4, 8, 16, 32, 64, 128],
  vpp: [1, 2, 3, 4, 6, 8],
  microbatch_size: [1, 2, 4, 8, 16],
  global_batch: [
    16, 32, 48, 64, 96, 128, 192, 256, 384, 512, 768, 1024, 1536, 2048, 3072, 4096, 6144, 8192, 12288, 16384,
  ],
};

/** [key, label, attribute] per slider. */
export const SLIDERS = [
  ['tp', 'Tensor parallel (tp)', 'tp'],
  ['pp', 'Pipeline stages (pp)', 'pp'],
  ['vpp', 'Virtual stages per pipeline rank (vpp)', 'vpp'],
  ['microbatch_size', 'Microbatch size (sequences per microbatch)', 'microbatch-size'],
  ['global_batch', 'Global batch (sequences per step)', 'global-batch'],
];

/** What a reader is told of a recomputation mode or a ZeRO stage (words only: the values are the engine's lists). */
const WORDS = {
  recompute: { selective: 'selective (attention)', full: 'full (every layer)', op: 'per op (torchtitan)' },
  zero: { 0: 'off', 1: '1: optimizer states', 2: '2: + gradients', 3: '3: + weights' },
};

/**
 * [value, label] per choice of each select, from the engine's lists (lib/model/engine-lists.js). The schedules in the
 * order a refused change tries them (the plain one first, then the one vpp > 1 needs).
 */
export function choices() {
  const words = (key) => (v) => [v, WORDS[key][v] ?? String(v)];
  return {
    schedule: scheduleTries().map((id) => [id, scheduleLabel(id)]),
    recompute: engineList('recompute').map(words('recompute')),
    zero: engineList('zero').map(words('zero')),
  };
}

/** [key, label] per select. */
export const SELECTS = [
  ['schedule', 'Schedule'],
  ['recompute', 'Recomputation'],
  ['zero', 'ZeRO stage'],
];

export const KEYS = [...SLIDERS.map(([k]) => k), ...SELECTS.map(([k]) => k)];

/**
 * The controls a change of each control may move when the engine refuses the change alone, in the order tried.
 * (Which rule was broken is the engine's to say; this only says which knobs a reader would expect to follow.)
 */
export const DEPENDENTS = {
  tp: ['global_batch', 'microbatch_size'],
  pp: ['vpp', 'global_batch', 'microbatch_size'],
  vpp: ['schedule', 'global_batch', 'microbatch_size'],
  microbatch_size: ['global_batch'],
  global_batch: ['microbatch_size'],
  schedule: ['vpp', 'global_batch', 'microbatch_size'],
  recompute: [],
  zero: [],
};

const MAX_TRIES = 200; // engine questions per change at most (refusals take microseconds)

/** The split a preset starts from; schedule '' lets the engine pick its default (then read back from its answer). */
export function presetSplit(preset) {
  const q = preset.run.parallel;
  return {
    tp: q.tp ?? 1,
    pp: q.pp ?? 1,
    vpp: q.vpp ?? 1,
    microbatch_size: q.microbatch_size ?? 1,
    global_batch: q.global_batch,
    schedule: q.schedule ?? '',
    recompute: q.recompute ?? 'none',
    zero: q.zero ?? 0,
  };
}

/** The engine's step request for a preset with this split (dp is left to the engine: gpus / tp·pp·cp). */
export function stepRequest(preset, split) {
  const { schedule, ...rest } = split;
  return {
    op: 'step',
    ...preset.run,
    parallel: { ...preset.run.parallel, ...rest, ...(schedule ? { schedule } : {}) },
  };
}

/** The engine's check of that step request: {} when `step` would answer it, else the refusal `step` would give. */
export function checkRequest(preset, split) {
  return { ...stepRequest(preset, split), op: 'step_check' };
}

/** Every value a control can take in this preset (before asking the engine), in display order. */
export function valuesOf(key, preset, split) {
  const listed = choices()[key];
  if (listed) return listed.map(([v]) => v);
  const own = presetSplit(preset)[key];
  return [...new Set([...STOPS[key], own, split[key]])].sort((a, b) => a - b);
}

/** Values of `key` other than `current`, nearest first (ratio for numbers, list order for choices). */
function nearest(key, preset, split) {
  const current = split[key];
  const others = valuesOf(key, preset, split).filter((v) => v !== current);
  if (!STOPS[key]) return others;
  const distance = (v) => Math.abs(Math.log(v / current));
  return others.sort((a, b) => distance(a) - distance(b) || a - b);
}

/**
 * The engine's refusal cut for a hint beside the moved control: its first clause, without the subject the control's
 * label already names ("global_batch = 2048 sequences must be…" -> "must be…").
 */
export function shortReason(message) {
  const text = message.replace(/^pipeline schedule: /, '');
  // A count in brackets that the rule goes on from ("a multiple of stages (16) or fewer") is part of the rule.
  const cut = text.search(/ \((?!\d+\) or )|; |, so |: /);
  const clause = cut > 0 ? text.slice(0, cut) : text;
  return clause.replace(/^[a-z_]+ = \d+ sequences (?=must)/, '');
}

/** The split with the schedule the engine actually ran (its default when none was chosen). */
function settled(split, response) {
  return split.schedule ? split : { ...split, schedule: response.parallel.schedule };
}

/**
 * Sets `key` to `value`. When the engine refuses that alone, moves the dependents of `key` (one, then two at once) to
 * their nearest values that clear the refusal. Returns { split, moved: [{ key, from, to, reason }] }, or null when no
 * move of the dependents gives a split the engine answers. Asks only checks (`step_check`): a split's step answer is
 * asked for once it is the one shown.
 */
export function resolve(ask, preset, split, key, value) {
  let s = { ...split, [key]: value };
  const moved = [];
  let tries = 0;
  const attempt = (candidate) => {
    tries += 1;
    return ask(checkRequest(preset, candidate));
  };
  for (;;) {
    const answer = attempt(s);
    if (answer.response) return { split: s, moved };
    const { error } = answer;
    const free = DEPENDENTS[key].filter((d) => !moved.some((m) => m.key === d));
    // The engine names the field it blames: a refusal only the changed control or a free dependent can clear.
    const blamed = error.field?.replace(/^parallel\./, '');
    if (free.length === 0 || (blamed !== key && !free.includes(blamed))) return null;
    // A move the engine answers wins at once; failing that, the first move that clears this refusal (another rule
    // may then need the next dependent).
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
    // Two at once only when the engine blames a dependent (PaLM's tp = 1 needs both a smaller microbatch and a bigger
    // batch); a refusal of the changed value itself is not worth 100 more questions.
    if (!next && !fallback && free.length >= 2 && blamed !== key) {
      const [d1, d2] = free;
      search: for (const w1 of nearest(d1, preset, s)) {
        for (const w2 of nearest(d2, preset, s)) {
          if (tries >= MAX_TRIES) return null;
          if (
            consider({ ...s, [d1]: w1, [d2]: w2 }, [
              [d1, w1],
              [d2, w2],
            ])
          )
            break search;
        }
      }
    }
    next ??= fallback;
    if (!next) return null;
    for (const [d, w] of next.moves) moved.push({ key: d, from: s[d], to: w, reason: shortReason(error.message) });
    s = next.candidate;
  }
}

/** For every control, the values it offers now: those whose change the engine answers (dependents may move). */
export function offered(ask, preset, split) {
  const out = {};
  for (const key of KEYS) {
    out[key] = valuesOf(key, preset, split).filter((v) => v === split[key] || resolve(ask, preset, split, key, v));
  }
  return out;
}

/**
 * A starting split (a preset's, with attributes applied) made valid: as is when the engine answers it, else with the
 * attribute-set controls kept in order and their dependents moved, else the preset's own split.
 * Returns { split, moved, response, fellBack }.
 */
export function settle(ask, preset, split) {
  const first = ask(stepRequest(preset, split));
  if (first.response)
    return { split: settled(split, first.response), moved: [], response: first.response, fellBack: false };
  const base = presetSplit(preset);
  for (const key of KEYS) {
    if (split[key] === base[key]) continue;
    const r = resolve(ask, preset, { ...split }, key, split[key]);
    if (!r) continue;
    const { response } = ask(stepRequest(preset, r.split));
    return { split: settled(r.split, response), moved: r.moved, response, fellBack: false };
  }
  const own = ask(stepRequest(preset, base));
  return { split: settled(base, own.response), moved: [], response: own.response, fellBack: true };
}

/**
 * The recomputation choices the engine answers exactly as the one chosen: offered values whose whole `step` answer
 * equals the current split's (under FlashAttention selective recomputes nothing, so it answers as none:
 * engine/src/layer_part.cpp). The figure does not offer them as distinct choices. Asks `step` once per value.
 */
export function sameStepChoices(ask, preset, split, offers) {
  const own = JSON.stringify(ask(stepRequest(preset, split)).response);
  return offers.filter((v) => {
    if (v === split.recompute) return false;
    const answer = ask(stepRequest(preset, { ...split, recompute: v }));
    return Boolean(answer.response) && JSON.stringify(answer.response) === own;
  });
}
