// The figure's state: read from its attributes (or a permalink's or a planner row's values, read the same way) and
// written back as attribute values. `reader` is the element's attribute reader (lib/widget-attributes.js).
import { readNetwork } from '../../../lib/model/network.js';

/** The state from `reader`'s attributes, `A` the figure's ATTRIBUTES, `presets` the engine's presets answer. */
export function readState(reader, A, presets) {
  const choiceOf = (name, allowed) => {
    const v = reader.choiceAttribute(name, allowed, A[name].fallback ?? '');
    return v === '' ? null : v;
  };
  return {
    model: choiceOf(
      'model',
      presets.models.map((m) => m.id),
    ),
    hardware: choiceOf(
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
    recompute: choiceOf('recompute', presets.recompute),
    schedule: choiceOf(
      'schedule',
      presets.schedules.map((x) => x.id),
    ),
    zero: choiceOf('zero', presets.zero.map(String)),
    sequenceParallel: reader.flagAttribute('sequence-parallel'),
    first: reader.intAttribute('first-stage', A['first-stage']),
    shown: reader.intAttribute('stages-shown', A['stages-shown']),
    network: readNetwork(reader), // your cluster's links (<parascope-nccl>'s fit), or null: the chip's own
    gpuChips: presets.hardware.filter((x) => x.kind === 'gpu').map((x) => x.id), // the chips your links can carry
  };
}

/** The state as attribute values (permalinks, file names): the engine's defaults left out. */
export function stateValues(s) {
  const out = {
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
    'sequence-parallel': s.sequenceParallel ? 'true' : 'false',
    'first-stage': s.first,
    'stages-shown': s.shown,
    ...s.network,
  };
  return Object.fromEntries(Object.entries(out).filter(([, v]) => v !== null && v !== undefined));
}
