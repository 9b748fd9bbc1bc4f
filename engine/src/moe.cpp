// MoE routing: Zipf-skewed router sampled without replacement, capacity dropping, send matrix, all-to-all time.
#include "parascope/moe.hpp"

#include <algorithm>
#include <cmath>

#include "powers.hpp"

namespace parascope {

namespace {

/// splitmix64 (Steele, Lea & Flood 2014), used only to expand the seed into xoshiro's state, as Vigna recommends.
std::uint64_t splitmix64(std::uint64_t& x) {
  std::uint64_t z = (x += 0x9e3779b97f4a7c15ULL);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

/// xoshiro256** 1.0 (Blackman & Vigna 2018, "Scrambled linear pseudorandom number generators"): 64-bit outputs,
/// integer-only, so native and wasm draw identical streams.
class Rng {
 public:
  explicit Rng(std::uint64_t seed) {
    for (auto& word : s_) word = splitmix64(seed);
  }
  std::uint64_t next() {
    const std::uint64_t result = rotl(s_[1] * 5, 7) * 9;
    const std::uint64_t t = s_[1] << 17;
    s_[2] ^= s_[0];
    s_[3] ^= s_[1];
    s_[1] ^= s_[2];
    s_[0] ^= s_[3];
    s_[2] ^= t;
    s_[3] = rotl(s_[3], 45);
    return result;
  }
  /// Uniform in [0, 1) with 53 random bits.
  double uniform() { return double(next() >> 11) * 0x1.0p-53; }
  /// Uniform integer in [0, n).
  std::int64_t below(std::int64_t n) { return std::min<std::int64_t>(n - 1, std::int64_t(uniform() * double(n))); }

 private:
  static std::uint64_t rotl(std::uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }
  std::uint64_t s_[4];
};

/// A sum tree (a complete binary tree over the weights, leaves padded to a power of two): every inner node holds
/// left + right, recomputed from its two children whenever a leaf changes, never adjusted by a difference. A removed
/// expert's leaf is set to exactly 0, so no residue of its weight survives in any sum: the weights left after the
/// heavy experts are drawn (down to 4096^-10 ≈ 1e-36 at skew 10) keep their exact share, and a draw can never land on
/// a removed expert. Draw and removal are O(log experts); restoring a token's removals recomputes the same sums
/// from the same leaves, so every token starts from bit-identical totals. (Sampling without replacement in proportion
/// to the remaining weights, one draw at a time, as in Wong & Easton 1980, "An efficient method for weighted
/// sampling without replacement", SIAM J. Comput. 9(1): a binary tree of partial sums.)
class SumTree {
 public:
  explicit SumTree(const std::vector<double>& w) : weight_(w) {
    while (leaves_ < w.size()) leaves_ *= 2;
    sum_.assign(2 * leaves_, 0.0);
    for (std::size_t i = 0; i < w.size(); ++i) sum_[leaves_ + i] = w[i];
    for (std::size_t node = leaves_ - 1; node >= 1; --node) sum_[node] = sum_[2 * node] + sum_[2 * node + 1];
    pristine_ = sum_;
  }
  double total() const { return sum_[1]; }
  /// The leaf where u (0 ≤ u < total) falls in the running sum of the remaining weights. It never descends into a
  /// subtree whose sum is 0 (all removed), whatever the rounding of u.
  std::size_t find(double u) const {
    std::size_t node = 1;
    while (node < leaves_) {
      const double left = sum_[2 * node], right = sum_[2 * node + 1];
      const bool go_right = !(left > 0 && (u < left || right <= 0));  // branch-free: the draws are unpredictable
      u -= go_right ? left : 0.0;
      node = 2 * node + std::size_t(go_right);
    }
    return node - leaves_;
  }
  void remove(std::size_t index) { set(index, 0.0); }
  /// Puts back the weights at `indices` (every removal since the last reset): path by path when that is cheaper than
  /// copying the whole untouched tree back. Either way every sum is the same double as before the removals.
  void restore(const std::vector<std::int64_t>& indices) {
    std::size_t depth = 0;
    for (std::size_t n = leaves_; n > 1; n /= 2) ++depth;
    if (indices.size() * depth > sum_.size()) {
      sum_ = pristine_;
      return;
    }
    for (std::int64_t i : indices) set(std::size_t(i), weight_[std::size_t(i)]);
  }

 private:
  void set(std::size_t index, double value) {
    std::size_t node = leaves_ + index;
    sum_[node] = value;
    for (node /= 2; node >= 1; node /= 2) sum_[node] = sum_[2 * node] + sum_[2 * node + 1];
  }
  std::vector<double> weight_;
  std::size_t leaves_ = 1;
  std::vector<double> sum_, pristine_;
};

}  // namespace

Routing route_tokens(const RouteSpec& spec) {
  const std::int64_t E = spec.experts, ep = spec.ep, per_rank = E / ep;
  Rng rng(spec.seed);

  // Zipf weights by popularity rank, dealt to experts by a seeded Fisher-Yates shuffle.
  std::vector<std::int64_t> expert_of_rank(std::size_t(E), 0);
  for (std::int64_t i = 0; i < E; ++i) expert_of_rank[std::size_t(i)] = i;
  for (std::int64_t i = E - 1; i > 0; --i)
    std::swap(expert_of_rank[std::size_t(i)], expert_of_rank[std::size_t(rng.below(i + 1))]);
  std::vector<double> weight(std::size_t(E), 0.0);
  for (std::int64_t i = 0; i < E; ++i) {
    const double zipf = spec.skew == 0 ? 1.0 : detail::inverse_power(double(i + 1), spec.skew);
    weight[std::size_t(expert_of_rank[std::size_t(i)])] = zipf;
  }

  Routing out;
  out.expert_load.assign(std::size_t(E), 0);
  out.kept_load.assign(std::size_t(E), 0);
  out.send_matrix.assign(std::size_t(ep), std::vector<std::int64_t>(std::size_t(ep), 0));
  out.rank_load.assign(std::size_t(ep), 0);
  // Switch Transformer Eq. 4 / GShard: expert capacity = capacity_factor · (tokens · top_k) / experts, rounded down.
  out.capacity = spec.capacity_factor > 0
                     ? std::max<std::int64_t>(0, std::int64_t(std::floor(spec.capacity_factor * double(spec.tokens) *
                                                                         double(spec.top_k) / double(E))))
                     : 0;

  SumTree tree(weight);
  std::vector<std::int64_t> picks;
  for (std::int64_t t = 0; t < spec.tokens; ++t) {
    const std::int64_t source = t * ep / spec.tokens;
    picks.clear();
    for (std::int64_t j = 0; j < spec.top_k; ++j) {
      const auto e = std::int64_t(tree.find(rng.uniform() * tree.total()));
      picks.push_back(e);
      tree.remove(std::size_t(e));
    }
    tree.restore(picks);
    for (std::int64_t e : picks) {
      out.expert_load[std::size_t(e)] += 1;
      if (spec.capacity_factor > 0 && out.kept_load[std::size_t(e)] >= out.capacity) {
        out.dropped += 1;
        continue;
      }
      out.kept_load[std::size_t(e)] += 1;
      out.send_matrix[std::size_t(source)][std::size_t(e / per_rank)] += 1;
    }
  }

  for (std::int64_t s = 0; s < ep; ++s) {
    for (std::int64_t d = 0; d < ep; ++d)
      out.rank_load[std::size_t(d)] += out.send_matrix[std::size_t(s)][std::size_t(d)];
  }
  out.hot_expert =
      std::int64_t(std::max_element(out.expert_load.begin(), out.expert_load.end()) - out.expert_load.begin());
  const double mean = double(spec.tokens) * double(spec.top_k) / double(E);
  out.max_over_mean = double(out.expert_load[std::size_t(out.hot_expert)]) / mean;

  // The busiest rank by off-rank traffic (sent or received, whichever is larger); lowest rank on a tie.
  std::int64_t busiest = -1;
  for (std::int64_t r = 0; r < ep; ++r) {
    std::int64_t sent = 0, received = 0;
    for (std::int64_t q = 0; q < ep; ++q) {
      if (q == r) continue;
      sent += out.send_matrix[std::size_t(r)][std::size_t(q)];
      received += out.send_matrix[std::size_t(q)][std::size_t(r)];
    }
    if (std::max(sent, received) > busiest) {
      busiest = std::max(sent, received);
      out.hot_rank = r;
    }
  }
  return out;
}

double busiest_rank_bytes(const Routing& routing, double bytes_per_token) {
  const std::size_t ep = routing.send_matrix.size();
  const std::size_t r = std::size_t(routing.hot_rank);
  std::int64_t sent = 0, received = 0;
  for (std::size_t q = 0; q < ep; ++q) {
    if (q == r) continue;
    sent += routing.send_matrix[r][q];
    received += routing.send_matrix[q][r];
  }
  return double(std::max(sent, received)) * bytes_per_token;
}

CollectiveCost routed_alltoall(const Routing& routing, std::int64_t ep, const AllToAllLoad& load) {
  const double wire = busiest_rank_bytes(routing, load.bytes_per_token);
  if (ep <= 1 || wire <= 0) return {};
  const std::int64_t k = std::clamp<std::int64_t>(load.ranks_per_node, 1, ep);
  if (k == 1) {
    // S such that the all-to-all's wire bytes (N-1)/N · S equal the busiest rank's off-rank bytes.
    return alltoall(ep, wire * double(ep) / double(ep - 1), load.link);
  }
  // Node mates and other nodes in NCCL's grouped batches of peers (p2p_batches), as alltoall_two_level.
  const std::int64_t near_batches = p2p_batches(k - 1), far_batches = p2p_batches(ep - k);
  const double latency = double(near_batches) * load.intra.latency + double(far_batches) * load.link.latency;
  double slowest = 0;
  for (std::int64_t r = 0; r < ep; ++r) {
    std::int64_t near_sent = 0, near_received = 0, far_sent = 0, far_received = 0;
    for (std::int64_t q = 0; q < ep; ++q) {
      if (q == r) continue;
      const bool near = q / k == r / k;
      (near ? near_sent : far_sent) += routing.send_matrix[std::size_t(r)][std::size_t(q)];
      (near ? near_received : far_received) += routing.send_matrix[std::size_t(q)][std::size_t(r)];
    }
    const double t_near = double(std::max(near_sent, near_received)) * load.bytes_per_token / load.intra.bandwidth;
    const double t_far = double(std::max(far_sent, far_received)) * load.bytes_per_token / load.link.bandwidth;
    slowest = std::max(slowest, std::max(t_near, t_far));
  }
  CollectiveCost c;
  c.steps = near_batches + far_batches;
  c.bytes_sent_per_gpu = wire;
  c.time = latency + slowest;
  return c;
}

CollectiveCost balanced_alltoall(std::int64_t tokens, std::int64_t top_k, std::int64_t ep, const AllToAllLoad& load) {
  const double send_buffer = double(tokens) * double(top_k) / double(ep) * load.bytes_per_token;
  if (ep <= 1 || send_buffer <= 0) return {};
  if (load.ranks_per_node > 1) return alltoall_two_level(ep, load.ranks_per_node, send_buffer, load.intra, load.link);
  return alltoall(ep, send_buffer, load.link);
}

double alltoall_imbalance(const CollectiveCost& routed, const CollectiveCost& balanced, std::int64_t ep,
                          const AllToAllLoad& load) {
  if (ep <= 1) return 1;
  const std::int64_t k = std::clamp<std::int64_t>(load.ranks_per_node, 1, ep);
  // The latency term both share: the same all-to-all moving no bytes (the collectives engine's own formula).
  const double latency =
      (k > 1 ? alltoall_two_level(ep, k, 0.0, load.intra, load.link) : alltoall(ep, 0.0, load.link)).time;
  const double balanced_wire = balanced.time - latency;
  if (!(balanced_wire > 0) || routed.time <= latency) return 1;
  return std::max(1.0, (routed.time - latency) / balanced_wire);
}

}  // namespace parascope
