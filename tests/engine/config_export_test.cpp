// config_export: a step request as Megatron-LM's launch arguments, each flag one that megatron/training/arguments.py
// defines at core_v0.14.0, and a note for what Megatron cannot express.
#include <gtest/gtest.h>

#include <algorithm>
#include <nlohmann/json.hpp>
#include <set>
#include <string>

#include "parascope/api.hpp"

namespace {

using nlohmann::json;

json ask(const json& request) { return json::parse(parascope::call(request.dump())); }

json exported(const json& step) { return ask({{"op", "config_export"}, {"format", "megatron"}, {"request", step}}); }

bool has_arg(const json& r, const std::string& arg) {
  for (const json& a : r["args"]) {
    if (a == arg) return true;
  }
  return false;
}

bool has_note(const json& r, const std::string& setting) {
  for (const json& n : r["notes"]) {
    if (n["setting"] == setting) return true;
  }
  return false;
}

// GPT-3 175B as Korthikanti et al. 2022 Table 5 ran it: 64 A100s, tp 8, pp 8, vpp 3, selective recompute + SP.
const json kKorthikanti = {{"op", "step"},
                           {"model", "gpt3-175b"},
                           {"hardware", "a100-80gb"},
                           {"cluster", {{"gpus", 64}}},
                           {"software", "megatron-2021"},
                           {"parallel",
                            {{"tp", 8},
                             {"pp", 8},
                             {"vpp", 3},
                             {"microbatch_size", 1},
                             {"global_batch", 64},
                             {"recompute", "selective"},
                             {"sequence_parallel", true}}}};

TEST(ConfigExport, TheMegatronArgumentsOfAPublishedRun) {
  const json r = exported(kKorthikanti);
  ASSERT_FALSE(r.contains("error")) << r.dump();
  for (const char* arg : {"--num-layers 96", "--hidden-size 12288", "--num-attention-heads 96", "--seq-length 2048",
                          "--tensor-model-parallel-size 8", "--pipeline-model-parallel-size 8",
                          "--num-virtual-stages-per-pipeline-rank 3", "--micro-batch-size 1", "--global-batch-size 64",
                          "--recompute-granularity selective", "--sequence-parallel", "--bf16"}) {
    EXPECT_TRUE(has_arg(r, arg)) << arg << " in " << r["args"].dump();
  }
  EXPECT_FALSE(has_arg(r, "--swiglu"));  // GPT-3: GELU, learned positions, tied embeddings
  EXPECT_TRUE(has_arg(r, "--position-embedding-type learned_absolute"));
  EXPECT_EQ(r["text"].get<std::string>().rfind("torchrun --nproc-per-node 8 --nnodes 8 pretrain_gpt.py", 0), 0u);
  EXPECT_TRUE(has_note(r, "software"));  // costed as Megatron-LM of 2021, not Megatron-Core
}

TEST(ConfigExport, EveryFlagIsOneMegatronDefines) {
  // Checked by hand against megatron/training/arguments.py at core_v0.14.0 (NVIDIA/Megatron-LM).
  const std::set<std::string> defined = {"--num-layers",
                                         "--hidden-size",
                                         "--ffn-hidden-size",
                                         "--num-attention-heads",
                                         "--group-query-attention",
                                         "--num-query-groups",
                                         "--kv-channels",
                                         "--seq-length",
                                         "--max-position-embeddings",
                                         "--vocab-size",
                                         "--make-vocab-size-divisible-by",
                                         "--swiglu",
                                         "--normalization",
                                         "--position-embedding-type",
                                         "--untie-embeddings-and-output-weights",
                                         "--disable-bias-linear",
                                         "--attention-dropout",
                                         "--hidden-dropout",
                                         "--num-experts",
                                         "--moe-router-topk",
                                         "--moe-ffn-hidden-size",
                                         "--moe-grouped-gemm",
                                         "--moe-shared-expert-intermediate-size",
                                         "--moe-layer-freq",
                                         "--expert-model-parallel-size",
                                         "--expert-tensor-parallel-size",
                                         "--multi-latent-attention",
                                         "--kv-lora-rank",
                                         "--q-lora-rank",
                                         "--qk-head-dim",
                                         "--qk-pos-emb-head-dim",
                                         "--v-head-dim",
                                         "--tensor-model-parallel-size",
                                         "--pipeline-model-parallel-size",
                                         "--num-virtual-stages-per-pipeline-rank",
                                         "--context-parallel-size",
                                         "--decoder-first-pipeline-num-layers",
                                         "--decoder-last-pipeline-num-layers",
                                         "--account-for-embedding-in-pipeline-split",
                                         "--account-for-loss-in-pipeline-split",
                                         "--micro-batch-size",
                                         "--global-batch-size",
                                         "--sequence-parallel",
                                         "--recompute-granularity",
                                         "--recompute-method",
                                         "--recompute-num-layers",
                                         "--use-distributed-optimizer",
                                         "--overlap-param-gather",
                                         "--use-megatron-fsdp",
                                         "--data-parallel-sharding-strategy",
                                         "--bf16",
                                         "--fp8-format",
                                         "--fp8-recipe",
                                         "--overlap-grad-reduce",
                                         "--tp-comm-overlap"};
  json deepseek = {{"op", "step"},
                   {"model", "deepseek-v3"},
                   {"hardware", "h800"},
                   {"cluster", {{"gpus", 2048}}},
                   {"precision", "fp8"},
                   {"parallel",
                    {{"pp", 16},
                     {"ep", 64},
                     {"microbatch_size", 1},
                     {"global_batch", 15360},
                     {"schedule", "dualpipe"},
                     {"zero", 1}}}};
  for (const json& step : {kKorthikanti, deepseek}) {
    const json r = exported(step);
    ASSERT_FALSE(r.contains("error")) << r.dump();
    for (const json& a : r["args"]) {
      const std::string arg = a.get<std::string>();
      EXPECT_TRUE(defined.count(arg.substr(0, arg.find(' ')))) << arg;
    }
  }
  const json r = exported(deepseek);
  EXPECT_TRUE(has_arg(r, "--multi-latent-attention"));
  EXPECT_TRUE(has_arg(r, "--num-experts 256"));
  EXPECT_TRUE(has_arg(r, "--fp8-format hybrid"));
  EXPECT_TRUE(has_note(r, "schedule"));  // DualPipe: no Megatron flag
  // The first three layers dense, the rest MoE.
  bool pattern = false;
  for (const json& a : r["args"])
    pattern = pattern || a.get<std::string>().rfind("--moe-layer-freq \"[0,0,0,1,", 0) == 0;
  EXPECT_TRUE(pattern) << r["args"].dump();
}

TEST(ConfigExport, RefusalsNameTheField) {
  json r = ask({{"op", "config_export"}, {"format", "keras"}, {"request", kKorthikanti}});
  EXPECT_EQ(r["error"]["field"], "format") << r.dump();
  r = ask({{"op", "config_export"}, {"format", "megatron"}});
  EXPECT_EQ(r["error"]["code"], "missing_field") << r.dump();
  json bad = kKorthikanti;
  bad["parallel"]["tp"] = 7;
  r = exported(bad);
  ASSERT_TRUE(r.contains("error")) << r.dump();
  EXPECT_NE(r["error"]["field"].get<std::string>().find("request."), std::string::npos) << r.dump();
}

TEST(ConfigExport, ARunStepRefusesGetsNoLaunchSettingsInAnyFormat) {
  // DualPipe at one stage: step refuses it (inconsistent, parallel.pp); an export used to write it with a note.
  const json run = {{"op", "step"},
                    {"model", "llama3-8b"},
                    {"hardware", "h100-sxm"},
                    {"cluster", {{"gpus", 16}}},
                    {"parallel", {{"tp", 2}, {"global_batch", 16}, {"schedule", "dualpipe"}}}};
  const json step = ask(run);
  ASSERT_TRUE(step.contains("error")) << step.dump();
  for (const char* format : {"megatron", "nemo", "torchtitan", "deepspeed", "nanotron"}) {
    const json r = ask({{"op", "config_export"}, {"format", format}, {"request", run}});
    ASSERT_TRUE(r.contains("error")) << format << " " << r.dump();
    EXPECT_EQ(r["error"]["code"], step["error"]["code"]) << format;
    EXPECT_EQ(r["error"]["message"], step["error"]["message"]) << format;
    EXPECT_EQ(r["error"]["field"], "request." + step["error"]["field"].get<std::string>()) << format;
  }
}

}  // namespace
