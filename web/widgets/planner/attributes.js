// <parascope-planner>'s attributes: kind, range, default and what each does (lib/model/attributes.js gathers every element's).
import { DEFAULTS as PLANNER, OFFLOAD_STOPS } from './model/request.js';
import { int, choice, THEME, PERMALINK } from '../../lib/model/attribute-kinds.js';
import { NETWORK_ATTRIBUTES } from '../../lib/model/network.js';

export const ATTRIBUTES = {
  model: choice(null, PLANNER.model, 'model preset to plan for', { engine: 'models' }),
  hardware: choice(null, PLANNER.hardware, 'accelerator preset', { engine: 'hardware' }),
  gpus: int(1, 65_536, PLANNER.gpus, 'GPUs in the cluster'),
  'global-batch': int(1, 1_000_000, PLANNER.globalBatch, 'sequences per step'),
  objective: choice(null, PLANNER.objective, 'what the table ranks by', { engine: 'plan_objectives' }),
  offload: choice(
    OFFLOAD_STOPS.map(([v]) => v),
    String(PLANNER.offload),
    "share of every configuration's optimizer state stepped on the host (not on TPUs)",
  ),
  software: choice(null, PLANNER.software, 'the software stack every configuration is costed for', {
    engine: 'software',
  }),
  ...NETWORK_ATTRIBUTES,
  theme: THEME,
  permalink: PERMALINK,
};
