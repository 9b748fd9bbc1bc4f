// MFU against the published numbers it must reproduce: PaLM's 46.2 % and nanoGPT's estimate_mfu.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "parascope/api.hpp"

namespace {

using nlohmann::json;

json mfu(json request) {
  request["op"] = "mfu";
  json r = json::parse(parascope::call(request.dump()));
  EXPECT_FALSE(r.contains("error")) << r.dump();
  return r;
}

TEST(Mfu, PalmAt238300TokensPerSecondOn6144TpuV4IsTheirFortySixPointTwoPercent) {
  // Chowdhery et al. 2022, Table 3 / App. B: 238.3K tokens/s, 6144 TPU v4 chips, 46.2 % MFU.
  json r = mfu({{"model", "palm-540b"}, {"hardware", "tpu-v4"}, {"gpus", 6144}, {"tokens_per_second", 238300}});
  EXPECT_NEAR(r["mfu"].get<double>(), 0.462, 0.0005);
}

TEST(Mfu, MatchesNanoGptEstimateMfuForGpt2Small) {
  // nanoGPT model.py estimate_mfu: N = get_num_params() (no position table), L, H, Q, T = 12, 12, 64, 1024,
  // flops_per_token = 6N + 12LHQT, promised 312e12 (A100 bf16). 123,653,376 is nanoGPT's N for vocab 50257.
  const double n = 123'653'376.0;
  const double flops_per_token = 6 * n + 12.0 * 12 * 12 * 64 * 1024;
  const double tokens_per_second = 12 * 1024 * 5 / 0.35;  // batch 12 x 1024 tokens x 5 micro-steps in 350 ms
  json r =
      mfu({{"model", "gpt2-124m"}, {"hardware", "a100-40gb"}, {"gpus", 1}, {"tokens_per_second", tokens_per_second}});
  EXPECT_DOUBLE_EQ(r["params"].get<double>(), n);
  EXPECT_DOUBLE_EQ(r["flops_per_token"].get<double>(), flops_per_token);
  EXPECT_DOUBLE_EQ(r["mfu"].get<double>(), flops_per_token * tokens_per_second / 312e12);
}

TEST(Mfu, StepTimeAndTokensPerStepGiveTheSameAnswerAsTokensPerSecond) {
  json a = mfu({{"model", "llama3-8b"}, {"hardware", "h100-sxm"}, {"gpus", 8}, {"tokens_per_second", 4e5}});
  json b = mfu(
      {{"model", "llama3-8b"}, {"hardware", "h100-sxm"}, {"gpus", 8}, {"step_time", 2.0}, {"tokens_per_step", 8e5}});
  EXPECT_DOUBLE_EQ(a["mfu"].get<double>(), b["mfu"].get<double>());
}

TEST(Mfu, HfuCountsRecomputationAndMfuDoesNot) {
  json none = mfu({{"model", "gpt3-175b"}, {"hardware", "a100-80gb"}, {"gpus", 1024}, {"tokens_per_second", 1.5e5}});
  json full = mfu({{"model", "gpt3-175b"},
                   {"hardware", "a100-80gb"},
                   {"gpus", 1024},
                   {"tokens_per_second", 1.5e5},
                   {"recompute", "full"}});
  EXPECT_DOUBLE_EQ(none["mfu"].get<double>(), full["mfu"].get<double>());
  EXPECT_DOUBLE_EQ(none["hfu"].get<double>(), none["mfu"].get<double>());
  EXPECT_NEAR(full["hfu"].get<double>() / full["mfu"].get<double>(), 4.0 / 3.0, 1e-12);
}

TEST(Mfu, TheFormulaNamesItsConvention) {
  json r = mfu({{"model", "gpt2-124m"},
                {"hardware", "a100-40gb"},
                {"gpus", 1},
                {"tokens_per_second", 1e5},
                {"attention", "causal"}});
  EXPECT_NE(r["formula"].get<std::string>().find("causal"), std::string::npos);
}

}  // namespace
