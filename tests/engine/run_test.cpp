// The "run" op: Young/Daly and the expected loss per failure as closed-form oracles, Llama 3's published interruption
// rate and goodput as anchors, the checkpoint's size against 14 bytes per parameter, and its refusals.
#include <gtest/gtest.h>

#include <cmath>
#include <nlohmann/json.hpp>

#include "parascope/api.hpp"

namespace {

using nlohmann::json;

json ask(const json& request) { return json::parse(parascope::call(request.dump())); }

/// Llama 3 405B on 16,384 H100s as Dubey et al. 2024 ran it (TP 8, PP 16, 8,192-token sequences, 2,048 per step).
json llama3(json extra = json::object()) {
  json r = {{"op", "run"},
            {"model", "llama3-405b"},
            {"hardware", "h100-sxm"},
            {"cluster", {{"gpus", 16384}}},
            {"parallel", {{"tp", 8}, {"pp", 16}, {"global_batch", 2048}, {"zero", 1}}}};
  for (const auto& [k, v] : extra.items()) r[k] = v;
  return r;
}

json small(json extra = json::object()) {
  json r = {{"op", "run"},
            {"model", "gpt2-124m"},
            {"hardware", "a100-80gb"},
            {"cluster", {{"gpus", 8}}},
            {"parallel", {{"global_batch", 64}, {"zero", 1}}},
            {"steps", 100000}};
  for (const auto& [k, v] : extra.items()) r[k] = v;
  return r;
}

/// Daly 2006, Eq. 37, written out here independently of the engine.
double daly(double delta, double m) {
  if (delta >= 2 * m) return m;
  const double r = delta / (2 * m);
  return std::sqrt(2 * delta * m) * (1 + std::sqrt(r) / 3 + r / 9) - delta;
}

TEST(Run, TheIntervalIsYoungsAndDalysClosedForms) {
  const json r = ask(small({{"failure_rate", 1e-3}}));
  ASSERT_FALSE(r.contains("error")) << r.dump();
  const json& c = r["checkpoint"];
  const double delta = c["blocking_time"], m = r["failures"]["mtbf"];
  EXPECT_DOUBLE_EQ(m, 3600.0 / (8 * 1e-3));
  EXPECT_NEAR(c["young_interval"].get<double>(), std::sqrt(2 * delta * m), 1e-9 * m);
  EXPECT_NEAR(c["daly_interval"].get<double>(), daly(delta, m), 1e-9 * m);
  EXPECT_EQ(c["interval_source"], "daly");
  EXPECT_DOUBLE_EQ(c["interval"].get<double>(), c["daly_interval"].get<double>());
}

TEST(Run, AFailureCostsTheRestartPlusHalfAnInterval) {
  const json r = ask(small({{"failure_rate", 1e-3}, {"checkpoint_interval", 1800}}));
  ASSERT_FALSE(r.contains("error")) << r.dump();
  const json& f = r["failures"];
  EXPECT_DOUBLE_EQ(f["loss_per_failure"].get<double>(), f["restart_time"]["total"].get<double>() + 1800.0 / 2);
  EXPECT_DOUBLE_EQ(f["restart_time"]["total"].get<double>(), f["restart_time"]["detect"].get<double>() +
                                                                 f["restart_time"]["reschedule"].get<double>() +
                                                                 f["restart_time"]["reload"].get<double>());
  // The wall clock holds the work, the checkpoints and every expected failure's loss.
  const double wall = r["wall_time"];
  const double parts =
      r["useful_time"].get<double>() + r["checkpoint"]["time"].get<double>() + f["lost_time"].get<double>();
  EXPECT_NEAR(wall, parts, 1e-9 * wall);
  EXPECT_NEAR(f["expected"].get<double>(), 8 * 1e-3 * wall / 3600, 1e-9);
  EXPECT_DOUBLE_EQ(r["goodput"].get<double>(), r["useful_time"].get<double>() / wall);
  EXPECT_DOUBLE_EQ(r["effective_mfu"].get<double>(), r["mfu"].get<double>() * r["goodput"].get<double>());
}

TEST(Run, DalysIntervalIsTheFastestRunNearby) {
  const json best = ask(small({{"failure_rate", 1e-3}}));
  const double tau = best["checkpoint"]["interval"];
  for (const double k : {0.5, 0.8, 1.25, 2.0}) {
    const json other = ask(small({{"failure_rate", 1e-3}, {"checkpoint_interval", k * tau}}));
    EXPECT_LE(best["wall_time"].get<double>(), other["wall_time"].get<double>() * (1 + 1e-6)) << k;
  }
}

TEST(Run, TheDefaultRateIsLlama3sInterruptions) {
  const json r = ask(llama3());
  ASSERT_FALSE(r.contains("error")) << r.dump();
  // 419 unexpected interruptions in 54 days on 16,384 GPUs (Dubey et al. 2024, Table 5).
  EXPECT_NEAR(r["failures"]["rate_per_gpu_hour"].get<double>() * 16384 * 54 * 24, 419.0, 1e-9);
  EXPECT_NEAR(r["failures"]["expected"].get<double>() / r["wall_clock_days"].get<double>(), 419.0 / 54, 1e-9);
  EXPECT_TRUE(r["defaults"].contains("failure_rate"));
}

TEST(Run, Llama3sGoodputIsAboveNinetyPercent) {
  // "Despite [466 interruptions], we achieved higher than 90% effective training time" (Dubey et al. 2024, 3.3.4).
  const json r = ask(llama3({{"tokens", 15.6e12}}));
  ASSERT_FALSE(r.contains("error")) << r.dump();
  EXPECT_GT(r["goodput"].get<double>(), 0.90);
  EXPECT_LT(r["goodput"].get<double>(), 0.99);
}

TEST(Run, TheRunsStepIsTheStepOpsStep) {
  json step = small();
  step["op"] = "step";
  step.erase("steps");
  const json s = ask(step);
  const json r = ask(small());
  EXPECT_EQ(r["step_time"], s["step_time"]);
  EXPECT_EQ(r["mfu"], s["mfu"]);
}

TEST(Run, TheCheckpointIsFourteenBytesPerParameterWithoutModelParallelism) {
  const json r = ask(small({{"model", "llama3-8b"}}));  // no learned position table (GPT-2's is not in the states)
  const json presets = ask({{"op", "presets"}});
  double params = 0;
  for (const auto& m : presets["models"]) {
    if (m["id"] == "llama3-8b") params = m["derived"]["params_total"];
  }
  // bf16 weights (2 B) + fp32 master, momentum and variance (12 B), Rajbhandari et al. 2020.
  EXPECT_NEAR(r["checkpoint"]["size"].get<double>(), 14 * params, 1e-6 * params);
  EXPECT_NEAR(r["checkpoint"]["write_time"].get<double>(), 14 * params / 2e12, 1e-9);
}

TEST(Run, AsynchronousSavesBlockOnlyForTheSnapshot) {
  const json r = ask(small({{"checkpoint_mode", "async"}, {"host_copy_bandwidth", 1e10}}));
  ASSERT_FALSE(r.contains("error")) << r.dump();
  const json& c = r["checkpoint"];
  EXPECT_DOUBLE_EQ(c["blocking_time"].get<double>(), c["size_per_gpu"].get<double>() / 1e10);
  EXPECT_GE(c["interval"].get<double>(), c["write_time"].get<double>());
}

TEST(Run, EnergyAndCostFollowTheGpuHours) {
  const json r = ask(small({{"price_per_gpu_hour", 3.5}, {"pue", 1.2}}));
  const double hours = r["gpu_hours"];
  EXPECT_DOUBLE_EQ(r["cost"]["dollars"].get<double>(), 3.5 * hours);
  const double avg = r["energy"]["average_gpu_power"];
  EXPECT_GT(avg, r["energy"]["idle_power"].get<double>());
  EXPECT_LT(avg, r["energy"]["gpu_power"].get<double>());
  EXPECT_NEAR(r["energy"]["mwh"].get<double>(), avg * hours * 1.2 / 1e6, 1e-9);
}

json error_of(const json& request) {
  const json r = ask(request);
  EXPECT_TRUE(r.contains("error")) << r.dump();
  return r.value("error", json::object());
}

TEST(Run, BadNumbersAreRefusedByName) {
  EXPECT_EQ(error_of(small({{"failure_rate", 0}}))["field"], "failure_rate");
  EXPECT_EQ(error_of(small({{"failure_rate", -1e-5}}))["code"], "out_of_range");
  EXPECT_EQ(error_of(small({{"price_per_gpu_hour", -2}}))["field"], "price_per_gpu_hour");
  EXPECT_EQ(error_of(small({{"tokens", 1e9}}))["code"], "conflicting_fields");
  EXPECT_EQ(error_of(small({{"host_copy_bandwidth", 1e10}}))["field"], "host_copy_bandwidth");
  EXPECT_EQ(error_of(small({{"pue", 0.9}}))["field"], "pue");
  EXPECT_EQ(error_of(small({{"checkpoint_mode", "sometimes"}}))["code"], "invalid_value");
  json tpu = small({{"hardware", "tpu-v4"}});
  EXPECT_EQ(error_of(tpu)["field"], "gpu_power");
  tpu["gpu_power"] = 192;
  EXPECT_FALSE(ask(tpu).contains("error"));
}

TEST(Run, ARunThatCannotOutrunItsFailuresIsRefused) {
  const json e = error_of(llama3({{"failure_rate", 1e-2}}));
  EXPECT_EQ(e["code"], "inconsistent");
  EXPECT_EQ(e["field"], "failure_rate");
}

}  // namespace
