// torchtitan's per-op recomputation (recompute "op"): what a block keeps, the FLOPs and time it re-runs, and where
// the engine refuses it, each against its closed form from torchtitan's `_save_list` policy.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <string>

#include "parascope/api.hpp"

namespace {

using nlohmann::json;

json ask(const json& request) { return json::parse(parascope::call(request.dump())); }

/// Llama 3 8B on one H100, one microbatch of 8,192 tokens, FSDP-free: the plainest run with the op policy.
json llama_step(const std::string& recompute, int tp = 1, bool sequence_parallel = false) {
  return {{"op", "step"},
          {"model", "llama3-8b"},
          {"hardware", "h100-sxm"},
          {"cluster", {{"gpus", tp}}},
          {"software", "pytorch"},
          {"parallel",
           {{"tp", tp},
            {"microbatch_size", 1},
            {"global_batch", 1},
            {"recompute", recompute},
            {"sequence_parallel", sequence_parallel}}}};
}

// Llama 3 8B: h 4096, 32 heads × 128 (q 4096), 8 KV heads (kv 1024), SwiGLU ffn 14336, 32 layers.
constexpr double kH = 4096, kQ = 4096, kKv = 1024, kF = 14336, kLayers = 32, kTokens = 8192;

TEST(RecomputeOp, ABlockKeepsItsInputAndTheSavedMatmulAndAttentionOutputs) {
  // Per token: the block's input 2h; wq 2q, wv 2kv, the attention's output 2q, w1 2f, w2 2h (torchtitan's
  // every-second-mm rule over wq wk wv wo w1 w3 w2). One microbatch in flight on one stage: every layer's saved
  // bytes, plus one layer rebuilt in the backward (the activations count both).
  const json none = ask(llama_step("none"));
  const json op = ask(llama_step("op"));
  ASSERT_FALSE(op.contains("error")) << op.dump();
  const double saved = kTokens * (2 * kH + 2 * (2 * kQ + kKv + kF) + 2 * kH);
  const double rebuilt = none["memory_per_gpu"]["activations"].get<double>() / kLayers;  // one whole layer
  EXPECT_NEAR(op["memory_per_gpu"]["activations"].get<double>(), kLayers * saved + rebuilt, 1e-6 * kLayers * saved);
}

TEST(RecomputeOp, WithSequenceParallelismTheInputIsSplitAndTheReduceScattersKept) {
  const json op = ask(llama_step("op", 8, true));
  ASSERT_FALSE(op.contains("error")) << op.dump();
  const json none = ask(llama_step("none", 8, true));
  const double tp = 8;
  // Input 2h/tp, the split outputs 2(2q + kv + f)/tp, w2's row-parallel output whole (2h), two reduce-scatters 4h/tp.
  const double saved = kTokens * (2 * kH / tp + 2 * (2 * kQ + kKv + kF) / tp + 2 * kH + 4 * kH / tp);
  const double rebuilt = none["memory_per_gpu"]["activations"].get<double>() / kLayers;
  EXPECT_NEAR(op["memory_per_gpu"]["activations"].get<double>(), kLayers * saved + rebuilt, 1e-6 * kLayers * saved);
}

TEST(RecomputeOp, HardwareFlopsAddTheRecomputedMatmulsForward) {
  const json op = ask(llama_step("op"));
  const json none = ask(llama_step("none"));
  // wk (h·kv), wo (q·h) and w3 (h·f) again, 2 FLOPs per weight per token, per layer.
  const double extra = 2 * kLayers * (kH * kKv + kQ * kH + kH * kF);
  EXPECT_DOUBLE_EQ(op["flops_per_token"].get<double>(), none["flops_per_token"].get<double>());
  EXPECT_NEAR(op["hardware_flops_per_token"].get<double>() - none["hardware_flops_per_token"].get<double>(), extra,
              1e-9 * extra);
}

TEST(RecomputeOp, CostsMoreTimeThanNoneAndLessThanFullAndSitsBetweenInMemory) {
  const json none = ask(llama_step("none", 8, true));
  const json op = ask(llama_step("op", 8, true));
  const json full = ask(llama_step("full", 8, true));
  EXPECT_GT(op["step_time"].get<double>(), none["step_time"].get<double>());
  EXPECT_LT(op["step_time"].get<double>(), full["step_time"].get<double>());
  EXPECT_LT(op["memory_per_gpu"]["activations"].get<double>(), none["memory_per_gpu"]["activations"].get<double>());
  EXPECT_GT(op["memory_per_gpu"]["activations"].get<double>(), full["memory_per_gpu"]["activations"].get<double>());
}

TEST(RecomputeOp, RefusedForMixtureOfExpertsModelsAndUnfusedAttention) {
  json moe = llama_step("op");
  moe["model"] = "mixtral-8x7b";
  moe["cluster"]["gpus"] = 8;
  moe["parallel"]["ep"] = 8;
  moe["parallel"]["global_batch"] = 8;
  json r = ask(moe);
  ASSERT_TRUE(r.contains("error")) << r.dump();
  EXPECT_EQ(r["error"]["code"], "inconsistent");
  EXPECT_EQ(r["error"]["field"], "parallel.recompute");

  json unfused = llama_step("op");
  unfused["efficiency"] = {{"flash_attention", false}};
  r = ask(unfused);
  ASSERT_TRUE(r.contains("error")) << r.dump();
  EXPECT_EQ(r["error"]["field"], "efficiency.flash_attention");

  const json plan = ask({{"op", "plan"},
                         {"model", "mixtral-8x7b"},
                         {"hardware", "h100-sxm"},
                         {"cluster", {{"gpus", 8}}},
                         {"global_batch", 64},
                         {"recompute", {"none", "op"}}});
  ASSERT_TRUE(plan.contains("error")) << plan.dump();
  EXPECT_EQ(plan["error"]["field"], "recompute[1]");
}

TEST(RecomputeOp, ThePlannerSearchesItOnlyWhenAsked) {
  json plan = {{"op", "plan"},       {"model", "llama3-8b"}, {"hardware", "h100-sxm"}, {"cluster", {{"gpus", 8}}},
               {"global_batch", 64}, {"software", "pytorch"}};
  const json by_default = ask(plan);
  ASSERT_FALSE(by_default.contains("error")) << by_default.dump();
  for (const json& c : by_default["results"]) EXPECT_NE(c["parallel"]["recompute"], "op");
  plan["recompute"] = {"op"};
  const json asked = ask(plan);
  ASSERT_FALSE(asked.contains("error")) << asked.dump();
  ASSERT_FALSE(asked["results"].empty());
  for (const json& c : asked["results"]) EXPECT_EQ(c["parallel"]["recompute"], "op");
}

}  // namespace
