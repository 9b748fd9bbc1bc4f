// The step cost model: its parts add up, its pipeline and memory agree with the closed forms, bad splits are refused.
#include <gtest/gtest.h>

#include <cmath>
#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "parascope/api.hpp"

namespace {

using nlohmann::json;

json ask(const json& request) { return json::parse(parascope::call(request.dump())); }

json step(json parallel, json model = "gpt3-175b", json hardware = "a100-80gb", std::int64_t gpus = 64,
          json efficiency = json::object()) {
  json r = ask({{"op", "step"},
                {"model", model},
                {"hardware", hardware},
                {"cluster", {{"gpus", gpus}}},
                {"parallel", parallel},
                {"efficiency", efficiency}});
  EXPECT_FALSE(r.contains("error")) << r.dump();
  return r;
}

double sum_of(const json& breakdown) {
  double s = 0;
  for (const auto& [k, v] : breakdown.items()) s += v.get<double>();
  return s;
}

TEST(Step, TheBreakdownAddsUpToTheStepTimeForEverySplit) {
  const std::vector<json> cases = {
      step({{"tp", 8}, {"pp", 8}, {"global_batch", 64}}),
      step({{"tp", 8},
            {"pp", 4},
            {"vpp", 3},
            {"global_batch", 128},
            {"recompute", "selective"},
            {"sequence_parallel", true}}),
      step({{"tp", 4}, {"pp", 1}, {"global_batch", 256}, {"zero", 3}}, "llama3-8b", "h100-sxm", 64),
      step({{"tp", 2}, {"ep", 8}, {"global_batch", 64}, {"zero", 1}}, "mixtral-8x7b", "h100-sxm", 64),
      step({{"tp", 8}, {"cp", 2}, {"pp", 2}, {"global_batch", 32}}, "llama3-70b", "h100-sxm", 64),
      step({{"tp", 1}, {"pp", 4}, {"global_batch", 64}, {"schedule", "zb-h1"}}, "gpt2-124m", "a100-40gb", 16),
  };
  for (const json& r : cases) {
    EXPECT_NEAR(sum_of(r["breakdown"]), r["step_time"].get<double>(), 1e-9 * r["step_time"].get<double>());
    const json& c = r["compute_split"];
    EXPECT_NEAR(c["useful_at_peak"].get<double>() + c["recompute_at_peak"].get<double>() +
                    c["kernel_inefficiency"].get<double>(),
                r["breakdown"]["compute"].get<double>(), 1e-9);
    EXPECT_NEAR(c["useful_at_peak"].get<double>() / r["step_time"].get<double>(), r["mfu"].get<double>(), 1e-12);
  }
}

TEST(Step, WithoutCommunicationOrLogitsTheBubbleIsTheOneF1BClosedForm) {
  // Narayanan et al. 2021, Sec. 2.2: 1F1B's bubble is (p−1)/(m+p−1) of the schedule with uniform stages. A model with
  // a one-token vocabulary has no logits to unbalance the last stage; infinitely fast links remove the sends.
  const json model = {{"layers", 16}, {"hidden", 1024}, {"heads", 16}, {"vocab", 1}, {"seq", 1024}};
  const json hw = {
      {"peak_flops", 1e14}, {"memory_bandwidth", 1e12}, {"intra_bandwidth", 1e15}, {"inter_bandwidth", 1e15}};
  for (int pp : {2, 4, 8}) {
    for (int m : {1, 4, 16}) {
      json r = step({{"pp", pp}, {"global_batch", m}}, model, hw, pp);
      // The schedule without sends = each stage's busy time + the bubble; busy = every per-stage part of the step.
      const json& b = r["breakdown"];
      double busy = 0;
      for (const char* part : {"compute", "memory_bound", "tp_comm", "cp_comm", "ep_comm", "other"})
        busy += b[part].get<double>();
      const double bubble = b["bubble"].get<double>() / (b["bubble"].get<double>() + busy);
      EXPECT_NEAR(bubble, double(pp - 1) / double(m + pp - 1), 1e-12) << "p=" << pp << " m=" << m;
    }
  }
}

TEST(Step, MoreMicrobatchesShrinkTheBubble) {
  double last = 1e9;
  for (int gbs : {8, 32, 128}) {
    json r = step({{"tp", 8}, {"pp", 8}, {"global_batch", gbs}});
    const double share = r["breakdown"]["bubble"].get<double>() / r["step_time"].get<double>();
    EXPECT_LT(share, last);
    last = share;
  }
}

// One stage never waits: the MFU figure's GPT-3 preset with its pp slider at 1 (interleaved, vpp 3 kept) and tp 16
// reported a bubble of 2.8e-14 s, the rounding of two sums, and the figure called the step "waiting".
TEST(Step, OneStageHasExactlyNoBubbleAndNoSends) {
  for (const char* schedule : {"interleaved", "1f1b", "gpipe", "zb-h1"}) {
    const json r = json::parse(parascope::call(json{
        {"op", "step"},
        {"model", "gpt3-175b"},
        {"hardware", "a100-80gb"},
        {"cluster", {{"gpus", 64}, {"gpus_per_node", 8}}},
        {"software", "megatron-2021"},
        {"parallel",
         {{"tp", 16},
          {"pp", 1},
          {"vpp", std::string(schedule) == "interleaved" ? 3 : 1},
          {"schedule", schedule},
          {"microbatch_size", 1},
          {"global_batch", 64},
          {"recompute", "selective"},
          {"sequence_parallel", true}}}}.dump()));
    ASSERT_FALSE(r.contains("error")) << schedule << ": " << r.dump();
    EXPECT_EQ(r["breakdown"]["bubble"].get<double>(), 0.0) << schedule;
    EXPECT_EQ(r["breakdown"]["pp_comm"].get<double>(), 0.0) << schedule;
  }
}

TEST(Step, ActivationsMatchKorthikantiForSequenceParallelSelectiveRecompute) {
  // Korthikanti et al. 2022, Table 2: 34·s·b·h/t bytes per layer with TP + SP + selective recomputation; 1F1B's first
  // stage holds p microbatches of L/p layers, i.e. L layers' worth (Sec. 4.3).
  json r = step({{"tp", 8}, {"pp", 8}, {"global_batch", 64}, {"recompute", "selective"}, {"sequence_parallel", true}},
                "gpt3-175b", "a100-80gb", 64, {{"flash_attention", false}});
  const double s = 2048, b = 1, h = 12288, t = 8, L = 96;
  EXPECT_DOUBLE_EQ(r["memory_per_gpu"]["activations"].get<double>(), 34.0 * s * b * h / t * L);
}

TEST(Step, ZeroStagesShardOptimizerThenGradientsThenWeights) {
  auto mem = [&](int zero) {
    return step({{"tp", 1}, {"global_batch", 64}, {"zero", zero}}, "llama3-8b", "h100-sxm", 64)["memory_per_gpu"];
  };
  json z0 = mem(0), z1 = mem(1), z2 = mem(2), z3 = mem(3);
  // Rajbhandari et al. 2020, Fig. 1: 2Ψ + 2Ψ + KΨ, then sharding the optimizer (Pos), gradients (Pos+g), weights
  // (Pos+g+p).
  EXPECT_DOUBLE_EQ(z1["optimizer_states"].get<double>(), z0["optimizer_states"].get<double>() / 64);
  EXPECT_DOUBLE_EQ(z1["gradients"].get<double>(), z0["gradients"].get<double>());
  EXPECT_DOUBLE_EQ(z2["gradients"].get<double>(), z0["gradients"].get<double>() / 64);
  // FSDP with resharding (pp = 1: PyTorch's default) also holds two layers gathered in bf16: the one computing and
  // the one prefetched (Zhao et al. 2023, forward and backward prefetching); an average layer here, the embeddings
  // spread over the 32.
  EXPECT_DOUBLE_EQ(z3["weights"].get<double>(),
                   z0["weights"].get<double>() / 64 + 2.0 * z0["weights"].get<double>() / 32);
  EXPECT_DOUBLE_EQ(z0["weights"].get<double>(), 2.0 * 8030261248.0);
}

TEST(Step, DualPipeHoldsTwoCopiesOfEachStagesParameters) {
  // DeepSeek-V3 report, Table 2: DualPipe's parameter memory is 2× that of 1F1B.
  auto weights = [&](const char* schedule) {
    json r = step({{"tp", 8}, {"pp", 8}, {"global_batch", 64}, {"schedule", schedule}}, "gpt3-175b", "a100-80gb", 64,
                  {{"flash_attention", false}});
    return r["memory_per_gpu"]["weights"].get<double>();
  };
  // Not doubled: the stage's embedding shard and, on the last stage, the final LayerNorm (weight + bias), 2 bytes
  // each. The most loaded stage under 1F1B is the first (p microbatches in flight); under DualPipe every stage holds
  // p + 1, so the last one, with its logits, is.
  const double table = 50257.0 * 12288 / 8 * 2, final_norm = 2.0 * 12288 * 2;
  EXPECT_DOUBLE_EQ(weights("dualpipe") - table - final_norm, 2.0 * (weights("1f1b") - table));
}

TEST(Step, A405BModelOnOneNodeDoesNotFit) {
  json r = step({{"tp", 8}, {"global_batch", 8}}, "llama3-405b", "h100-sxm", 8);
  EXPECT_FALSE(r["fits"].get<bool>());
  EXPECT_GT(r["memory_per_gpu"]["total"].get<double>(), r["memory_capacity"].get<double>());
}

TEST(Step, TheDashboardCountsTheBubbleAsBusyUnlessNoKernelWaitsInIt) {
  json busy = step({{"tp", 8}, {"pp", 8}, {"global_batch", 16}});
  EXPECT_DOUBLE_EQ(busy["dashboard_utilization"].get<double>(), 1.0);
  json idle = step({{"tp", 8}, {"pp", 8}, {"global_batch", 16}}, "gpt3-175b", "a100-80gb", 64,
                   {{"bubble_kernel_resident", false}});
  EXPECT_NEAR(idle["dashboard_utilization"].get<double>(),
              1.0 - idle["breakdown"]["bubble"].get<double>() / idle["step_time"].get<double>(), 1e-12);
  EXPECT_GT(busy["dashboard_utilization"].get<double>(), busy["mfu"].get<double>() * 1.5);
}

TEST(Step, TrafficNamesTheLinkEachAxisRides) {
  json r = step({{"tp", 8}, {"pp", 4}, {"global_batch", 64}});
  std::map<std::string, json> axes;
  for (const auto& a : r["axes"]) axes[a["axis"]] = a;
  EXPECT_EQ(axes["tensor"]["link"], "intra");
  EXPECT_EQ(axes["data"]["link"], "inter");
  EXPECT_EQ(axes["pipeline"]["link"], "inter");
  EXPECT_DOUBLE_EQ(axes["data"]["hidden_fraction"].get<double>() >= 0, true);
}

TEST(Step, SplitsThatDoNotMultiplyOutAreRefusedNamingTheProduct) {
  json r = ask({{"op", "step"},
                {"model", "gpt3-175b"},
                {"hardware", "a100-80gb"},
                {"cluster", {{"gpus", 64}}},
                {"parallel", {{"dp", 2}, {"tp", 8}, {"pp", 8}, {"global_batch", 64}}}});
  EXPECT_EQ(r["error"]["code"], "inconsistent");
  EXPECT_EQ(r["error"]["field"], "parallel.dp");
  EXPECT_EQ(r["error"]["message"], "dp·tp·pp·cp = 2·8·8·1 = 128 but cluster.gpus = 64; they must be equal");
}

TEST(Step, OtherBadSplitsAreRefusedWithTheFieldNamed) {
  const std::vector<std::pair<json, std::string>> cases = {
      {{{"tp", 7}, {"global_batch", 64}}, "parallel.tp"},                        // 7 does not divide 64 GPUs
      {{{"tp", 8}, {"pp", 4}, {"global_batch", 63}}, "parallel.global_batch"},   // not a multiple of dp = 2
      {{{"tp", 8}, {"pp", 8}, {"ep", 2}, {"global_batch", 64}}, "parallel.ep"},  // dense model
      {{{"tp", 8}, {"pp", 8}, {"vpp", 2}, {"schedule", "1f1b"}, {"global_batch", 64}}, "parallel.schedule"},
      {{{"tp", 8}, {"pp", 8}, {"global_batch", 64}, {"zero", 4}}, "parallel.zero"},
      {{{"tp", 8}, {"pp", 8}, {"global_batch", 64}, {"schedule", "dualpipe"}, {"microbatch_size", 2}},
       "parallel.global_batch"},  // valid (32 microbatches): the last case is only a placeholder for the odd one below
  };
  for (std::size_t i = 0; i + 1 < cases.size(); ++i) {
    json r = ask({{"op", "step"},
                  {"model", "gpt3-175b"},
                  {"hardware", "a100-80gb"},
                  {"cluster", {{"gpus", 64}}},
                  {"parallel", cases[i].first}});
    ASSERT_TRUE(r.contains("error")) << cases[i].first.dump();
    EXPECT_EQ(r["error"]["field"], cases[i].second) << r.dump();
  }
  json odd = ask({{"op", "step"},
                  {"model", "gpt3-175b"},
                  {"hardware", "a100-80gb"},
                  {"cluster", {{"gpus", 64}}},
                  {"parallel", {{"tp", 8}, {"pp", 8}, {"global_batch", 3}, {"schedule", "dualpipe"}}}});
  ASSERT_TRUE(odd.contains("error")) << odd.dump();
  EXPECT_EQ(odd["error"]["field"], "parallel.global_batch");
}

}  // namespace

