// MoE routing: loads add up, a uniform router balances, the seed fixes the answer, capacity drops the overflow, and
// the all-to-all time follows the busiest rank.
#include "parascope/moe.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <numeric>

namespace parascope {
namespace {

RouteSpec spec(std::int64_t tokens, std::int64_t experts, std::int64_t top_k, std::int64_t ep, double skew,
               double capacity_factor = 0, std::uint64_t seed = 1) {
  RouteSpec s;
  s.tokens = tokens, s.experts = experts, s.top_k = top_k, s.ep = ep, s.skew = skew;
  s.capacity_factor = capacity_factor, s.seed = seed;
  return s;
}

std::int64_t sum(const std::vector<std::int64_t>& v) { return std::accumulate(v.begin(), v.end(), std::int64_t(0)); }

TEST(MoeRoute, ExpertLoadsSumToTokensTimesTopK) {
  for (double skew : {0.0, 0.8, 2.0}) {
    const Routing r = route_tokens(spec(1000, 16, 4, 4, skew));
    EXPECT_EQ(sum(r.expert_load), 1000 * 4) << skew;
    EXPECT_EQ(sum(r.rank_load), 1000 * 4) << skew;
    std::int64_t matrix = 0;
    for (const auto& row : r.send_matrix) matrix += sum(row);
    EXPECT_EQ(matrix, 1000 * 4) << skew;
  }
}

TEST(MoeRoute, EachTokenGoesToTopKDistinctExpertsEvenUnderExtremeSkew) {
  // With skew 10 the 3rd-ranked expert is 3^10 times rarer than the first; sampling without replacement must still
  // give every token 3 different experts, so no expert can be chosen more than once per token.
  const Routing r = route_tokens(spec(500, 8, 3, 2, 10.0));
  for (std::int64_t load : r.expert_load) EXPECT_LE(load, 500);
  EXPECT_EQ(sum(r.expert_load), 1500);
  // The two most popular experts are chosen by (nearly) every token. The third pick, drawn from what is left, lands
  // on popularity rank 3 with probability 3^-10 / (3^-10 + 4^-10 + ... + 8^-10) = 0.940: ~470 of 500 tokens (sd 5).
  std::vector<std::int64_t> sorted = r.expert_load;
  std::sort(sorted.rbegin(), sorted.rend());
  EXPECT_GE(sorted[1], 495);
  EXPECT_NEAR(double(sorted[2]), 470.0, 25.0);
}

TEST(MoeRoute, AUniformRouterIsNearlyBalancedForManyTokens) {
  // 64 experts, 2^20 assignments: each expert's load is binomial with mean 16384 and sd ~127, so the max over 64
  // experts sits within ~3 sd: max/mean < 1.03.
  const Routing r = route_tokens(spec(1 << 19, 64, 2, 8, 0.0));
  EXPECT_GT(r.max_over_mean, 1.0);
  EXPECT_LT(r.max_over_mean, 1.03);
}

TEST(MoeRoute, SkewConcentratesLoadOnTheHotExpert) {
  // Top-1, Zipf exponent 1 over 8 experts: the hottest expert's share is 1/H_8 = 1/2.7179 = 0.368, i.e. max/mean
  // = 8 · 0.368 = 2.94 (Zipf 1949: P(i) = i^-s / H_{n,s}).
  const Routing r = route_tokens(spec(200000, 8, 1, 8, 1.0));
  EXPECT_NEAR(r.max_over_mean, 8.0 / (1 + 1.0 / 2 + 1.0 / 3 + 1.0 / 4 + 1.0 / 5 + 1.0 / 6 + 1.0 / 7 + 1.0 / 8), 0.03);
  EXPECT_EQ(r.expert_load[std::size_t(r.hot_expert)], *std::max_element(r.expert_load.begin(), r.expert_load.end()));
}

TEST(MoeRoute, TheSameSeedGivesTheSameRoutingAndAnotherSeedAnother) {
  const Routing a = route_tokens(spec(4096, 32, 2, 4, 1.2, 0, 7));
  const Routing b = route_tokens(spec(4096, 32, 2, 4, 1.2, 0, 7));
  const Routing c = route_tokens(spec(4096, 32, 2, 4, 1.2, 0, 8));
  EXPECT_EQ(a.expert_load, b.expert_load);
  EXPECT_EQ(a.send_matrix, b.send_matrix);
  EXPECT_NE(a.expert_load, c.expert_load);
}

TEST(MoeRoute, CapacityDropsExactlyTheOverflow) {
  // Switch Transformer Eq. 4: capacity = floor(1.25 · 1000 · 1 / 4) = 312 per expert.
  const Routing r = route_tokens(spec(1000, 4, 1, 2, 2.0, 1.25));
  EXPECT_EQ(r.capacity, 312);
  std::int64_t overflow = 0;
  for (std::size_t e = 0; e < 4; ++e) {
    EXPECT_EQ(r.kept_load[e], std::min<std::int64_t>(r.expert_load[e], 312));
    overflow += std::max<std::int64_t>(0, r.expert_load[e] - 312);
  }
  EXPECT_GT(r.dropped, 0);
  EXPECT_EQ(r.dropped, overflow);
  EXPECT_EQ(sum(r.rank_load), 1000 - r.dropped);
}

TEST(MoeRoute, DroplessRoutingNeverDrops) {
  const Routing r = route_tokens(spec(1000, 4, 1, 2, 3.0, 0));
  EXPECT_EQ(r.dropped, 0);
  EXPECT_EQ(r.capacity, 0);
}

TEST(MoeRoute, TokensStartEvenlyOnRanksAndExpertsLiveInBlocks) {
  // ep = 4, 8 tokens: each rank sends exactly 2 tokens' assignments; experts 0-1 on rank 0, 2-3 on rank 1, ...
  const Routing r = route_tokens(spec(8, 8, 1, 4, 0.0));
  for (std::size_t s = 0; s < 4; ++s) EXPECT_EQ(sum(r.send_matrix[s]), 2);
  for (std::size_t d = 0; d < 4; ++d) EXPECT_EQ(r.rank_load[d], r.expert_load[2 * d] + r.expert_load[2 * d + 1]);
}

TEST(MoeAllToAll, BalancedTimeIsThePairwiseAllToAllOfEachRanksShare) {
  // 4096 tokens, top 2, ep 8, 8 KiB per token: each rank sends S = 4096·2/8·8192 B = 8 MiB;
  // Thakur et al. 2005: (N-1)·a + (N-1)/N · S/B = 7·2e-6 + 7/8 · 8 MiB / 100 GB/s.
  AllToAllLoad load{8192, {100e9, 2e-6}};
  const CollectiveCost c = balanced_alltoall(4096, 2, 8, load);
  EXPECT_NEAR(c.time, 1 * 2e-6 + 7.0 / 8.0 * 8388608.0 / 100e9, 1e-12);  // 7 peers: one batch (p2p_batches)
}

TEST(MoeAllToAll, TheBusiestRankSetsTheTimeAndSkewMakesItSlower) {
  AllToAllLoad load{8192, {100e9, 2e-6}};
  const Routing r = route_tokens(spec(4096, 16, 2, 8, 1.5));
  const CollectiveCost c = routed_alltoall(r, 8, load);
  EXPECT_NEAR(c.time, 1 * 2e-6 + busiest_rank_bytes(r, 8192) / 100e9, 1e-12);
  EXPECT_GT(c.time, balanced_alltoall(4096, 2, 8, load).time * 1.5);
}

TEST(MoeAllToAll, OneRankMovesNothing) {
  const Routing r = route_tokens(spec(100, 4, 2, 1, 1.0));
  EXPECT_EQ(routed_alltoall(r, 1, AllToAllLoad{8192, {100e9, 2e-6}}).time, 0);
}

TEST(MoeAllToAll, TwoLevelAllToAllReducesToOneLinkAtItsEnds) {
  const Link intra{450e9, 3e-6}, inter{50e9, 10e-6};
  const double s = 512e6;
  EXPECT_DOUBLE_EQ(alltoall_two_level(8, 8, s, intra, inter).time, alltoall(8, s, intra).time);
  EXPECT_DOUBLE_EQ(alltoall_two_level(8, 1, s, intra, inter).time, alltoall(8, s, inter).time);
  // 4 of 8 per node: 3 peers over NVLink (3/8 of S) while 4 go through the NIC (4/8 of S); the NIC part is slower.
  const CollectiveCost c = alltoall_two_level(8, 4, s, intra, inter);
  EXPECT_DOUBLE_EQ(c.time, 1 * 3e-6 + 1 * 10e-6 + std::max(3.0 / 8 * s / 450e9, 4.0 / 8 * s / 50e9));
  EXPECT_DOUBLE_EQ(c.bytes_sent_per_gpu, 7.0 / 8 * s);
}

TEST(MoeAllToAll, RanksSharingANodeSendToNodeMatesOverTheFastLink) {
  // A uniform router over 8 ranks, 4 per node: the routed time is the two-level all-to-all of each rank's share, up
  // to the router's sampling noise; all on one link it would be much slower.
  const Routing r = route_tokens(spec(1 << 16, 64, 2, 8, 0.0));
  AllToAllLoad split{8192, {50e9, 10e-6}, {450e9, 3e-6}, 4};
  const double routed = routed_alltoall(r, 8, split).time;
  const double balanced = balanced_alltoall(1 << 16, 2, 8, split).time;
  EXPECT_DOUBLE_EQ(balanced,
                   alltoall_two_level(8, 4, double(1 << 16) * 2 / 8 * 8192, {450e9, 3e-6}, {50e9, 10e-6}).time);
  EXPECT_GE(routed, balanced * 0.99);
  EXPECT_LE(routed, balanced * 1.05);
  const double one_link = routed_alltoall(r, 8, AllToAllLoad{8192, {50e9, 10e-6}}).time;
  EXPECT_LT(routed, one_link * 0.65);  // 4/8 of the bytes on the NIC instead of 7/8
  // Skew makes the hot rank's NIC the bottleneck: slower than balanced.
  const Routing hot = route_tokens(spec(1 << 16, 64, 2, 8, 1.5));
  EXPECT_GT(routed_alltoall(hot, 8, split).time, 1.3 * balanced);
}

}  // namespace
}  // namespace parascope
