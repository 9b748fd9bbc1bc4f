/// Mixture-of-experts routing: a seeded, skewed router sends tokens to experts; expert capacity drops the overflow;
/// the send matrix between expert-parallel ranks and the all-to-all time its busiest rank sets.
#pragma once

#include <cstdint>
#include <vector>

#include "parascope/collectives.hpp"

namespace parascope {

/// What to route. Preconditions (the op file validates requests; route_tokens does not): tokens >= 1, experts >= 1,
/// 1 <= top_k <= experts, ep >= 1 divides experts, skew >= 0 and finite, capacity_factor >= 0 (0 = no capacity limit).
struct RouteSpec {
  std::int64_t tokens = 1;     ///< tokens in the batch being routed (all ep ranks together)
  std::int64_t experts = 1;    ///< routed experts in the layer
  std::int64_t top_k = 1;      ///< distinct experts each token is sent to
  std::int64_t ep = 1;         ///< expert-parallel ranks; expert e lives on rank e / (experts / ep)
  double skew = 0;             ///< Zipf exponent of the router's preference (0 = uniform)
  double capacity_factor = 0;  ///< GShard / Switch capacity factor; 0 = dropless (no token is ever dropped)
  std::uint64_t seed = 0;
};

/// The router's outcome. Counts are token-expert assignments (a token sent to top_k experts counts top_k times).
struct Routing {
  std::vector<std::int64_t> expert_load;               ///< assignments each expert was chosen for (before dropping)
  std::vector<std::int64_t> kept_load;                 ///< what each expert processes (after capacity dropping)
  std::vector<std::vector<std::int64_t>> send_matrix;  ///< [source rank][destination rank]: kept assignments
  std::vector<std::int64_t> rank_load;                 ///< kept assignments each rank's experts process (column sums)
  std::int64_t capacity = 0;                           ///< per-expert capacity in assignments; 0 = unlimited
  std::int64_t dropped = 0;                            ///< assignments beyond capacity, dropped (they skip the expert)
  std::int64_t hot_expert = 0;                         ///< the expert chosen most often (lowest id on a tie)
  std::int64_t hot_rank = 0;                           ///< the rank whose GPU moves the most off-rank bytes
  double max_over_mean = 1;                            ///< max expert_load / mean expert_load (1 = balanced)
};

/// Routes `tokens` tokens to `top_k` distinct experts each.
///
/// Router: expert popularity follows a Zipf law: the expert of popularity rank i (0-based) has weight 1 / (i+1)^skew
/// (Zipf 1949; skew 0 is uniform). Which expert holds which popularity rank is a seeded random permutation, so the
/// hot expert is not always expert 0. A token draws its top_k experts one after another without replacement, each
/// draw in proportion to the weights of the experts not yet chosen (sequential weighted sampling, the Plackett-Luce
/// model; the same law as the Gumbel-top-k trick).
///
/// Placement: token t starts on rank floor(t·ep / tokens) (evenly spread); expert e lives on rank e / (experts/ep).
///
/// Capacity (GShard, Lepikhin et al. 2020 Sec. 2.2 "expert capacity"; Switch Transformer, Fedus et al. 2021 Sec. 2.2
/// Eq. 3-4): capacity = floor(capacity_factor · tokens · top_k / experts) assignments per expert. Assignments are
/// served in token order, first come first served; those that find the expert full are dropped (the token's residual
/// carries it past the layer) and are not sent.
///
/// Deterministic: the same spec gives the same routing on every platform (xoshiro256** seeded by splitmix64;
/// Blackman & Vigna 2018). Cost: O(tokens · top_k · log experts) time, O(experts + ep²) memory.
Routing route_tokens(const RouteSpec& spec);

/// The all-to-all that carries a routing's dispatch (and, transposed, its combine): over one link, or, with
/// ranks_per_node > 1, over `intra` between ranks of one node (ranks r and q share a node when r / k == q / k) and
/// over `link` (each GPU's own NIC) between nodes.
struct AllToAllLoad {
  double bytes_per_token = 0;       ///< bytes of one token's activation (hidden · bytes per element)
  Link link;                        ///< the link between nodes (or the only link when ranks_per_node is 1)
  Link intra;                       ///< the link inside a node; used only when ranks_per_node > 1
  std::int64_t ranks_per_node = 1;  ///< consecutive EP ranks that share a node (divides ep)
};

/// Off-rank bytes the busiest rank sends or receives (whichever is larger; a link carries B each way at once).
double busiest_rank_bytes(const Routing& routing, double bytes_per_token);

/// Time of one dispatch all-to-all over `ep` ranks (the combine is its transpose and costs the same).
///
/// The collectives engine's pairwise-exchange all-to-all, time = (N-1)·alpha + (N-1)/N · S/B (Thakur, Rabenseifner
/// & Gropp 2005), assumes every rank sends S/N to each peer. Under a skewed router no rank can finish before its own
/// port has moved its off-rank bytes, so the step is paced by the busiest rank: we charge that rank's off-rank
/// bytes T as the wire bytes, i.e. S = T · N/(N-1), giving (N-1)·alpha + T/B. With a balanced router this is exactly
/// the uniform all-to-all. It is a lower bound for an imbalanced exchange (pairwise steps can also wait on each other).
/// With k = ranks_per_node > 1 each rank's bytes split into those for node mates (over `intra`) and the rest (over
/// `link`), moved at once as in alltoall_two_level: a rank takes (k−1)·α_intra + (N−k)·α_inter + max(T_near/B_intra,
/// T_far/B_inter), T_near and T_far each the larger of sent and received; the slowest rank sets the time.
CollectiveCost routed_alltoall(const Routing& routing, std::int64_t ep, const AllToAllLoad& load);

/// The same all-to-all if every rank sent and received an equal share of the tokens·top_k assignments.
CollectiveCost balanced_alltoall(std::int64_t tokens, std::int64_t top_k, std::int64_t ep, const AllToAllLoad& load);

/// The step's router_imbalance for this routing: the factor on the balanced send buffer at which the balanced
/// all-to-all lasts as long as the routed one (their latency terms are equal, their bandwidth terms linear in the
/// bytes), at least 1. A `step` of the same tokens, top_k and links with efficiency.router_imbalance set to it times
/// each dispatch as `routed` does.
double alltoall_imbalance(const CollectiveCost& routed, const CollectiveCost& balanced, std::int64_t ep,
                          const AllToAllLoad& load);

}  // namespace parascope
