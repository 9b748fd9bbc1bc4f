// The fields of a `step` request that every figure built on one (step, memory, run) reads the same way: model, chip,
// GPU count, the parallel sizes, batch, recomputation, schedule and ZeRO stage, as attributes, as a state, as
// permalink values and as the request's `parallel` block. A figure's own fields stay in its folder. Pure.
import { int, choice } from './attribute-kinds.js';
import { percent } from '../format.js';

const ENGINE = { defaultText: "the engine's" };

/**
 * The share of the optimizer state stepped on the host (`parallel.offload_optimizer`, engine/API.md "Host offload") as
 * the memory, step and MFU figures take it, and the shares the planner offers: one list, so a planned row's share is
 * one each of them reads.
 */
export const OFFLOAD = choice(['0.25', '0.5', '0.75', '1'], null, 'share of the optimizer state stepped on the host', {
  defaultText: 'none',
});

/** A share of OFFLOAD in a reader's words: "25 %", "50 %", "75 %", "all". */
export const offloadShare = (v) => (v === '1' ? 'all' : percent(Number(v), 0));

/**
 * The shared attributes, in the order a figure lists them: `D` the figure's defaults ({ model, hardware, gpus, tp, pp,
 * globalBatch, zero }; a zero left out is the engine's), `about` a figure's own words for any of them by attribute.
 */
export function stepAttributes(D, about = {}) {
  const say = (name, words) => about[name] ?? words;
  return {
    model: choice(null, D.model, 'model preset', { engine: 'models' }),
    hardware: choice(null, D.hardware, 'accelerator preset', { engine: 'hardware' }),
    gpus: int(1, 10_000_000, D.gpus, say('gpus', 'GPUs (or TPU chips) of the run')),
    tp: int(1, 1_000_000, D.tp, 'tensor-parallel size'),
    pp: int(1, 1_000_000, D.pp, 'pipeline stages'),
    vpp: int(1, 1_000_000, 1, say('vpp', 'virtual stages per pipeline rank')),
    cp: int(1, 1_000_000, 1, 'context-parallel size'),
    ep: int(1, 1_000_000, 1, 'expert-parallel size (MoE models)'),
    'microbatch-size': int(1, 1_000_000, 1, 'sequences per microbatch'),
    'global-batch': int(1, 1_000_000, D.globalBatch, 'sequences per step'),
    recompute: choice(null, null, 'activation recomputation', { ...ENGINE, engine: 'recompute' }),
    schedule: choice(null, null, 'pipeline schedule', { ...ENGINE, engine: 'schedules' }),
    zero: choice(null, D.zero ?? null, say('zero', 'ZeRO stage'), { ...(D.zero ? {} : ENGINE), engine: 'zero' }),
  };
}

/** One of `allowed` from attribute `name` (`A` the figure's ATTRIBUTES), or null for none (the engine's default). */
export function readChoice(reader, A, name, allowed) {
  const v = reader.choiceAttribute(name, allowed, A[name].fallback ?? '');
  return v === '' ? null : v;
}

/** A number attribute whose absence means the engine's default: null when absent, else read as `A[name]` says. */
export function readOptional(reader, A, name) {
  if (reader.rawAttribute(name) === null) return null;
  return A[name].kind === 'int' ? reader.intAttribute(name, A[name]) : reader.numberAttribute(name, A[name]);
}

/**
 * The shared state from `reader` (the element's attribute reader, lib/widget-attributes.js, or anything with its
 * methods), `A` the figure's ATTRIBUTES, `presets` the engine's presets answer (the lists a choice must be in).
 */
export function readStepState(reader, A, presets) {
  return {
    model: readChoice(
      reader,
      A,
      'model',
      presets.models.map((m) => m.id),
    ),
    hardware: readChoice(
      reader,
      A,
      'hardware',
      presets.hardware.map((x) => x.id),
    ),
    gpus: reader.intAttribute('gpus', A.gpus),
    tp: reader.intAttribute('tp', A.tp),
    pp: reader.intAttribute('pp', A.pp),
    vpp: reader.intAttribute('vpp', A.vpp),
    cp: reader.intAttribute('cp', A.cp),
    ep: reader.intAttribute('ep', A.ep),
    microbatchSize: reader.intAttribute('microbatch-size', A['microbatch-size']),
    globalBatch: reader.intAttribute('global-batch', A['global-batch']),
    recompute: readChoice(reader, A, 'recompute', presets.recompute),
    schedule: readChoice(
      reader,
      A,
      'schedule',
      presets.schedules.map((x) => x.id),
    ),
    zero: readChoice(reader, A, 'zero', presets.zero.map(String)),
  };
}

/** The shared state of `s` as attribute values, in the order permalinks have always written them. */
export function stepValues(s) {
  return {
    model: s.model,
    hardware: s.hardware,
    gpus: s.gpus,
    tp: s.tp,
    pp: s.pp,
    vpp: s.vpp,
    cp: s.cp,
    ep: s.ep,
    'microbatch-size': s.microbatchSize,
    'global-batch': s.globalBatch,
    recompute: s.recompute,
    schedule: s.schedule,
    zero: s.zero,
  };
}

/** `values` without the entries a state leaves empty (null or undefined): the engine's defaults stay out of links. */
export function presentValues(values) {
  return Object.fromEntries(Object.entries(values).filter(([, v]) => v !== null && v !== undefined));
}

/** Whether a state's value is set (null, undefined and '' leave the field to the engine). */
export const given = (v) => v !== null && v !== undefined && v !== '';

/** `parallel` block `p` with the optimizer's share on the host of a state's `offload` text (none: the engine's 0). */
export function withOffload(p, offload) {
  if (given(offload)) p.offload_optimizer = Number(offload);
  return p;
}

/** The request's `parallel` block for state `s` (with its `sequenceParallel`): empty fields are the engine's defaults. */
export function stepParallel(s) {
  const p = {
    tp: s.tp,
    pp: s.pp,
    cp: s.cp,
    ep: s.ep,
    microbatch_size: s.microbatchSize,
    global_batch: s.globalBatch,
    sequence_parallel: s.sequenceParallel,
  };
  if (s.vpp > 1) p.vpp = s.vpp;
  if (given(s.zero)) p.zero = Number(s.zero);
  if (given(s.recompute)) p.recompute = s.recompute;
  if (given(s.schedule)) p.schedule = s.schedule;
  return p;
}
