// error_band.network: the step on a network between nodes at half its label rate, checked against the closed form.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "parascope/api.hpp"

namespace {

using nlohmann::json;

json step(json request) {
  request["op"] = "step";
  return json::parse(parascope::call(request.dump()));
}

/// GPT-2 in plain data parallelism over `gpus` H100s, the gradient all-reduce not overlapped (every byte exposed).
json plain_dp(std::int64_t gpus) {
  return {{"model", "gpt2-124m"},
          {"hardware", "h100-sxm"},
          {"cluster", {{"gpus", gpus}}},
          {"parallel", {{"dp", gpus}, {"microbatch_size", 1}, {"global_batch", gpus}, {"zero", 0}}},
          {"efficiency", {{"dp_overlap", false}, {"link_efficiency", 0.8}}}};
}

TEST(NetworkWhatIf, OneNodeNeedsNoNetworkAndSaysNothing) {
  const json r = step(plain_dp(8));
  ASSERT_FALSE(r.contains("error")) << r.dump();
  EXPECT_FALSE(r["error_band"].contains("network"));
}

TEST(NetworkWhatIf, HalfTheNetworkAddsOneMoreBandwidthTermToAnExposedAllReduce) {
  // Ring all-reduce: 2(N-1)α + 2(N-1)/N·S/B. Eight ranks per node ride eight NICs: B = 0.8 × min(450, 8 × 50) GB/s
  // (h100-sxm, parallel.cpp); at half the NIC rate B halves, so the step grows by exactly bytes_per_gpu / B.
  const json r = step(plain_dp(16));
  ASSERT_TRUE(r["error_band"].contains("network")) << r.dump();
  const json& what_if = r["error_band"]["network"];
  EXPECT_EQ(what_if["inter_bandwidth_fraction"], 0.5);
  double bytes = 0;
  for (const json& axis : r["axes"]) {
    if (axis["axis"] == "data") bytes = axis["bytes_per_gpu"].get<double>();
  }
  ASSERT_GT(bytes, 0);
  const double grown = what_if["step_time"].get<double>() - r["step_time"].get<double>();
  EXPECT_NEAR(grown, bytes / (0.8 * 400e9), 1e-12);
  EXPECT_LT(what_if["mfu"].get<double>(), r["mfu"].get<double>());
  EXPECT_NEAR(what_if["tokens_per_second"].get<double>() * what_if["step_time"].get<double>(),
              r["tokens_per_second"].get<double>() * r["step_time"].get<double>(), 1e-6);
}

TEST(NetworkWhatIf, ATpuSliceRidesItsOwnInterconnectAndSaysNothing) {
  const json r = step({{"model", "palm-540b"},
                       {"hardware", "tpu-v4"},
                       {"cluster", {{"gpus", 6144}}},
                       {"parallel", {{"tp", 12}, {"global_batch", 2048}}},
                       {"software", "xla"}});
  ASSERT_FALSE(r.contains("error")) << r.dump();
  EXPECT_FALSE(r["error_band"].contains("network"));
}

TEST(NetworkWhatIf, AMeasuredNetworkIsCostedAsMeasuredWithNoWhatIf) {
  json request = plain_dp(16);
  request["cluster"]["nccl_tests"] = json::array(
      {{{"gpus", 16}, {"bytes", 1 << 30}, {"busbw", 100e9}}, {{"gpus", 16}, {"bytes", 1 << 20}, {"busbw", 20e9}}});
  const json r = step(request);
  ASSERT_FALSE(r.contains("error")) << r.dump();
  EXPECT_FALSE(r["error_band"].contains("network"));
}

TEST(NetworkWhatIf, NeverFasterThanTheLabelRate) {
  // A slower network can only lengthen a step, whatever the split: checked over splits that put every axis across
  // nodes in turn.
  for (const json& parallel : {json{{"tp", 16}, {"global_batch", 8}}, json{{"pp", 4}, {"tp", 4}, {"global_batch", 32}},
                               json{{"dp", 32}, {"zero", 3}, {"global_batch", 32}},
                               json{{"cp", 2}, {"tp", 8}, {"dp", 2}, {"global_batch", 8}}}) {
    const json r =
        step({{"model", "llama3-8b"}, {"hardware", "h100-sxm"}, {"cluster", {{"gpus", 32}}}, {"parallel", parallel}});
    ASSERT_FALSE(r.contains("error")) << parallel.dump() << r.dump();
    EXPECT_GE(r["error_band"]["network"]["step_time"].get<double>(), r["step_time"].get<double>()) << parallel.dump();
  }
}

}  // namespace
