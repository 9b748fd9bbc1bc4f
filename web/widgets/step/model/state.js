// The figure's state: read from its attributes (or a permalink's or a planner row's values, read the same way) and
// written back as attribute values. The step's own fields are lib/model/step-state.js's; the stages shown and your
// cluster's links are this figure's. `reader` is the element's attribute reader (lib/widget-attributes.js).
import { readNetwork } from '../../../lib/model/network.js';
import { presentValues, readChoice, readStepState, stepValues } from '../../../lib/model/step-state.js';

/** The state from `reader`'s attributes, `A` the figure's ATTRIBUTES, `presets` the engine's presets answer. */
export function readState(reader, A, presets) {
  return {
    ...readStepState(reader, A, presets),
    offload: readChoice(reader, A, 'offload', A.offload.choices), // the optimizer's share on the host, or null: none
    sequenceParallel: reader.flagAttribute('sequence-parallel'),
    first: reader.intAttribute('first-stage', A['first-stage']),
    shown: reader.intAttribute('stages-shown', A['stages-shown']),
    network: readNetwork(reader), // your cluster's links (<parascope-nccl>'s fit), or null: the chip's own
    gpuChips: presets.hardware.filter((x) => x.kind === 'gpu').map((x) => x.id), // the chips your links can carry
  };
}

/** The state as attribute values (permalinks, file names): the engine's defaults left out. */
export function stateValues(s) {
  return presentValues({
    ...stepValues(s),
    offload: s.offload,
    'sequence-parallel': s.sequenceParallel ? 'true' : 'false',
    'first-stage': s.first,
    'stages-shown': s.shown,
    ...s.network,
  });
}