// PyTorch's loss_parallel (tp > 1) holds the shifted logits and exp's output beside the fp32 copy: 4 more bytes per
// logit at the loss, on top of the eager loss's larger phase (its backward's 12); with tp = 1 aten's fused
// log-softmax runs and the extra bytes are not charged.
TEST(Step, PyTorchsVocabularyParallelLossHoldsFourMoreBytesPerLogitOnlyWithTp) {
  const auto transient = [](std::int64_t tp, json efficiency) {
    json r = ask({{"op", "step"},
                  {"model", "llama3-8b"},
                  {"hardware", "h100-sxm"},
                  {"cluster", {{"gpus", 8}}},
                  {"software", "pytorch"},
                  {"parallel", {{"tp", tp}, {"dp", 8 / tp}, {"global_batch", 8 / tp}, {"recompute", "full"}}},
                  {"efficiency", efficiency}});
    EXPECT_FALSE(r.contains("error")) << r.dump();
    EXPECT_EQ(r["memory_per_gpu"]["peak_moment"], "loss");
    return r["memory_per_gpu"]["transient"].get<double>();
  };
  const json off = {{"loss_parallel_extra_bytes", 0}};
  EXPECT_NEAR(transient(2, json::object()) / transient(2, off), 16.0 / 12.0, 1e-12);
  EXPECT_EQ(transient(1, json::object()), transient(1, off));
  EXPECT_NEAR(transient(2, {{"loss_bytes_per_logit", 6}}) /
                  transient(2, {{"loss_bytes_per_logit", 6}, {"loss_parallel_extra_bytes", 0}}),
              10.0 / 6.0, 1e-12);
}

