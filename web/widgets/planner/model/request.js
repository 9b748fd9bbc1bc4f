// <parascope-planner>'s inputs as pure state: the values each control offers, the engine's `plan` request they make,
// and the reading of attribute values. The search space and every rule about it are the engine's.
import { withNetwork } from '../../../lib/model/network.js';
import { OFFLOAD, offloadShare } from '../../../lib/model/step-state.js';
import { softwareLabel } from './view.js';
import { chipChoices } from '../../../lib/model/engine-lists.js';

/** GPU counts the control offers (a UI list; an attribute's own count joins it). */
export const GPU_STOPS = [8, 16, 32, 64, 128, 256, 512, 1024, 1536, 2048, 3072, 4096, 6144, 8192, 16384];

/** Global batches (sequences per step) the control offers; an attribute's own value joins it. */
export const BATCH_STOPS = [8, 16, 32, 64, 128, 256, 384, 512, 768, 1024, 1536, 2048, 3072, 4096, 6144, 8192, 16384];

/** What the table is ranked by, in a reader's words, per engine objective (the objectives: the presets' list). */
const OBJECTIVE_WORDS = { mfu: 'highest MFU', step_time: 'shortest step', memory: 'least memory per GPU' };

/** [engine objective, what the table is ranked by], in the engine's order (presets `plan_objectives`). */
export function objectives(presets) {
  return presets.plan_objectives.map((o) => [o, OBJECTIVE_WORDS[o] ?? o]);
}

/** [engine software id, its name], in the engine's order (presets `software`). */
export function softwares(presets) {
  return presets.software.map((s) => [s, softwareLabel(s)]);
}

/** Rows in the ranked table. */
export const TOP_K = 10;

/**
 * Shares of the optimizer state stepped on the host the control offers, as text ('0': none), with their words: the
 * ones the memory, step and MFU figures take (lib/model/step-state.js OFFLOAD), so a planned row's share loads there.
 */
export const OFFLOAD_STOPS = [['0', 'none'], ...OFFLOAD.choices.map((v) => [v, offloadShare(v)])];

/**
 * The starting inputs (GPT-3 175B as Megatron-LM trained it on a thousand A100s, the optimizer on the GPUs), costed
 * for Megatron-Core (the stack `step` and the other figures cost when none is named).
 */
export const DEFAULTS = {
  model: 'gpt3-175b',
  hardware: 'a100-80gb',
  gpus: 1024,
  globalBatch: 1536,
  objective: 'mfu',
  offload: 0,
  software: 'megatron-core',
};

/** The inputs' keys that are numbers (the rest are text), as a control's text value is read back. */
export const NUMBER_INPUTS = ['gpus', 'globalBatch', 'offload'];

/** The sorted union of a list of stops and extra values. */
export function withStops(stops, ...extra) {
  return [...new Set([...stops, ...extra.filter((v) => Number.isInteger(v) && v > 0)])].sort((a, b) => a - b);
}

/** The options of every control: [value, label] pairs. presets: the engine's `presets` answer. */
export function controlOptions(presets, inputs) {
  const grouped = (n) => n.toLocaleString('en-US');
  return {
    model: presets.models.map((m) => [m.id, m.name ?? m.id]),
    hardware: chipChoices(presets),
    gpus: withStops(GPU_STOPS, inputs.gpus).map((n) => [String(n), grouped(n)]),
    globalBatch: withStops(BATCH_STOPS, inputs.globalBatch).map((n) => [String(n), grouped(n)]),
    objective: objectives(presets),
    offload: OFFLOAD_STOPS,
    software: softwares(presets),
  };
}

/** The engine's plan request for the inputs: the software stack always named, so the request says what it costs. */
export function planRequest(inputs) {
  return {
    op: 'plan',
    model: inputs.model,
    hardware: inputs.hardware,
    cluster: withNetwork({ gpus: inputs.gpus }, inputs.network),
    global_batch: inputs.globalBatch,
    objective: inputs.objective,
    top_k: TOP_K,
    software: inputs.software,
    ...(inputs.offload > 0 ? { offload_optimizer: inputs.offload } : {}),
  };
}

/** The inputs as attribute values (permalinks, file names); the stack only when not the default (old links hold). */
export function inputsAsAttributes(inputs) {
  return {
    model: inputs.model,
    hardware: inputs.hardware,
    gpus: inputs.gpus,
    'global-batch': inputs.globalBatch,
    objective: inputs.objective,
    ...(inputs.offload > 0 ? { offload: String(inputs.offload) } : {}),
    ...(inputs.software !== DEFAULTS.software ? { software: inputs.software } : {}),
    ...inputs.network,
  };
}

/** Whether two inputs ask the same search. */
export function sameInputs(a, b) {
  return (
    Boolean(a && b) &&
    ['model', 'hardware', 'gpus', 'globalBatch', 'objective', 'offload', 'software'].every((k) => a[k] === b[k])
  );
}
