// MoE routing: Zipf-skewed router sampled without replacement, capacity dropping, send matrix, all-to-all time.
#include "parascope/moe.hpp"

#include <algorithm>
#include <cmath>

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

/// A Fenwick (binary indexed) tree of weights: prefix sums and "first index whose prefix exceeds u" in O(log n).
/// Updates are journaled so that a token's removals can be undone exactly (no floating-point drift over tokens).
class WeightTree {
 public:
  explicit WeightTree(const std::vector<double>& w) : n_(std::int64_t(w.size())), tree_(w.size() + 1, 0.0) {
    for (std::int64_t i = 0; i < n_; ++i) add(i, w[std::size_t(i)], /*journal=*/false);
    top_ = 1;
    while (top_ * 2 <= n_) top_ *= 2;
  }
  double total() const {
    double s = 0;
    for (std::int64_t i = n_; i > 0; i -= i & -i) s += tree_[std::size_t(i)];
    return s;
  }
  /// The smallest index whose inclusive prefix sum exceeds u (n-1 if rounding runs past the end).
  std::int64_t find(double u) const {
    std::int64_t pos = 0;
    for (std::int64_t step = top_; step > 0; step /= 2) {
      if (pos + step <= n_ && tree_[std::size_t(pos + step)] <= u) {
        pos += step;
        u -= tree_[std::size_t(pos)];
      }
    }
    return std::min(pos, n_ - 1);
  }
  void add(std::int64_t index, double delta, bool journal = true) {
    for (std::int64_t i = index + 1; i <= n_; i += i & -i) {
      if (journal) journal_.push_back({i, tree_[std::size_t(i)]});
      tree_[std::size_t(i)] += delta;
    }
  }
  /// Restores every node changed since the last undo to its exact previous value.
  void undo() {
    for (auto it = journal_.rbegin(); it != journal_.rend(); ++it) tree_[std::size_t(it->first)] = it->second;
    journal_.clear();
  }

 private:
  std::int64_t n_, top_ = 1;
  std::vector<double> tree_;
  std::vector<std::pair<std::int64_t, double>> journal_;
};

}  // namespace

Routing route_tokens(const RouteSpec& spec) {
  const std::int64_t E = spec.experts, ep = spec.ep, per_rank = E / ep;
  Rng rng(spec.seed);

  // Zipf weights by popularity rank, dealt to experts by a seeded Fisher-Yates shuffle.
  std::vector<std::int64_t> expert_of_rank(std::size_t(E), 0);
  for (std::int64_t i = 0; i < E; ++i) expert_of_rank[std::size_t(i)] = i;
  for (std::int64_t i = E - 1; i > 0; --i) std::swap(expert_of_rank[std::size_t(i)], expert_of_rank[std::size_t(rng.below(i + 1))]);
  std::vector<double> weight(std::size_t(E), 0.0);
  for (std::int64_t i = 0; i < E; ++i) {
    weight[std::size_t(expert_of_rank[std::size_t(i)])] = spec.skew == 0 ? 1.0 : std::pow(double(i + 1), -spec.skew);
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

  WeightTree tree(weight);
  std::vector<char> chosen(std::size_t(E), 0);
  std::vector<std::int64_t> picks;
  for (std::int64_t t = 0; t < spec.tokens; ++t) {
    const std::int64_t source = t * ep / spec.tokens;
    picks.clear();
    for (std::int64_t j = 0; j < spec.top_k; ++j) {
      std::int64_t e = tree.find(rng.uniform() * tree.total());
      if (chosen[std::size_t(e)]) {  // rounding at a boundary landed on a removed expert: take the next free one
        while (chosen[std::size_t(e)]) e = (e + 1) % E;
      }
      chosen[std::size_t(e)] = 1;
      picks.push_back(e);
      tree.add(e, -weight[std::size_t(e)]);
    }
    tree.undo();
    for (std::int64_t e : picks) {
      chosen[std::size_t(e)] = 0;
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
    for (std::int64_t d = 0; d < ep; ++d) out.rank_load[std::size_t(d)] += out.send_matrix[std::size_t(s)][std::size_t(d)];
  }
  out.hot_expert = std::int64_t(std::max_element(out.expert_load.begin(), out.expert_load.end()) - out.expert_load.begin());
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
  const double latency = double(k - 1) * load.intra.latency + double(ep - k) * load.link.latency;
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
  c.steps = ep - 1;
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

}  // namespace parascope
