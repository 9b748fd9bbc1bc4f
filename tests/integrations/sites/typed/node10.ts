// moduleResolution node10 (no exports map): both entries still carry their types (typesVersions).
import { loadEngine, type Engine } from 'parascope';
import { loadPlannerEngine, type PlanRequest } from 'parascope/engine';

export const engines: Array<Promise<Engine>> = [loadEngine(), loadPlannerEngine()];
export const request: PlanRequest = { op: 'plan', model: 'gpt3-175b', hardware: 'h100-sxm', cluster: { gpus: 64 }, global_batch: 64 };