// A stack's band speaks only for chips its held-out runs ran on: megatron-core's are Hopper and Blackwell, so on an
// A100 the answer says the chip is untried and its band spans every stack's and megatron-core's own.
TEST(Step, AStacksBandWidensOnAChipNoneOfItsHeldOutRunsRanOn) {
  const json parallel = {{"tp", 8}, {"pp", 8}, {"global_batch", 64}};
  const json hopper = step(parallel, "gpt3-175b", "h100-sxm");
  const json ampere = step(parallel, "gpt3-175b", "a100-80gb");
  EXPECT_FALSE(hopper["error_band"].contains("untried_chip"));
  EXPECT_EQ(hopper["error_band"]["basis"], "megatron-core");
  EXPECT_EQ(ampere["error_band"]["untried_chip"], "a100-80gb");
  EXPECT_EQ(ampere["error_band"]["basis"], "all stacks and megatron-core");
  // The MFU band as ratios to each prediction (p10, p90 of measured / predicted): wider on both sides.
  const auto ratio = [](const json& r, int end) {
    return r["error_band"]["mfu"][end].get<double>() / r["mfu"].get<double>();
  };
  EXPECT_LT(ratio(ampere, 0), ratio(hopper, 0));
  EXPECT_GT(ratio(ampere, 1), ratio(hopper, 1));
}
