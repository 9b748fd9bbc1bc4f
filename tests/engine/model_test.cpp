// Parameter counts and FLOPs per token against published figures (papers and nanoGPT).
#include "parascope/model.hpp"

#include <gtest/gtest.h>

#include "parascope/presets.hpp"

namespace parascope {
namespace {

const ModelShape& preset(const char* id) {
  const ModelShape* m = find_model(id);
  EXPECT_NE(m, nullptr) << id;
  return *m;
}

TEST(ModelParams, Gpt2SmallCountsEveryParameterLikeNanoGpt) {
  // nanoGPT (vocab 50257): 124,439,808 parameters; get_num_params() drops the 1024 x 768 position table.
  const ParamCounts p = count_params(preset("gpt2-124m"));
  EXPECT_EQ(p.total, 124'439'808.0);
  EXPECT_EQ(p.flops_params, 124'439'808.0 - 1024.0 * 768.0);
}

TEST(ModelParams, PresetsLandWithinTwoPercentOfTheirPublishedTotals) {
  for (const auto& m : model_presets()) {
    const ParamCounts p = count_params(m);
    ASSERT_GT(m.published_params, 0) << m.id;
    EXPECT_NEAR(p.total / m.published_params, 1.0, 0.02) << m.id << " counts " << p.total;
  }
}

TEST(ModelParams, MoeActiveParametersMatchThePapers) {
  // Mixtral: 12.9B active (Jiang et al. 2024, Sec. 2); DeepSeek-V3: 37B active (arXiv 2412.19437, abstract).
  EXPECT_NEAR(count_params(preset("mixtral-8x7b")).active / 12.9e9, 1.0, 0.02);
  EXPECT_NEAR(count_params(preset("deepseek-v3")).active / 37e9, 1.0, 0.03);
}

TEST(ModelFlops, FullAttentionIsSixNPlusTwelveLHQT) {
  const ModelShape& m = preset("gpt2-124m");
  const double n = count_params(m).flops_params;
  const FlopsPerToken f = flops_per_token(m, AttentionFlops::full, Recompute::none);
  EXPECT_DOUBLE_EQ(f.model, 6 * n + 12.0 * 12 * 12 * 64 * 1024);
  EXPECT_DOUBLE_EQ(f.hardware, f.model);
}

TEST(ModelFlops, CausalHalvesOnlyTheAttentionTerm) {
  const ModelShape& m = preset("llama3-8b");
  const double n = count_params(m).flops_params;
  const double full = flops_per_token(m, AttentionFlops::full, Recompute::none).model;
  const double causal = flops_per_token(m, AttentionFlops::causal, Recompute::none).model;
  EXPECT_DOUBLE_EQ(full - 6 * n, 2 * (causal - 6 * n));
}

TEST(ModelFlops, FullRecomputeAddsOneForwardPass) {
  // Narayanan et al. 2021, Eq. 3: 96·B·s·l·h² with recomputation vs 72 without: a factor of 4/3.
  const ModelShape& m = preset("gpt3-175b");
  const FlopsPerToken f = flops_per_token(m, AttentionFlops::full, Recompute::full);
  EXPECT_DOUBLE_EQ(f.hardware / f.model, 4.0 / 3.0);
}

TEST(ModelFlops, SelectiveRecomputeAddsTheAttentionCoreForward) {
  const ModelShape& m = preset("gpt3-175b");
  const FlopsPerToken none = flops_per_token(m, AttentionFlops::full, Recompute::none);
  const FlopsPerToken sel = flops_per_token(m, AttentionFlops::full, Recompute::selective);
  EXPECT_DOUBLE_EQ(sel.hardware - none.model, 4.0 * 96 * 96 * 128 * 2048);
}

}  // namespace
}  // namespace parascope
