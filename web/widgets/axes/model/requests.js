// The engine requests of <parascope-axes>: the run (placement and traffic take the same one) and one MoE layer's routing.
import { attributeNumber } from '../../../lib/model/attribute-number.js';
import { withNetwork } from '../../../lib/model/network.js';

/** Keeps one routing under ~50 ms in the page while the skew slider moves (a UI limit, not an engine rule). */
export const MAX_ASSIGNMENTS = 1 << 19;

/**
 * The run as the engine's placement, traffic and step ops take it; `network` (lib/model/network.js, your cluster's
 * links, or null) goes into its cluster as in every figure that costs a network.
 */
export function runRequest({ model, hardware, gpus, tp, pp, ep, globalBatch, network = null }) {
  return {
    model,
    hardware,
    cluster: withNetwork({ gpus }, network),
    parallel: { tp, pp, ep, global_batch: globalBatch },
  };
}

/**
 * The traffic request for the run: with a routing (the moe_route answer), its router_imbalance goes into the step's
 * efficiency, so the expert row times each all-to-all as the router panel does and follows the skew slider.
 */
export function trafficRequest(state, routing = null) {
  const request = { op: 'traffic', ...runRequest(state) };
  if (routing) request.efficiency = { router_imbalance: routing.router_imbalance };
  return request;
}

/** The expert axis entry of a placement answer (size 1 when the run has no expert parallelism). */
export function expertAxis(placement) {
  return placement.axes.find((a) => a.axis === 'expert') ?? { axis: 'expert', size: 1, link: 'intra', groups: [] };
}

/**
 * The moe_route request for one MoE layer and one microbatch (one sequence) on each EP rank, at the state's skew,
 * or null when there is nothing to route (a dense model, or every GPU holds every expert). `model` is the presets
 * entry; the token count is capped by MAX_ASSIGNMENTS, and `tokens` in the request says what was routed. With your
 * network (state.network) the all-to-all rides your links: the presets entry of the hardware (`hardware`) with its
 * link fields replaced, the same fields the run's cluster takes (moe_route takes a hardware object, not a cluster).
 */
export function routeRequest(state, model, placement, hardware = null) {
  const expert = expertAxis(placement);
  if (model.experts <= 1 || expert.size <= 1) return null;
  const tokens = Math.max(1, Math.min(expert.size * model.seq, Math.floor(MAX_ASSIGNMENTS / model.top_k)));
  return {
    op: 'moe_route',
    tokens,
    experts: model.experts,
    top_k: model.top_k,
    ep: expert.size,
    skew: state.skew,
    seed: state.seed,
    hidden: model.hidden,
    hardware: state.network && hardware ? withNetwork(hardware, state.network) : state.hardware,
    // Which EP ranks share a node, as the placement put them: node mates talk over NVLink, the rest over the network.
    ...(expert.link === 'inter' ? { ranks_per_node: expert.members_per_node } : { link_kind: 'intra' }),
  };
}

/**
 * Whether a routing follows the first draw of this run: routeRequest's answer when the presets entry `model` is known;
 * before it is (a first draw that has not read the presets answer), whether the engine placed the run with expert
 * parallelism (the routing itself, and so whether there is one to show, waits for the presets entry).
 */
export function routesLater(state, model, placement) {
  return model ? routeRequest(state, model, placement) !== null : expertAxis(placement).size > 1;
}

/**
 * Whether the first draw can try the run before reading the presets answer, given the ep attribute's raw text: only
 * when it is a whole number (a missing or unreadable one defaults by the model: 8 with experts, else 1).
 */
export function quickStartable(rawEp) {
  return rawEp !== null && rawEp !== undefined && Number.isInteger(attributeNumber(rawEp, { whole: true }));
}

/** The attributes read (and noted when bad) before the model is known: a failed quick start clears their notes. */
export const QUICK_NOTED = ['axis', 'gpus', 'tp', 'pp', 'ep', 'global-batch', 'skew', 'seed'];

/** The skew slider's step (a UI limit: the engine takes any skew from 0 to 10). */
export const SKEW_STEP = 0.1;

/**
 * An attribute's skew on the slider's grid: { value, hint }, where hint explains a move ("" when none), so the
 * slider and the figure always show the same skew.
 */
export function snapSkew(skew) {
  const value = Number((Math.round(skew / SKEW_STEP) * SKEW_STEP).toFixed(1));
  return {
    value,
    hint:
      Math.abs(value - skew) > 1e-9 ? `the slider moves in steps of ${SKEW_STEP}: ${skew} → ${value.toFixed(1)}` : '',
  };
}
