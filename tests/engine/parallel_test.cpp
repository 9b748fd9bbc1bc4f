// Rank placement: which parallel groups stay inside a node (NVLink) and which cross the network.
#include "parascope/parallel.hpp"

#include <gtest/gtest.h>

namespace parascope {
namespace {

Cluster dgx(std::int64_t gpus) {
  Cluster c;
  c.gpus = gpus;
  c.gpus_per_node = 8;
  c.intra_bandwidth = 300e9;
  c.inter_bandwidth = 25e9;
  c.intra_link = "NVLink";
  c.inter_link = "IB";
  return c;
}

TEST(Placement, TensorParallelOfEightFillsOneDgxNodeAndRidesNvlink) {
  ParallelConfig p;
  p.tp = 8, p.pp = 8, p.dp = 2;
  GroupPlacement g = place_group(dgx(128), p, Axis::tensor);
  EXPECT_FALSE(g.crosses_nodes);
  EXPECT_EQ(g.link, "NVLink");
  EXPECT_EQ(g.members_per_node, 8);
}

TEST(Placement, DataAndPipelineGroupsCrossNodesWhenTensorParallelFillsTheNode) {
  ParallelConfig p;
  p.tp = 8, p.pp = 8, p.dp = 2;
  for (Axis axis : {Axis::data, Axis::pipeline}) {
    GroupPlacement g = place_group(dgx(128), p, axis);
    EXPECT_TRUE(g.crosses_nodes) << axis_name(axis);
    EXPECT_EQ(g.bandwidth, 25e9);
    EXPECT_EQ(g.members_per_node, 1);
  }
}

TEST(Placement, SmallDataParallelGroupsStayInsideANode) {
  ParallelConfig p;
  p.tp = 2, p.dp = 4;
  GroupPlacement g = place_group(dgx(8), p, Axis::data);
  EXPECT_EQ(g.stride, 2);
  EXPECT_FALSE(g.crosses_nodes);
}

TEST(Placement, AGroupThatDoesNotTileTheNodeStraddlesTwoNodes) {
  ParallelConfig p;
  p.tp = 3, p.dp = 8;  // tp groups {0,1,2} {3,4,5} {6,7,8}: the third straddles nodes 0 and 1
  EXPECT_TRUE(place_group(dgx(24), p, Axis::tensor).crosses_nodes);
}

TEST(Placement, AGroupOfOneNeverCrosses) {
  ParallelConfig p;
  p.dp = 64;
  EXPECT_FALSE(place_group(dgx(64), p, Axis::tensor).crosses_nodes);
  EXPECT_TRUE(place_group(dgx(64), p, Axis::data).crosses_nodes);
}

}  // namespace
}  // namespace parascope

namespace parascope {
namespace {

TEST(RankCoords, TensorVariesFastestThenContextThenDataThenPipeline) {
  Cluster c;
  c.gpus = 32;
  c.gpus_per_node = 8;
  ParallelConfig p;
  p.tp = 2, p.cp = 2, p.dp = 4, p.pp = 2, p.ep = 2;
  RankCoords r = rank_coords(c, p, 13);  // 13 = 1 + 2·0 + 4·3 + 16·0
  EXPECT_EQ(r.tp_rank, 1);
  EXPECT_EQ(r.cp_rank, 0);
  EXPECT_EQ(r.dp_rank, 3);
  EXPECT_EQ(r.pp_rank, 0);
  EXPECT_EQ(r.node, 1);
  EXPECT_EQ(r.ep_rank, (3 * 2 + 0) % 2);
  EXPECT_EQ(rank_coords(c, p, 31).pp_rank, 1);
}

}  // namespace
}  // namespace parascope
