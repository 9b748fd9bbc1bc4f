// Every attribute of every parascope element, in one place: kind, range, default and what it does. The widgets read
// their attributes (and permalink values) with these specs, the iframe route takes only these names, and the embed
// guide's table and the editor hints (types/, html-custom-data.json) are checked against this list.
import { PRESETS, YOUR_RUN } from '../mfu-presets.js';
import { DEFAULTS as BUBBLE, LIMITS as BUBBLE_LIMITS, SCHEDULES } from './bubble-state.js';
import { RUN_DEFAULTS } from './mfu-run.js';
import { CHOICES as MFU_CHOICES } from './mfu-split.js';
import { TABS } from './axes-tabs.js';
import { MFU_CUSTOM } from './planner-load.js';
import { DEFAULTS as PLANNER, OBJECTIVES } from './planner-request.js';

/**
 * Kinds: "int" (whole number in [min, max]; out of range: clamped), "number" (above min, at most max), "choice" (one
 * of `choices`; `engine` names the presets op list the choices come from when they are the engine's), "flag" (present
 * or "true" means yes). `fallback` is the default; `defaultText` says it in words when it depends on something else.
 */
const int = (min, max, fallback, about, extra = {}) => ({ kind: 'int', min, max, fallback, about, ...extra });
const choice = (choices, fallback, about, extra = {}) => ({ kind: 'choice', choices, fallback, about, ...extra });

const THEME = choice(['light', 'dark'], null, 'force a colour scheme (otherwise the reader\'s)',
  { defaultText: 'the reader\'s setting', css: true });
const PERMALINK = { kind: 'key', fallback: null, about: 'mirror the state in the URL hash under this key (empty: the '
  + 'tag without "parascope-"), so the address is a link to what is on screen; adds "Copy link"',
defaultText: 'off' };

