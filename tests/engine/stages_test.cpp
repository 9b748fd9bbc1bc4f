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

/// nanotron's cost weights for a Llama shape (models/llama.py get_block_compute_costs at 2411b02), in layers.
double llama_head_weight(double hidden, double heads, double ffn, double vocab) {
  return vocab * hidden / (4 * heads * (hidden / heads) * hidden + 3 * ffn * hidden);
}

TEST(Stages, NanotronWeighsItsLmHeadAgainstItsLayers) {
  parascope::ModelShape m;
  m.layers = 32, m.hidden = 4096, m.heads = 32, m.kv_heads = 8, m.ffn = 14336, m.vocab = 128256;  // Llama 3 8B
  // 128256 / (4·4096 + 3·14336) = 2.159...: the LM head weighs about two of Llama 3 8B's layers.
  EXPECT_DOUBLE_EQ(parascope::output_layer_weight("nanotron", m), llama_head_weight(4096, 32, 14336, 128256));
  EXPECT_NEAR(parascope::output_layer_weight("nanotron", m), 2.1595, 1e-4);
  EXPECT_EQ(parascope::output_layer_weight("pytorch", m), 0.0);  // every other stack: the count rule
}

TEST(Stages, NanotronSharesLayersAndHeadByCost) {
  // Llama 3 8B over 4 stages: total 32 + 2.1595 = 34.16, thresholds 8.54, 17.08, 25.62, 34.16. Each stage keeps the
  // layer that crosses its threshold: layers 1-9, 10-18, 19-26, then 27-32 with the head.
  ParallelConfig p = split(4, 1);
  p.output_layer_weight = llama_head_weight(4096, 32, 14336, 128256);
  EXPECT_EQ(parascope::stage_layer_counts(32, p), (std::vector<std::int64_t>{9, 9, 8, 6}));
  // A 1B Llama (16 layers of h 2048, ffn 8192, vocab 128256): the head weighs 3.91 layers; thresholds 4.98, 9.96,
  // 14.94: 5, 5, 5, and the last stage one layer beside the head.
  p.output_layer_weight = llama_head_weight(2048, 32, 8192, 128256);
  EXPECT_EQ(parascope::stage_layer_counts(16, p), (std::vector<std::int64_t>{5, 5, 5, 1}));
  // Over 8 stages the thresholds (2.49, 4.98, ...) run out of layers before the last stage: nanotron would put the
  // head on stage 6 and only the loss on stage 7, which the engine cannot lay out; it keeps the count-balanced rule.
  ParallelConfig eight = split(8, 1);
  eight.output_layer_weight = p.output_layer_weight;
  EXPECT_EQ(parascope::stage_layer_counts(16, eight), parascope::stage_layer_counts(16, split(8, 1)));
}

TEST(Stages, TheNanotronStackSplitsItsPipelineByCostUnlessTheRequestSplitsIt) {
  const json llama = {{"layers", 32}, {"hidden", 4096},  {"heads", 32}, {"kv_heads", 8},
                      {"ffn", 14336}, {"vocab", 128256}, {"seq", 4096}, {"activation", "swiglu"}};
  auto ask = [&](const char* software, json parallel) {
    return step_request::ask({{"op", "step"},
                              {"model", llama},
                              {"hardware", "h100-sxm"},
                              {"cluster", {{"gpus", 8}}},
                              {"software", software},
                              {"parallel", parallel}});
  };
  const json split4 = {{"pp", 4}, {"dp", 2}, {"global_batch", 32}, {"zero", 1}};
  const json nanotron = ask("nanotron", split4), pytorch = ask("pytorch", split4);
  EXPECT_EQ(nanotron["parallel"]["stage_layers"], json({9, 9, 8, 6}));
  EXPECT_EQ(pytorch["parallel"]["stage_layers"], json({8, 8, 8, 8}));
  // The head on a stage of 8 layers paces the count-balanced pipeline; by cost the slowest stage is lighter.
  EXPECT_LT(
      nanotron["pipeline_makespan"].get<double>(),
      ask("nanotron",
          {{"pp", 4}, {"dp", 2}, {"global_batch", 32}, {"zero", 1}, {"last_stage_layers", 8}})["pipeline_makespan"]
          .get<double>());
  json given = split4;
  given["first_stage_layers"] = 7;
  EXPECT_EQ(ask("nanotron", given)["parallel"]["stage_layers"], json({7, 9, 8, 8}));
}

}  // namespace
