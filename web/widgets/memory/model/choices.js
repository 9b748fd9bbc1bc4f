// The values each control offers: the engine's lists (presets) where the engine has one, else round numbers around
// the current value (the reader's own value always among them). Pure. Which of them the engine accepts for the rest of
// the run is the engine's to say: a refused one reads as a sentence, not as a value the figure rules out itself.
import { OFFLOAD, offloadShare } from '../../../lib/model/step-state.js';
import { chipChoices } from '../../../lib/model/engine-lists.js';

const POWERS = (from, to) => {
  const out = [];
  for (let v = from; v <= to; v *= 2) out.push(v);
  return out;
};

/** [value, label] pairs of whole numbers, `current` added where it is not a power of two. */
function counts(values, current, label = String) {
  const all = [...new Set([...values, current])].filter((v) => v !== null && v !== undefined).sort((a, b) => a - b);
  return all.map((v) => [String(v), label(v)]);
}

/** Every control's options for state `s`; presets: the engine's answer. */
export function controlChoices(s, presets) {
  const model = presets.models.find((m) => m.id === s.model);
  const seq = model?.seq ?? 2048;
  const seqs = [seq / 4, seq / 2, seq, seq * 2, seq * 4, seq * 8].filter((v) => Number.isInteger(v) && v >= 128);
  return {
    model: presets.models.map((m) => [m.id, m.name ?? m.id]),
    hardware: chipChoices(presets),
    gpus: counts(POWERS(1, 65_536), s.gpus, (v) => v.toLocaleString('en-US')),
    tp: counts(POWERS(1, 64), s.tp),
    pp: counts(POWERS(1, 128), s.pp),
    vpp: counts(POWERS(1, 8), s.vpp),
    cp: counts(POWERS(1, 64), s.cp),
    ep: counts(POWERS(1, Math.max(1, model?.experts ?? 1)), s.ep),
    microbatchSize: counts(POWERS(1, 32), s.microbatchSize),
    globalBatch: counts(POWERS(1, 65_536), s.globalBatch, (v) => v.toLocaleString('en-US')),
    seq: counts(seqs, s.seq ?? seq, (v) => `${v.toLocaleString('en-US')}${v === seq ? " (the model's)" : ''}`),
    recompute: presets.recompute.map((v) => [v, v]),
    zero: presets.zero.map((v) => [String(v), v === 3 ? '3 (FSDP)' : String(v)]),
    reshard: [
      ['', "engine's default"],
      ['true', 'after each forward'],
      ['false', 'kept to the backward'],
    ],
    // "… on the host": the choice says where the state goes, and its length makes the control two columns wide, so
    // it pairs with FSDP reshard and no grid cell stays empty (css/widget.css data-long; lib/controls.js LONG_CHOICE).
    offload: [['', 'none'], ...OFFLOAD.choices.map((v) => [v, `${offloadShare(v)} on the host`])],
    schedule: presets.schedules.map((x) => [x.id, x.label]),
    precision: presets.precisions.map((v) => [v, v.toUpperCase()]),
    sequenceParallel: [
      ['true', 'on'],
      ['false', 'off'],
    ],
  };
}

/** The controls: [state key, attribute, label, words for a move to value v]. */
export const CONTROLS = [
  ['model', 'model', 'Model', (v, label) => label],
  ['hardware', 'hardware', 'Chip', (v, label) => label],
  ['gpus', 'gpus', 'GPUs', (v) => `${Number(v).toLocaleString('en-US')} GPUs`],
  ['tp', 'tp', 'Tensor parallel', (v) => `tp ${v}`],
  ['pp', 'pp', 'Pipeline stages', (v) => `pp ${v}`],
  ['vpp', 'vpp', 'Chunks per stage', (v) => `${v} chunks per stage`],
  ['cp', 'cp', 'Context parallel', (v) => `cp ${v}`],
  ['ep', 'ep', 'Expert parallel', (v) => `ep ${v}`],
  ['microbatchSize', 'microbatch-size', 'Microbatch', (v) => `microbatches of ${v}`],
  ['globalBatch', 'global-batch', 'Global batch', (v) => `a batch of ${Number(v).toLocaleString('en-US')}`],
  ['seq', 'seq', 'Sequence', (v) => `${Number(v).toLocaleString('en-US')} tokens a sequence`],
  ['recompute', 'recompute', 'Recompute', (v) => `${v} recomputation`],
  ['zero', 'zero', 'ZeRO', (v) => (v === '3' ? 'ZeRO-3 (FSDP)' : `ZeRO-${v}`)],
  [
    'reshard',
    'reshard',
    'FSDP reshard',
    (v, label) => (v === '' ? "the engine's default resharding" : `resharding ${label}`),
  ],
  [
    'offload',
    'offload',
    'Optimizer offload',
    (v) => (v === '' ? 'no optimizer offload' : `${offloadShare(v)} of the optimizer state on the host`),
  ],
  ['schedule', 'schedule', 'Schedule', (v, label) => label],
  ['precision', 'precision', 'Precision', (v, label) => label],
  [
    'sequenceParallel',
    'sequence-parallel',
    'Sequence parallel',
    (v) => `sequence parallelism ${v === 'true' ? 'on' : 'off'}`,
  ],
];

/**
 * The control's value as text for state `s` (a field left to the engine: its resolved value in `step` where the answer
 * echoes it, the model's own length for seq, else null: the first option, the engine's default).
 */
export function controlValue(key, s, step, presets) {
  if (key === 'sequenceParallel') return String(Boolean(s.sequenceParallel));
  if (key === 'seq') return String(s.seq ?? presets.models.find((m) => m.id === s.model)?.seq);
  if (key === 'schedule') return s.schedule ?? step?.parallel?.schedule ?? null;
  if (key === 'reshard') return s.reshard ?? '';
  if (key === 'offload') return s.offload ?? '';
  const v = s[key];
  return v === null || v === undefined ? null : String(v);
}

/** The state's value for control `key` set to text `v` (the model's own sequence length: null, the preset's). */
export function parseControl(key, v, s, presets) {
  if (key === 'seq') return Number(v) === presets.models.find((m) => m.id === s.model)?.seq ? null : Number(v);
  if (['model', 'hardware', 'recompute', 'schedule', 'precision', 'zero'].includes(key)) return v;
  if (key === 'reshard' || key === 'offload') return v === '' ? null : v;
  if (key === 'sequenceParallel') return v === 'true';
  return Number(v);
}