export const ATTRIBUTES = {
  'parascope-axes': {
    axis: choice(TABS, 'all', 'the tab shown first'),
    model: choice(null, 'mixtral-8x7b', 'model preset', { engine: 'models' }),
    hardware: choice(null, 'h100-sxm', 'accelerator preset', { engine: 'hardware' }),
    gpus: int(1, 1_000_000, 64, 'GPUs in the run'),
    tp: int(1, 1024, 2, 'tensor-parallel size'),
    pp: int(1, 1024, 4, 'pipeline stages'),
    ep: int(1, 1024, 8, 'expert-parallel size (MoE models)', { defaultText: '8 for MoE models, else 1' }),
    'global-batch': int(1, 100_000_000, 256, 'sequences per step'),
    skew: { kind: 'number', min: -1e-9, max: 3, fallback: 1, about: 'router skew (Zipf exponent), 0 to 3 in steps of 0.1' },
    seed: int(0, 2 ** 53, 1, 'router seed'),
    theme: THEME,
    permalink: PERMALINK,
  },
  'parascope-ring': {
    gpus: int(2, 16, 4, 'GPUs on the ring'),
    hardware: choice(null, 'h100-sxm', 'accelerator preset', { engine: 'hardware' }),
    link: choice(['intra', 'inter'], 'intra', 'inside a node or across nodes (a ring larger than a node runs on inter)'),
    bytes: { kind: 'number', min: 0, max: 1e18, fallback: 2 ** 30, about: 'array size per GPU, in bytes' },
    theme: THEME,
    permalink: PERMALINK,
  },
  'parascope-bubble': {
    stages: int(BUBBLE_LIMITS.stages[0], BUBBLE_LIMITS.stages[1], BUBBLE.stages, 'pipeline stages (GPUs)'),
    microbatches: int(BUBBLE_LIMITS.microbatches[0], BUBBLE_LIMITS.microbatches[1], BUBBLE.microbatches,
      'microbatches per step'),
    schedule: choice(SCHEDULES.map(([id]) => id), BUBBLE.schedule, 'pipeline schedule'),
    chunks: int(BUBBLE_LIMITS.chunks[0], BUBBLE_LIMITS.chunks[1], BUBBLE.chunks, 'virtual chunks per GPU (interleaved)'),
    'forward-only': { kind: 'flag', fallback: false, about: 'draw the forward half only (gpipe, interleaved)' },
    theme: THEME,
    permalink: PERMALINK,
  },
  'parascope-mfu': {
    preset: choice([...PRESETS.map((p) => p.id), YOUR_RUN, MFU_CUSTOM], PRESETS[0].id,
      'published run, your-run (a measured throughput), or custom (model, hardware and gpus split as the split attributes say)',
      { defaultText: `${PRESETS[0].id} (your-run when a your-run attribute is given)` }),
    tp: int(1, 1_000_000, null, 'tensor-parallel size', { defaultText: 'the preset\'s' }),
    pp: int(1, 1_000_000, null, 'pipeline stages', { defaultText: 'the preset\'s' }),
    vpp: int(1, 1_000_000, null, 'virtual stages per pipeline rank', { defaultText: 'the preset\'s' }),
    'microbatch-size': int(1, 1_000_000, null, 'sequences per microbatch', { defaultText: 'the preset\'s' }),
    'global-batch': int(1, 1_000_000, null, 'sequences per step', { defaultText: 'the preset\'s' }),
    recompute: choice(MFU_CHOICES.recompute.map(([v]) => v), null, 'activation recomputation', { defaultText: 'the preset\'s' }),
    schedule: choice(MFU_CHOICES.schedule.map(([v]) => v), null, 'pipeline schedule', { defaultText: 'the preset\'s' }),
    zero: choice(MFU_CHOICES.zero.map(([v]) => String(v)), null, 'ZeRO stage', { defaultText: 'the preset\'s' }),
    cp: int(1, 1_000_000, 1, 'custom: context-parallel size'),
    ep: int(1, 1_000_000, 1, 'custom: expert-parallel size (MoE models)'),
    'sequence-parallel': { kind: 'flag', fallback: false, about: 'custom: sequence parallelism on' },
    model: choice(null, RUN_DEFAULTS.model, 'your-run and custom: model preset', { engine: 'models' }),
    hardware: choice(null, RUN_DEFAULTS.hardware, 'your-run and custom: accelerator preset', { engine: 'hardware' }),
    gpus: int(1, 10_000_000, Number(RUN_DEFAULTS.gpus), 'your-run and custom: GPUs (or TPU chips)'),
    'tokens-per-second': { kind: 'number', min: 0, max: Number.MAX_VALUE, fallback: Number(RUN_DEFAULTS.tokensPerSecond),
      about: 'your-run: measured throughput of the whole cluster, tokens/s' },
    attention: choice(['full', 'causal'], RUN_DEFAULTS.attention, 'your-run: attention FLOP convention'),
    theme: THEME,
    permalink: PERMALINK,
  },
  'parascope-planner': {
    model: choice(null, PLANNER.model, 'model preset to plan for', { engine: 'models' }),
    hardware: choice(null, PLANNER.hardware, 'accelerator preset', { engine: 'hardware' }),
    gpus: int(1, 65_536, PLANNER.gpus, 'GPUs in the cluster'),
    'global-batch': int(1, 1_000_000, PLANNER.globalBatch, 'sequences per step'),
    objective: choice(OBJECTIVES.map(([v]) => v), PLANNER.objective, 'what the table ranks by'),
    theme: THEME,
    permalink: PERMALINK,
  },
};

/** The element names, in the article's order. */
export const ELEMENTS = Object.keys(ATTRIBUTES);

/** The spec of `element`'s attribute `name` with `choices` filled from the engine's presets answer where they come from it. */
export function attributeSpec(element, name, presets = null) {
  const spec = ATTRIBUTES[element]?.[name];
  if (!spec) return null;
  if (spec.engine && presets) return { ...spec, choices: presets[spec.engine].map((x) => x.id) };
  return spec;
}

/** The range or values of a spec in words ("1 to 32", "gpipe, 1f1b, …", "any hardware preset"). */
export function rangeText(spec) {
  if (spec.kind === 'int') return `${spec.min.toLocaleString('en-US')} to ${spec.max.toLocaleString('en-US')}, whole`;
  if (spec.kind === 'number' && spec.min < 0) return `0 to ${spec.max}`;
  if (spec.kind === 'number') return spec.max < 1e17 ? `above ${spec.min}, at most ${spec.max}` : `above ${spec.min}`;
  if (spec.kind === 'flag') return 'present or absent';
  if (spec.kind === 'key') return 'a short name (letters, digits, - and _)';
  if (spec.choices) return spec.choices.join(', ');
  return `a ${spec.engine === 'models' ? 'model' : 'hardware'} preset id`;
}

/** The default of a spec in words. */
export function defaultText(spec) {
  if (spec.defaultText) return spec.defaultText;
  if (spec.kind === 'flag') return 'absent';
  return typeof spec.fallback === 'number' ? spec.fallback.toLocaleString('en-US') : String(spec.fallback);
}
