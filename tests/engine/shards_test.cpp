// Shards and groups: each GPU's heads, layers and experts, and the GPUs that talk on each axis.
#include "parascope/shards.hpp"

#include <gtest/gtest.h>

namespace parascope {
namespace {

TrainingRun run16() {
  TrainingRun run;
  run.model.layers = 32, run.model.heads = 32, run.model.experts = 8, run.model.top_k = 2;
  run.cluster.gpus = 16, run.cluster.gpus_per_node = 8;
  run.cluster.intra_link = "NVLink", run.cluster.inter_link = "IB";
  run.parallel.tp = 2, run.parallel.pp = 2, run.parallel.dp = 4, run.parallel.ep = 4;
  return run;
}

TEST(Shards, ARankHoldsItsSliceOfHeadsLayersAndExperts) {
  // rank 11 = tp 1, dp 1, pp 1 (rank order tp < cp < dp < pp): heads 16-31, layers 16-31, ep_rank 1 -> experts 2-3.
  const Shard s = shard_of(run16(), 11);
  EXPECT_EQ(s.coords.tp_rank, 1);
  EXPECT_EQ(s.coords.pp_rank, 1);
  EXPECT_EQ(s.heads.first, 16);
  EXPECT_EQ(s.heads.end, 32);
  ASSERT_EQ(s.layers.size(), 1u);
  EXPECT_EQ(s.layers[0].first, 16);
  EXPECT_EQ(s.layers[0].end, 32);
  EXPECT_EQ(s.experts.first, 2);
  EXPECT_EQ(s.experts.end, 4);
}

TEST(Shards, InterleavedStagesHoldEveryPpthSliceOfLayers) {
  // pp 2, vpp 2, 32 layers: stage 1 holds slices 1 and 3 of 4 -> layers 8-15 and 24-31 (Narayanan et al. 2021
  // Sec. 2.2).
  TrainingRun run = run16();
  run.parallel.vpp = 2;
  const Shard s = shard_of(run, 8);
  ASSERT_EQ(s.layers.size(), 2u);
  EXPECT_EQ(s.layers[0].first, 8);
  EXPECT_EQ(s.layers[1].first, 24);
  EXPECT_EQ(s.layers[1].end, 32);
}

TEST(Shards, GroupsFollowTheRankOrder) {
  const TrainingRun run = run16();
  using G = std::vector<std::vector<std::int64_t>>;
  EXPECT_EQ(groups_among(run, Axis::tensor, 4), (G{{0, 1}, {2, 3}}));
  EXPECT_EQ(groups_among(run, Axis::data, 16)[0], (std::vector<std::int64_t>{0, 2, 4, 6}));
  EXPECT_EQ(groups_among(run, Axis::pipeline, 16)[0], (std::vector<std::int64_t>{0, 8}));
  EXPECT_EQ(groups_among(run, Axis::expert, 16)[1], (std::vector<std::int64_t>{1, 3, 5, 7}));
}

TEST(Shards, GroupsCutByTheDrawnLimitKeepTheirDrawnMembersAndLoneOnesAreLeftOut) {
  const TrainingRun run = run16();
  using G = std::vector<std::vector<std::int64_t>>;
  EXPECT_EQ(groups_among(run, Axis::data, 5), (G{{0, 2, 4}, {1, 3}}));
  EXPECT_EQ(groups_among(run, Axis::data, 4), (G{{0, 2}, {1, 3}}));
  EXPECT_TRUE(groups_among(run, Axis::pipeline, 8).empty());
}

}  // namespace
}  // namespace parascope
