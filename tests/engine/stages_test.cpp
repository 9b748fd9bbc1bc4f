// Uneven pipeline stages: which layers each stage and chunk holds, and what the step charges for them.
#include "parascope/stages.hpp"

#include <gtest/gtest.h>

#include <vector>

#include "step_request.hpp"

namespace {

using nlohmann::json;
using parascope::ParallelConfig;
using step_request::step;

ParallelConfig split(std::int64_t pp, std::int64_t vpp, std::int64_t first = 0, std::int64_t last = 0) {
  ParallelConfig p;
  p.pp = pp;
  p.vpp = vpp;
  p.first_stage_layers = first;
  p.last_stage_layers = last;
  return p;
}

TEST(Stages, Llama3s126LayersOver16StagesLeaveTheEndsOneLayerShort) {
  // ⌊126/16⌋ = 7 with 14 stages one heavier; the lighter two are the last and the first (Dubey et al. 2024 Sec. 3.3.2).
  std::vector<std::int64_t> expected(16, 8);
  expected.front() = expected.back() = 7;
  EXPECT_EQ(parascope::stage_layer_counts(126, split(16, 7)), expected);
}

TEST(Stages, FirstAndLastStageCountsLeaveTheRestToTheMiddleEndsFirst) {
  // 12 layers, pp 4, first 1, last 2: 9 over stages 1 and 2, ⌊9/2⌋ = 4, the heavier one the later in "ends first"
  // order (last, first, pp−2, 1): stage 1.
  EXPECT_EQ(parascope::stage_layer_counts(12, split(4, 1, 1, 2)), (std::vector<std::int64_t>{1, 5, 4, 2}));
  EXPECT_EQ(parascope::stage_layer_counts(12, split(4, 1, 3)), (std::vector<std::int64_t>{3, 3, 3, 3}));
}

TEST(Stages, ChunksTakeTheLayersInVirtualStageOrder) {
  // 10 layers, pp 2, vpp 2: 5 per stage, chunks ⌊(c+1)·5/2⌋ − ⌊c·5/2⌋ = 2, 3; order (c0 s0) (c0 s1) (c1 s0) (c1 s1).
  const auto chunks = parascope::stage_chunks(10, split(2, 2));
  EXPECT_EQ(chunks[0][0].first, 0);
  EXPECT_EQ(chunks[0][0].end, 2);
  EXPECT_EQ(chunks[1][0].first, 2);
  EXPECT_EQ(chunks[1][0].end, 4);
  EXPECT_EQ(chunks[0][1].first, 4);
  EXPECT_EQ(chunks[0][1].end, 7);
  EXPECT_EQ(chunks[1][1].first, 7);
  EXPECT_EQ(chunks[1][1].end, 10);
}

// Uniform layers, no logits (a 1-token vocabulary) and free links: the step's schedule is the stages' work alone.
const json kHardware = {{"peak_flops", 1e14},      {"memory_bandwidth", 1e12}, {"intra_bandwidth", 1e15},
                        {"inter_bandwidth", 1e15}, {"intra_latency", 0},       {"inter_latency", 0}};
json model(int layers) { return {{"layers", layers}, {"hidden", 1024}, {"heads", 16}, {"vocab", 1}, {"seq", 1024}}; }

TEST(Stages, TheSlowestStageSetsThePaceFromItsRealLayers) {
  // 12 layers split 1, 5, 4, 2 run at the pace of 5 layers a stage: the same schedule as 17 layers split 5, 5, 5, 2
  // (the last stage, with the output layer, is the lighter one in both).
  json uneven = step(model(12), kHardware, {{"gpus", 4}},
                     {{"pp", 4}, {"global_batch", 8}, {"first_stage_layers", 1}, {"last_stage_layers", 2}});
  json even = step(model(17), kHardware, {{"gpus", 4}},
                   {{"pp", 4}, {"global_batch", 8}, {"first_stage_layers", 5}, {"last_stage_layers", 2}});
  EXPECT_EQ(even["parallel"]["stage_layers"], json({5, 5, 5, 2}));
  EXPECT_DOUBLE_EQ(uneven["pipeline_makespan"].get<double>(), even["pipeline_makespan"].get<double>());
  EXPECT_EQ(uneven["parallel"]["stage_layers"], json({1, 5, 4, 2}));
}

TEST(Stages, MemoryCountsTheStagesRealLayersNotTheChunkCeiling) {
  // 10 layers over pp 2 × vpp 4: 5 layers a stage. The old rule charged ⌈10/8⌉ = 2 layers to each of 4 chunks (8).
  // Weights: 5 layers of 4h² + 8h² + 2h (h = 1024) and one table row (h), bf16; the first stage has no final norm.
  json r = step(model(10), kHardware, {{"gpus", 2}}, {{"pp", 2}, {"vpp", 4}, {"global_batch", 8}});
  const double h = 1024, layer = 12 * h * h + 2 * h;
  const double first = 2.0 * (5 * layer + h), last = 2.0 * (5 * layer + h + h);
  const double weights = r["memory_per_gpu"]["weights"].get<double>();
  EXPECT_TRUE(weights == first || weights == last) << weights;
}

TEST(Stages, BadStageCountsAreRefusedNamingTheField) {
  const json hw = "h100-sxm";
  auto field = [&](json parallel) { return step_request::refused_field(model(12), hw, {{"gpus", 4}}, parallel); };
  EXPECT_EQ(field({{"pp", 1}, {"global_batch", 8}, {"first_stage_layers", 2}}), "parallel.first_stage_layers");
  EXPECT_EQ(field({{"pp", 2}, {"global_batch", 8}, {"first_stage_layers", 5}, {"last_stage_layers", 5}}),
            "parallel.last_stage_layers");  // pp 2: they must add up to the 12 layers
  EXPECT_EQ(field({{"pp", 4}, {"vpp", 2}, {"global_batch", 8}, {"first_stage_layers", 1}}),
            "parallel.first_stage_layers");  // one layer cannot fill two chunks
  EXPECT_EQ(field({{"pp", 4}, {"global_batch", 8}, {"first_stage_layers", 6}, {"last_stage_layers", 5}}),
            "parallel.last_stage_layers");  // 1 layer left for 2 stages
  EXPECT_EQ(field({{"pp", 4}, {"global_batch", 8}, {"first_stage_layers", 0}}), "parallel.first_stage_layers");
}

}  // namespace
