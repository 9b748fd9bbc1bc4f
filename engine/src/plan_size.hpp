// The size of a plan search, counted before anything is built: splits, groups and configurations, and the limits
// that bound its work and memory (engine/API.md, "Cost of the largest request").
#pragma once

#include <cstdint>
#include <vector>

#include "parascope/plan.hpp"

namespace parascope::detail {

/// Most splits (dp × tp × pp × cp × ep) a search enumerates: ~50 bytes each, held for the whole search.
inline constexpr std::int64_t kMaxPlanSplits = 20'000;
/// Most groups (a split's microbatch size × schedule × interleaving degree): ~40 bytes each, held too.
inline constexpr std::int64_t kMaxPlanGroups = 400'000;
/// Most configurations considered (groups × recompute × sequence parallelism × precision × ZeRO): the search's work.
inline constexpr std::int64_t kMaxPlanConfigurations = 6'000'000;

/// The recompute modes a search tries: the query's, less "selective" beside "none" when FlashAttention is on (with it
/// selective recomputation is no recomputation, step_core.cpp: a twin of every "none" configuration, not a choice).
std::vector<Recompute> searched_recompute(const PlanQuery& query);

/// The divisors of n in increasing order (n ≤ 10^8: trial division to √n).
std::vector<std::int64_t> divisors(std::int64_t n);

/// What a query's search would enumerate, counted exactly as PlanSearch enumerates it (no allocation per split).
struct PlanSize {
  std::int64_t splits = 0, groups = 0, configurations = 0;
};

/// Counts the search. `give_up` (a count of tp × pp × cp triples) stops early once exceeded: then `splits` is only
/// known to exceed it and groups and configurations are 0.
PlanSize plan_size(const PlanQuery& query, std::int64_t give_up = kMaxPlanSplits);

/// Throws RequestError(too_large) naming the field beyond a limit: `cluster.gpus` (or `max_tp`, when given) for the
/// splits, `global_batch` for groups and configurations; returns the configurations (the search's `total`).
std::int64_t check_plan_size(const PlanQuery& query);

}  // namespace parascope::detail
