// Counts a plan search before it starts (splits, groups, configurations) and refuses one beyond the limits, so that
// the planner's work and memory are bounded by its request like every other op's (engine/API.md).
#include "plan_size.hpp"

#include <algorithm>
#include <string>
#include <unordered_map>
#include <vector>

#include "parascope/error.hpp"
#include "pipeline_detail.hpp"

namespace parascope::detail {

namespace {

/// The primes of n (trial division: n ≤ 10^7, so at most 3,163 steps).
std::vector<std::int64_t> primes_of(std::int64_t n) {
  std::vector<std::int64_t> primes;
  for (std::int64_t p = 2; p * p <= n; ++p) {
    if (n % p != 0) continue;
    primes.push_back(p);
    while (n % p == 0) n /= p;
  }
  if (n > 1) primes.push_back(n);
  return primes;
}

/// Ordered triples (pp, cp, dp) with pp·cp·dp = n, n's primes among `primes`: Π C(e + 2, 2) over n = Π p^e
/// (the number of ways to share each prime's exponent among three factors).
std::int64_t ordered_triples(std::int64_t n, const std::vector<std::int64_t>& primes) {
  std::int64_t count = 1;
  for (const std::int64_t p : primes) {
    std::int64_t e = 0;
    while (n % p == 0) n /= p, ++e;
    count *= (e + 2) * (e + 1) / 2;
  }
  return count;
}

/// The interleaving degrees v ≥ 2 the search tries for pp stages (plan.cpp: layers divisible by pp·v).
std::int64_t interleaving_degrees(std::int64_t pp, std::int64_t layers) {
  std::int64_t n = 0;
  for (std::int64_t v = 2; pp > 1 && pp * v <= layers; ++v) n += layers % (pp * v) == 0 ? 1 : 0;
  return n;
}

/// The tp sizes the search tries: divisors of the GPUs up to max_tp (plan.cpp's enumerate).
std::vector<std::int64_t> tp_sizes(const PlanQuery& q) {
  const std::int64_t max_tp = q.max_tp > 0 ? q.max_tp : std::max<std::int64_t>(1, q.cluster.gpus_per_node);
  std::vector<std::int64_t> tps;
  for (const std::int64_t tp : divisors(q.cluster.gpus)) {
    if (tp <= max_tp) tps.push_back(tp);
  }
  return tps;
}

/// Groups of one accepted split: microbatch sizes (divisors of the per-replica batch) × schedules × degrees.
struct GroupCounter {
  const PlanQuery& q;
  std::unordered_map<std::int64_t, std::int64_t> batch_divisors, degrees;  // by dp, by pp
  std::int64_t operator()(std::int64_t dp, std::int64_t pp) {
    auto b = batch_divisors.find(dp);
    if (b == batch_divisors.end()) b = batch_divisors.emplace(dp, divisors(q.global_batch / dp).size()).first;
    auto v = degrees.find(pp);
    if (v == degrees.end()) v = degrees.emplace(pp, interleaving_degrees(pp, q.model.layers)).first;
    std::int64_t per_size = 0;
    for (const Schedule s : q.schedules) per_size += schedule_info(s).interleaves ? v->second : 1;
    return b->second * per_size;
  }
};

/// Whether plan.cpp refuses the split as a whole (counted as one configuration, no groups).
bool split_refused(const PlanQuery& q, std::int64_t dp, std::int64_t tp, std::int64_t pp, std::int64_t cp) {
  const ModelShape& m = q.model;
  const std::int64_t expert_ffn = m.expert_ffn > 0 ? m.expert_ffn : m.ffn;
  return m.heads % tp != 0 || (cp > 1 && m.seq % cp != 0) || q.global_batch % dp != 0 ||
         (m.is_moe() && expert_ffn % tp != 0) || pp > m.layers;
}

}  // namespace

std::vector<Recompute> searched_recompute(const PlanQuery& q) {
  const auto& modes = q.recompute;
  const bool has_none = std::find(modes.begin(), modes.end(), Recompute::none) != modes.end();
  std::vector<Recompute> out;
  for (const Recompute r : modes) {
    if (!(r == Recompute::selective && q.efficiency.flash_attention && has_none)) out.push_back(r);
  }
  return out;
}

std::vector<std::int64_t> divisors(std::int64_t n) {
  std::vector<std::int64_t> small, large;
  for (std::int64_t d = 1; d * d <= n; ++d) {
    if (n % d != 0) continue;
    small.push_back(d);
    if (d != n / d) large.push_back(n / d);
  }
  small.insert(small.end(), large.rbegin(), large.rend());
  return small;
}

PlanSize plan_size(const PlanQuery& q, std::int64_t give_up) {
  PlanSize size;
  const std::vector<std::int64_t> tps = tp_sizes(q);
  const std::vector<std::int64_t> primes = primes_of(q.cluster.gpus);
  std::int64_t triples = 0;
  for (const std::int64_t tp : tps) triples += ordered_triples(q.cluster.gpus / tp, primes);
  if (triples > give_up) {
    size.splits = triples;  // at least: each triple is one split or more (ep = 1 always divides)
    return size;
  }
  const std::int64_t knobs = std::int64_t(searched_recompute(q).size() * q.precision.size() * q.zero.size());
  const std::vector<std::int64_t> expert_sizes = divisors(q.model.is_moe() ? q.model.experts : 1);
  GroupCounter groups{q, {}, {}};
  for (const std::int64_t tp : tps) {
    for (const std::int64_t pp : divisors(q.cluster.gpus / tp)) {
      for (const std::int64_t cp : divisors(q.cluster.gpus / tp / pp)) {
        if (q.max_cp > 0 && cp > q.max_cp) continue;  // as plan.cpp's enumerate
        const std::int64_t dp = q.cluster.gpus / tp / pp / cp;
        std::int64_t eps = 0;
        for (const std::int64_t ep : expert_sizes) eps += (dp * cp) % ep == 0 ? 1 : 0;
        size.splits += eps;
        if (split_refused(q, dp, tp, pp, cp)) {
          size.configurations += eps;
          continue;
        }
        const std::int64_t g = groups(dp, pp) * eps;
        size.groups += g;
        size.configurations +=
            g * knobs * (tp > 1 ? std::int64_t(q.sequence_parallel.size()) : 1);  // its choices when tp > 1
      }
    }
  }
  return size;
}

std::int64_t check_plan_size(const PlanQuery& q) {
  const PlanSize size = plan_size(q);
  const auto beyond = [](const char* what, std::int64_t n, std::int64_t most, const char* field, const char* hint) {
    throw RequestError(code::too_large,
                       std::string("the search is too large: ") + (n > most ? std::to_string(n) : "over") + " " + what +
                           ", at most " + std::to_string(most) + " (" + hint + ")",
                       field);
  };
  if (size.splits > kMaxPlanSplits) {
    beyond("ways to split the cluster into dp × tp × pp × cp × ep", size.splits, kMaxPlanSplits, "cluster.gpus",
           "fewer GPUs, a GPU count with fewer divisors, or a smaller max_tp");
  }
  if (size.groups > kMaxPlanGroups) {
    beyond("pipeline shapes (splits × microbatch sizes × schedules)", size.groups, kMaxPlanGroups, "global_batch",
           "a global batch with fewer divisors, or fewer schedules");
  }
  if (size.configurations > kMaxPlanConfigurations) {
    beyond("configurations", size.configurations, kMaxPlanConfigurations, "global_batch",
           "a global batch with fewer divisors, or fewer schedules, recompute modes, ZeRO stages or precisions");
  }
  return size.configurations;
}

}  // namespace parascope::detail
