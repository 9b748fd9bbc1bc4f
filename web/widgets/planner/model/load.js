// A planned configuration as the values the other figures read through their permalink path (attribute name -> text),
// and what each figure cannot show of it, in words. Pure: `step` is the engine's answer for the configuration.
import { LIMITS } from '../../bubble/model/state.js';
import { scheduleLabel } from '../../../lib/model/engine-lists.js';
import { softwareLabel, splitText } from './view.js';
import { MFU_CUSTOM } from '../../mfu/model/custom.js';
import { withNetwork } from '../../../lib/model/network.js';
import { DEFAULTS } from './request.js';

/** The figures a row loads into, by tag. */
export const TARGETS = [
  'parascope-axes',
  'parascope-bubble',
  'parascope-mfu',
  'parascope-step',
  'parascope-memory',
  'parascope-run',
];

/** The <parascope-mfu> mode that runs a model, accelerator and GPU count given by attributes (a planned run). */
export { MFU_CUSTOM };

const list = (parts) => parts.filter(Boolean).join(', ');

/** The values a result names (null: the figure's own default, e.g. no precision chosen). */
const given = (values) => Object.fromEntries(Object.entries(values).filter(([, v]) => v !== null && v !== undefined));

/** The parts of a configuration a figure that draws only the listed axes leaves out. */
function leftOut(p, { cp = false, vpp = false, schedule = false, microbatch = false, memory = false } = {}) {
  return [
    !cp && p.cp > 1 ? `context parallel ${p.cp}` : '',
    !vpp && p.vpp > 1 ? `${p.vpp} virtual stages per rank` : '',
    !schedule ? `the ${scheduleLabel(p.schedule)} schedule` : '',
    !microbatch ? `microbatches of ${p.microbatch_size}` : '',
    !memory && p.recompute && p.recompute !== 'none' ? `${p.recompute} recomputation` : '',
    !memory && p.zero ? `ZeRO-${p.zero}` : '',
    !memory && p.sequence_parallel ? 'sequence parallelism' : '',
    !memory && p.offload_optimizer > 0 ? 'the optimizer state on the host' : '',
  ];
}

/**
 * What a figure that costs every run for the default stack (it has no software control) says of a row planned for
 * another stack ("" for the default one).
 */
function stackText(inputs) {
  if (!inputs.software || inputs.software === DEFAULTS.software) return '';
  return (
    ` The planner costed it for ${softwareLabel(inputs.software)}; this figure costs every run for ` +
    `${softwareLabel(DEFAULTS.software)}, so its numbers differ from the row's.`
  );
}

/**
 * For each target tag: { values (attribute -> text, read as a permalink's), note (what was loaded and what the
 * figure cannot show) }. inputs: the planner's { model, hardware, gpus, globalBatch, network, software }; parallel: the result's
 * block; step: the engine's `step` answer for it (its `microbatches` per pipeline); precision: the result's, if any.
 */
