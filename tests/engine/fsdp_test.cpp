// ZeRO-3 / FSDP as frameworks run it: gathers per microbatch or per step, prefetched one layer ahead, and memory.
#include <gtest/gtest.h>

#include "step_request.hpp"

namespace {

using nlohmann::json;
using step_request::axis;
using step_request::step;

// 4 layers of 4h² attention + 2h·4h GELU FFN + 2 RMSNorms, h = 1024, a 1-token vocabulary: 12,584,960 parameters a
// layer, 50,339,840 in the layers, plus 2 embedding rows (2,048) and the final norm (1,024): 50,342,912 in all.
const json kModel = {{"layers", 4}, {"hidden", 1024}, {"heads", 8}, {"vocab", 1}, {"seq", 1024}};
constexpr double kParams = 50342912.0;
// Links so fast that every prefetched gather hides behind a layer's compute: only what cannot be prefetched shows.
const json kFastHardware = {{"peak_flops", 1e14},      {"memory_bandwidth", 1e12}, {"intra_bandwidth", 1e15},
                            {"inter_bandwidth", 1e15}, {"intra_latency", 0},       {"inter_latency", 0}};
const json kNoLatency = {{"link_efficiency", 1.0}};

/// Ring all-gather / reduce-scatter of `bytes` over n ranks at 1e15 B/s and no latency: (n−1)/n · bytes / B.
double ring(double n, double bytes) { return (n - 1.0) / n * bytes / 1e15; }

TEST(Fsdp, ReshardingAfterForwardShowsEachMicrobatchsFirstGathersAndLastReduceScatter) {
  // pp = 1, dp = 8, 4 microbatches. Per layer: gather g of 2 bytes per parameter, reduce-scatter r of 4. Forward:
  // the first layer's gather waits, the other three are prefetched; backward: its first gather and its last
  // reduce-scatter wait. Exposed = 4 · (2g + r), of 4 · 4 · (2g + r) on the link.
  json r = step(kModel, kFastHardware, {{"gpus", 8}},
                {{"global_batch", 32}, {"zero", 3}, {"reshard_after_forward", true}}, kNoLatency);
  const double g = ring(8, 2.0 * kParams / 4), rs = ring(8, 4.0 * kParams / 4);
  EXPECT_NEAR(r["breakdown"]["dp_comm"].get<double>(), 4.0 * (2.0 * g + rs), 1e-18);
  EXPECT_NEAR(axis(r, "data")["time"].get<double>(), 4.0 * 4.0 * (2.0 * g + rs), 1e-18);
  EXPECT_EQ(axis(r, "data")["count"].get<double>(), 4.0 * 4.0 * 3.0);
  EXPECT_EQ(r["parallel"]["reshard_after_forward"], true);  // the default without a pipeline (PyTorch FSDP's)
}

TEST(Fsdp, KeepingTheForwardsWeightsGathersOncePerMicrobatch) {
  json r = step(kModel, kFastHardware, {{"gpus", 8}},
                {{"global_batch", 32}, {"zero", 3}, {"reshard_after_forward", false}}, kNoLatency);
  const double g = ring(8, 2.0 * kParams / 4), rs = ring(8, 4.0 * kParams / 4);
  EXPECT_NEAR(r["breakdown"]["dp_comm"].get<double>(), 4.0 * (g + rs), 1e-18);
  EXPECT_EQ(axis(r, "data")["count"].get<double>(), 4.0 * 4.0 * 2.0);
  // Memory: the gathered bf16 weights stay through the forward, the gradients are reduce-scattered every microbatch.
  EXPECT_DOUBLE_EQ(r["memory_per_gpu"]["weights"].get<double>(), 2.0 * kParams);
  EXPECT_DOUBLE_EQ(r["memory_per_gpu"]["gradients"].get<double>(), 4.0 * kParams / 8);
}

TEST(Fsdp, InAPipelineWithoutReshardingTheWeightsAreGatheredOncePerStep) {
  // pp = 2, dp = 4: each stage holds 2 layers and one table row. torch.distributed.pipelining keeps the gathered
  // weights and the unsharded gradients until the last microbatch's backward: one gather and one reduce-scatter per
  // step, whatever the microbatch count. That is the default with a pipeline (torchtitan).
  const double stage = 2.0 * 12584960.0 + 1024.0;  // the first stage: 2 layers + the input table's row
  for (int gbs : {8, 64}) {
    json r = step(kModel, kFastHardware, {{"gpus", 8}}, {{"pp", 2}, {"global_batch", gbs}, {"zero", 3}}, kNoLatency);
    EXPECT_EQ(r["parallel"]["reshard_after_forward"], false);
    const double last_stage = 2.0 * 12584960.0 + 1024.0 + 1024.0;  // + output row + final norm
    const double per_layer = std::max(stage, last_stage) / 2.0;
    const double g = ring(4, 2.0 * per_layer), rs = ring(4, 4.0 * per_layer);
    EXPECT_NEAR(r["breakdown"]["dp_comm"].get<double>(), g + rs, 1e-18) << gbs;
    EXPECT_EQ(axis(r, "data")["count"].get<double>(), 4.0);
  }
}

TEST(Fsdp, AGatherSlowerThanALayersComputeShowsItsExcessForEveryLaterLayer) {
  // A link slow enough that no gather hides: the chain of n gathers then costs g + (n − 1)(g − c) for the forward, so
  // the exposed time grows by exactly (n − 1) · Δg when each gather grows by Δg (compute c unchanged).
  auto exposed = [&](double bandwidth) {
    json hw = kFastHardware;
    hw["intra_bandwidth"] = bandwidth;
    json r = step(kModel, hw, {{"gpus", 8}}, {{"global_batch", 8}, {"zero", 3}, {"reshard_after_forward", false}},
                  kNoLatency);
    return r["breakdown"]["dp_comm"].get<double>();
  };
  const double slow = 1e8, slower = 5e7;
  auto g = [&](double b) { return 7.0 / 8.0 * 2.0 * kParams / 4 / b; };
  auto rs = [&](double b) { return 7.0 / 8.0 * 4.0 * kParams / 4 / b; };
  // One microbatch: forward chain over 4 layers and backward chain of reduce-scatters over 4.
  EXPECT_NEAR(exposed(slower) - exposed(slow), 4.0 * (g(slower) - g(slow)) + 4.0 * (rs(slower) - rs(slow)), 1e-9);
}

TEST(Fsdp, Llama3At16kGpusIsNearZeroOneWithoutReshardingAndSlowerWithIt) {
  // The layout (Dubey et al. 2024, Table 4): tp 8, pp 16, dp 128, vpp 7, 2048 sequences.
  auto run = [&](json extra) {
    json p = {{"tp", 8}, {"pp", 16}, {"dp", 128}, {"vpp", 7}, {"global_batch", 2048}};
    p.update(extra);
    return step("llama3-405b", "h100-sxm", {{"gpus", 16384}}, p);
  };
  json zero1 = run({{"zero", 1}}), fsdp = run({{"zero", 3}}),
       resharding = run({{"zero", 3}, {"reshard_after_forward", true}});
  EXPECT_LT(fsdp["breakdown"]["dp_comm"].get<double>(), 2.0 * zero1["breakdown"]["dp_comm"].get<double>());
  EXPECT_NEAR(fsdp["mfu"].get<double>(), zero1["mfu"].get<double>(), 0.01);
  EXPECT_GT(resharding["breakdown"]["dp_comm"].get<double>(), 10.0 * fsdp["breakdown"]["dp_comm"].get<double>());
}

TEST(Fsdp, ReshardingIsAZeroThreeChoice) {
  EXPECT_EQ(step_request::refused_field(kModel, kFastHardware, {{"gpus", 8}},
                                        {{"global_batch", 8}, {"zero", 1}, {"reshard_after_forward", true}}),
            "parallel.reshard_after_forward");
}

}  // namespace
