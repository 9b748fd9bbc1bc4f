// The expert panel of <parascope-axes> as data: per-expert load bars and the facts of one MoE layer's routing of one
// microbatch (the engine's moe_route answer), the busiest expert tied to the GPUs that hold it.
import { bytes, grouped, seconds } from '../../../lib/format.js';
import { rankList } from './captions.js';

const n = (x) => grouped(x);
const times = (x) => `${Number(x.toPrecision(3))}×`;

/** The drawn GPUs that hold `expert`, from the placement's per-rank expert ranges. */
export function gpusHolding(placement, expert) {
  return placement.ranks.filter((r) => r.experts && r.experts[0] <= expert && expert < r.experts[1]).map((r) => r.rank);
}

/** The EP rank that holds `expert` (the placement's ep index of a GPU holding it), or null. */
export function epRankHolding(placement, expert) {
  return placement.ranks.find((r) => r.experts && r.experts[0] <= expert && expert < r.experts[1])?.ep ?? null;
}

/** Why there is no routing to show (dense model, or EP 1). */
export function noRoutingText(model) {
  return model.experts > 1
    ? 'Expert parallelism is 1 in this run: every GPU holds every expert, so no tokens cross GPUs for them.'
    : `${model.name} is dense: it has no experts to split.`;
}

/**
 * What the panel shows for `route` (the moe_route answer to `request`) in the run described by `placement`:
 * { title, bars: { loads, hot, capacity, name }, facts: [{ key, term, text, value }], skewText (the slider's
 * aria-valuetext), hotGpus, hotExpert }.
 */
export function expertPanel(route, request, placement) {
  const hotGpus = gpusHolding(placement, route.hot_expert);
  const hotEp = epRankHolding(placement, route.hot_expert);
  const perRank = request.tokens / request.ep;
  const title =
    `${n(request.tokens)} tokens (${n(perRank)} on each of ${request.ep} EP ranks), each sent to its top ` +
    `${request.top_k} of ${request.experts} experts by a router of skew ${request.skew.toFixed(1)}.`;
  const where = hotEp === null ? '' : `, held by EP rank ${hotEp}`;
  const outlined = hotGpus.length ? `; outlined in the grid: GPUs ${rankList(hotGpus)}` : '';
  const facts = [
    {
      key: 'hot-expert',
      term: 'Busiest expert',
      value: route.hot_expert,
      text: `expert ${route.hot_expert}: ${times(route.max_over_mean)} the mean load${where}${outlined}`,
    },
    {
      key: 'hot-rank',
      term: 'Most all-to-all bytes',
      value: route.hot_rank,
      text:
        `EP rank ${route.hot_rank} sends or receives ${bytes(route.hot_rank_bytes)} off its GPU in this microbatch; ` +
        'that port sets the time below',
    },
    {
      key: 'a2a-time',
      term: 'One dispatch all-to-all (per MoE layer, per microbatch)',
      value: route.time,
      text: `${seconds(route.time)}; with a balanced router ${seconds(route.balanced_time)}`,
    },
    {
      key: 'dropped',
      term: 'Dropped',
      value: route.dropped,
      text:
        route.capacity > 0 ? `${n(route.dropped)} assignments over capacity ${n(route.capacity)}` : 'none (dropless)',
    },
  ];
  return {
    title,
    bars: {
      loads: route.expert_load,
      hot: route.hot_expert,
      capacity: route.capacity,
      name:
        `Token-expert assignments per expert in one microbatch at skew ${request.skew.toFixed(1)}: expert ` +
        `${route.hot_expert} is the busiest, ${times(route.max_over_mean)} the mean.`,
    },
    facts,
    skewText: `${request.skew.toFixed(1)}: busiest expert ${route.hot_expert} at ${times(route.max_over_mean)} the mean load`,
    hotGpus,
    hotExpert: route.hot_expert,
  };
}

/** The polite announcement after the skew moves. */
export function routingSummary(route, request) {
  return (
    `Router skew ${request.skew.toFixed(1)}: busiest expert ${route.hot_expert} at ${times(route.max_over_mean)} the ` +
    `mean load; one dispatch all-to-all ${seconds(route.time)} per MoE layer per microbatch ` +
    `(balanced: ${seconds(route.balanced_time)}).`
  );
}
