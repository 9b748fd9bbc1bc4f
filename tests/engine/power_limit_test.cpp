// The power limit: a cluster that holds its GPUs below their board power runs compute-bound kernels at the clock
// ((limit − idle)/(board − idle))^(1/3) and leaves memory-bound kernels alone (engine/API.md, "Power limit").
#include <gtest/gtest.h>

#include <cmath>
#include <nlohmann/json.hpp>
#include <string>

#include "../../engine/src/kernel_model.hpp"
#include "parascope/api.hpp"

namespace {

using nlohmann::json;

json ask(const json& request) { return json::parse(parascope::call(request.dump())); }

json llama8b_fsdp(json cluster) {
  return {{"op", "step"},
          {"model", "llama3-8b"},
          {"hardware", "h100-sxm"},
          {"cluster", std::move(cluster)},
          {"parallel", {{"dp", 8}, {"zero", 3}, {"microbatch_size", 2}, {"global_batch", 16}}},
          {"software", "pytorch"}};
}

TEST(PowerLimit, TheClockFollowsTheCubeRootOfTheDynamicPowerLeft) {
  parascope::Hardware h100;
  h100.board_power = 700;
  parascope::Cluster cluster;
  cluster.power_limit = 500;
  const double idle = parascope::detail::kIdlePowerShare * 700;
  EXPECT_DOUBLE_EQ(parascope::detail::compute_clock(h100, cluster), std::cbrt((500 - idle) / (700 - idle)));
  EXPECT_NEAR(parascope::detail::compute_clock(h100, cluster), 0.880, 5e-4);
  cluster.power_limit = 700;
  EXPECT_EQ(parascope::detail::compute_clock(h100, cluster), 1.0);
  cluster.power_limit = 0;  // not known: no loss charged
  EXPECT_EQ(parascope::detail::compute_clock(h100, cluster), 1.0);
  h100.board_power = 0;
  cluster.power_limit = 300;
  EXPECT_EQ(parascope::detail::compute_clock(h100, cluster), 1.0);
}

TEST(PowerLimit, TheBoardPowerAsLimitChangesNothing) {
  const json free = ask(llama8b_fsdp({{"gpus", 8}}));
  const json at_board = ask(llama8b_fsdp({{"gpus", 8}, {"power_limit", 700}}));
  ASSERT_FALSE(free.contains("error")) << free.dump();
  EXPECT_EQ(free.dump(), at_board.dump());
}

TEST(PowerLimit, ALowerLimitSlowsTheComputeAndLeavesTheMemoryBoundKernels) {
  const json free = ask(llama8b_fsdp({{"gpus", 8}}));
  const json capped = ask(llama8b_fsdp({{"gpus", 8}, {"power_limit", 500}}));
  ASSERT_FALSE(capped.contains("error")) << capped.dump();
  const double compute_free = free["breakdown"]["compute"], compute_capped = capped["breakdown"]["compute"];
  // GEMMs on their HBM roofline and the launches do not slow, so the compute grows by at most 1/clock.
  EXPECT_GT(compute_capped, compute_free * 1.10);
  EXPECT_LE(compute_capped, compute_free / 0.8803 * (1 + 1e-9));
  EXPECT_DOUBLE_EQ(capped["breakdown"]["memory_bound"].get<double>(), free["breakdown"]["memory_bound"].get<double>());
  EXPECT_LT(capped["mfu"].get<double>(), free["mfu"].get<double>());
  EXPECT_EQ(capped["memory_per_gpu"].dump(), free["memory_per_gpu"].dump());
}

TEST(PowerLimit, ALimitAboveTheBoardPowerIsRefusedNamingTheField) {
  const json r = ask(llama8b_fsdp({{"gpus", 8}, {"power_limit", 900}}));
  ASSERT_TRUE(r.contains("error")) << r.dump();
  EXPECT_EQ(r["error"]["code"], "invalid_value");
  EXPECT_EQ(r["error"]["field"], "cluster.power_limit");
  // A hardware object's own limit is read by the same rule and says the same.
  json request = llama8b_fsdp({{"gpus", 8}});
  request["hardware"] = {{"name", "my H100"}, {"peak_flops", 9.89e14}, {"board_power", 700}, {"power_limit", 900}};
  const json own = ask(request);
  ASSERT_TRUE(own.contains("error")) << own.dump();
  EXPECT_EQ(own["error"]["field"], "hardware.power_limit");
  for (const json& e : {r, own}) {
    EXPECT_NE(e["error"]["message"].get<std::string>().find("above the board power of"), std::string::npos) << e;
  }
}

TEST(PowerLimit, TheRunDrawsTheLimitNotTheBoardPower) {
  json request = llama8b_fsdp({{"gpus", 8}, {"power_limit", 500}});
  request["op"] = "run";
  request["steps"] = 1000;
  const json r = ask(request);
  ASSERT_FALSE(r.contains("error")) << r.dump();
  EXPECT_EQ(r["energy"]["gpu_power"].get<double>(), 500.0);
  EXPECT_EQ(r["energy"]["idle_power"].get<double>(), 50.0);
}

}  // namespace
