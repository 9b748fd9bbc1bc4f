// The figure's state: read from its attributes (or a permalink's or a planner row's values, read the same way) and
// written back as attribute values for the permalink. The step's own fields are lib/model/step-state.js's; the run's
// fields and your cluster's links are this figure's. `reader` is the element's attribute reader (lib/widget-attributes.js).
import { NETWORK_FIELDS } from './request.js';
import { presentValues, readChoice, readOptional, readStepState, stepValues } from '../../../lib/model/step-state.js';

/** state key -> attribute, for the number attributes whose absence means the engine's own default. */
const OPTIONAL_NUMBERS = [
  ['failureRate', 'failure-rate'],
  ['checkpointInterval', 'checkpoint-interval'],
  ['storageBandwidth', 'storage-bandwidth'],
  ['price', 'price'],
  ['pue', 'pue'],
  ...NETWORK_FIELDS.filter(([key]) => key !== 'gpusPerNode').map(([key, , attr]) => [key, attr]),
];

/** The state from `reader`'s attributes, `A` the figure's ATTRIBUTES, `presets` the engine's presets answer. */
export function readState(reader, A, presets) {
  const s = {
    ...readStepState(reader, A, presets),
    sequenceParallel: reader.flagAttribute('sequence-parallel'),
    tokens: reader.numberAttribute('tokens', A.tokens),
    checkpointMode: readChoice(reader, A, 'checkpoint-mode', A['checkpoint-mode'].choices),
    gpusPerNode: readOptional(reader, A, 'gpus-per-node'),
  };
  for (const [key, attr] of OPTIONAL_NUMBERS) s[key] = readOptional(reader, A, attr);
  return s;
}

/** The state as attribute values (permalinks, a planner row's shape): the engine's defaults left out. */
export function stateValues(s) {
  const out = {
    ...stepValues(s),
    'sequence-parallel': s.sequenceParallel ? 'true' : 'false',
    tokens: s.tokens,
    'checkpoint-mode': s.checkpointMode,
    'gpus-per-node': s.gpusPerNode,
  };
  for (const [key, attr] of OPTIONAL_NUMBERS) out[attr] = s[key];
  return presentValues(out);
}