export function loadValues(inputs, parallel, step, precision = null) {
  const p = parallel;
  const head = `From the planner: ${splitText(p)}.`;
  const stack = stackText(inputs);
  const out = {};

  const axesOut = list(leftOut(p));
  out['parascope-axes'] = {
    values: {
      model: inputs.model,
      hardware: inputs.hardware,
      gpus: inputs.gpus,
      tp: p.tp,
      pp: p.pp,
      ep: p.ep,
      'global-batch': inputs.globalBatch,
    },
    note: `${head} This figure places dp, tp, pp and ep${axesOut ? `; it does not draw ${axesOut}` : ''}.${stack}`,
  };

  const m = step.microbatches;
  const stages = Math.min(LIMITS.stages[1], p.pp);
  const microbatches = Math.min(LIMITS.microbatches[1], m);
  const chunks = Math.min(LIMITS.chunks[1], p.vpp);
  const cut = list([
    stages < p.pp ? `${p.pp} stages (draws ${stages})` : '',
    microbatches < m ? `${m} microbatches (draws ${microbatches})` : '',
    chunks < p.vpp ? `${p.vpp} chunks (draws ${chunks})` : '',
  ]);
  out['parascope-bubble'] = {
    values: { stages, microbatches, schedule: p.schedule, chunks, 'forward-only': 'false' },
    note:
      `${head} This figure draws the ${scheduleLabel(p.schedule)} pipeline of ${p.pp} ${p.pp === 1 ? 'stage' : 'stages'} and ${m} ${m === 1 ? 'microbatch' : 'microbatches'} ` +
      `with unit op times, not this model's; dp, tp, cp and ep are not drawn${cut ? `; too large to draw: ${cut}` : ''}.`,
  };

  out['parascope-mfu'] = {
    values: {
      preset: MFU_CUSTOM,
      model: inputs.model,
      hardware: inputs.hardware,
      gpus: inputs.gpus,
      tp: p.tp,
      pp: p.pp,
      vpp: p.vpp,
      'microbatch-size': p.microbatch_size,
      'global-batch': inputs.globalBatch,
      recompute: p.recompute,
      schedule: p.schedule,
      zero: p.zero,
      cp: p.cp,
      ep: p.ep,
      'sequence-parallel': p.sequence_parallel ? 'true' : 'false',
      ...offloadValue(p),
      ...inputs.network,
    },
    note:
      `${head} All of it is modelled here: cp ${p.cp}, ep ${p.ep}, sequence parallelism ` +
      `${p.sequence_parallel ? 'on' : 'off'}${p.offload_optimizer > 0 ? ' and the optimizer on the host' : ''} are ` +
      `held as planned, dp follows from the GPU count.${stack}`,
  };
  out['parascope-step'] = {
    values: { ...stepValues(inputs, p), ...offloadValue(p), 'first-stage': 0, ...inputs.network },
    note:
      `${head} Drawn as the engine times it, one GPU per pipeline stage (its first), the stages a window at a time; ` +
      `the GPUs of one stage run alike.${stack}`,
  };
  out['parascope-memory'] = {
    values: given({
      model: inputs.model,
      hardware: inputs.hardware,
      gpus: inputs.gpus,
      tp: p.tp,
      pp: p.pp,
      vpp: p.vpp,
      cp: p.cp,
      ep: p.ep,
      'microbatch-size': p.microbatch_size,
      'global-batch': inputs.globalBatch,
      recompute: p.recompute,
      schedule: p.schedule,
      zero: p.zero,
      reshard: p.reshard_after_forward === undefined ? null : String(p.reshard_after_forward),
      precision,
      ...offloadValue(p),
      'sequence-parallel': p.sequence_parallel ? 'true' : 'false',
    }),
    note: `${head} Its memory is drawn as planned, on its most loaded stage.${stack}`,
  };
  out['parascope-run'] = {
    values: { ...stepValues(inputs, p), ...inputs.network },
    note:
      `${head} The whole run costs it as planned${p.offload_optimizer > 0 ? ', but with the optimizer state on the GPUs (this figure has no offload)' : ''}; ` +
      `the tokens, failure rate and prices stay as they were.${stack}`,
  };
  return out;
}

/** A configuration as the step-shaped attributes the step and whole-run figures read. */
function stepValues(inputs, p) {
  return {
    model: inputs.model,
    hardware: inputs.hardware,
    gpus: inputs.gpus,
    tp: p.tp,
    pp: p.pp,
    vpp: p.vpp,
    cp: p.cp,
    ep: p.ep,
    'microbatch-size': p.microbatch_size,
    'global-batch': inputs.globalBatch,
    recompute: p.recompute,
    schedule: p.schedule,
    zero: p.zero,
    'sequence-parallel': p.sequence_parallel ? 'true' : 'false',
  };
}

/** A result's share of the optimizer state on the host as the figures' `offload` value ({} for none). */
export const offloadValue = (p) => (p.offload_optimizer > 0 ? { offload: String(p.offload_optimizer) } : {});

/** The engine's step request that reproduces a planned configuration (its `parallel` block, `precision`, stack). */
export function stepRequestOf(inputs, result) {
  return {
    op: 'step',
    model: inputs.model,
    hardware: inputs.hardware,
    cluster: withNetwork({ gpus: inputs.gpus }, inputs.network),
    parallel: { ...result.parallel, global_batch: inputs.globalBatch },
    ...(result.precision ? { precision: result.precision } : {}),
    ...(inputs.software ? { software: inputs.software } : {}),
  };
}
