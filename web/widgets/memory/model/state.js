// The figure's state: read from its attributes (or a permalink's or a planner row's values, read the same way) and
// written back as attribute values. The step's own fields are lib/model/step-state.js's; sequence length, resharding,
// precision and the stage drawn are this figure's. `reader` is the element's attribute reader (lib/widget-attributes.js).
import { presentValues, readChoice, readOptional, readStepState, stepValues } from '../../../lib/model/step-state.js';

/** The state from `reader`'s attributes, `A` the figure's ATTRIBUTES, `presets` the engine's presets answer. */
export function readState(reader, A, presets) {
  return {
    ...readStepState(reader, A, presets),
    seq: readOptional(reader, A, 'seq'),
    reshard: readChoice(reader, A, 'reshard', A.reshard.choices),
    offload: readChoice(reader, A, 'offload', A.offload.choices),
    precision: readChoice(reader, A, 'precision', presets.precisions),
    // a choice, not a flag: on unless the reader says "false" (the figure starts with it on)
    sequenceParallel: readChoice(reader, A, 'sequence-parallel', A['sequence-parallel'].choices) === 'true',
    stage: readOptional(reader, A, 'stage'),
  };
}

/** The state as attribute values (permalinks, export names): the engine's defaults left out. */
export function stateValues(s) {
  const { recompute, schedule, zero, ...split } = stepValues(s);
  return presentValues({
    ...split,
    seq: s.seq, // where this figure's links have always carried it
    recompute,
    schedule,
    zero,
    reshard: s.reshard,
    offload: s.offload,
    precision: s.precision,
    'sequence-parallel': s.sequenceParallel ? 'true' : 'false',
    stage: s.stage,
  });
}
