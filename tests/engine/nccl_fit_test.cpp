// The "nccl_fit" op on published nccl-tests outputs (tests/fixtures/nccl-tests): the fit gives back the printed busbw,
// its links become a cluster override `step` takes, and a malformed paste is refused naming its line.
#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>

#include "parascope/api.hpp"

namespace {

using nlohmann::json;

json ask(const json& request) { return json::parse(parascope::call(request.dump())); }

std::string published(const std::string& name) {
  std::ifstream in(std::string(PARASCOPE_SOURCE_DIR) + "/tests/fixtures/nccl-tests/" + name);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

json fit(const std::string& text, json extra = json::object()) {
  json r = {{"op", "nccl_fit"}, {"text", text}};
  for (const auto& [k, v] : extra.items()) r[k] = v;
  return ask(r);
}

TEST(NcclFit, TheH200RunsBusbwIsReproducedWithinFivePercent) {
  const json r = fit(published("h200-2x8-all-reduce.txt"));
  ASSERT_FALSE(r.contains("error")) << r.dump();
  ASSERT_EQ(r["tables"].size(), 1u);
  const json& t = r["tables"][0];
  EXPECT_EQ(t["collective"], "all_reduce");
  EXPECT_EQ(t["gpus"], 16);
  EXPECT_EQ(t["gpus_per_node"], 8);
  EXPECT_EQ(t["level"], "inter");
  EXPECT_DOUBLE_EQ(t["bus_factor"].get<double>(), 2.0 * 15 / 16);
  ASSERT_EQ(r["points"].size(), 5u);  // one per row
  for (const json& p : r["points"]) {
    const double measured = p["measured_busbw"], model = p["model_busbw"];
    EXPECT_NEAR(model / measured, 1.0, 0.05) << p.dump();
  }
  EXPECT_DOUBLE_EQ(r["points"][0]["measured_busbw"].get<double>(), 457.90e9);
  EXPECT_EQ(r["points"][0]["bytes"], 1073741824.0);
}

TEST(NcclFit, TheA100SweepsLargeMessagesAreReproducedWithinFivePercent) {
  const json r = fit(published("a100-1x8-all-reduce.txt"));
  ASSERT_FALSE(r.contains("error")) << r.dump();
  const json& t = r["tables"][0];
  EXPECT_EQ(t["level"], "intra");
  EXPECT_EQ(t["gpus"], 8);
  EXPECT_LE(t["regimes"].size(), 3u);
  ASSERT_EQ(r["points"].size(), 28u);
  double worst = 0;
  for (const json& p : r["points"]) {
    // Sizes from 256 MiB: the bandwidth regime that data-parallel gradient buckets ride.
    if (p["bytes"].get<double>() < 268435456.0) continue;
    worst = std::max(worst, std::fabs(p["model_busbw"].get<double>() / p["measured_busbw"].get<double>() - 1));
  }
  EXPECT_LT(worst, 0.05);
  // Small messages: the latency floor of ~32 µs is the first regime's.
  EXPECT_NEAR(r["points"][0]["model_time"].get<double>(), 32.01e-6, 0.05 * 32.01e-6);
}

TEST(NcclFit, TheFittedLinksAreAClusterOverrideStepTakes) {
  const json r = fit(published("h200-2x8-all-reduce.txt"));
  json cluster = r["cluster"];
  ASSERT_TRUE(cluster.contains("nccl_tests"));
  cluster["gpus"] = 16;
  const json step = ask({{"op", "step"},
                         {"model", "llama3-8b"},
                         {"hardware", "h200"},
                         {"cluster", cluster},
                         {"parallel", {{"tp", 8}, {"global_batch", 32}}}});
  ASSERT_FALSE(step.contains("error")) << step.dump();
  EXPECT_EQ(step["network_fit"], r["links"]["network_fit"]);
  const double per_nic = r["links"]["inter"]["per_gpu_nic_bandwidth"];
  EXPECT_DOUBLE_EQ(per_nic * 8, r["links"]["inter"]["bandwidth"].get<double>());
}

TEST(NcclFit, GpusComeFromTheRequestWhenTheHeaderIsMissing) {
  std::string text = published("h200-2x8-all-reduce.txt");
  text = text.substr(text.find("#                                                              out-of-place"));
  const json missing = fit(text);
  EXPECT_EQ(missing["error"]["field"], "gpus_per_node") << missing.dump();
  const json r = fit(text, {{"gpus_per_node", 8}});
  ASSERT_FALSE(r.contains("error")) << r.dump();
  EXPECT_EQ(r["tables"][0]["gpus"], 16);  // read from busbw / algbw = 2(n−1)/n
  EXPECT_EQ(fit(text, {{"gpus", 8}, {"gpus_per_node", 8}})["error"]["code"], "inconsistent");
}

TEST(NcclFit, AMalformedRowIsRefusedNamingItsLine) {
  std::string text = published("h200-2x8-all-reduce.txt");
  const std::string row = "  2147483648     536870912     float     sum      -1   8538.8  251.50  471.56";
  const std::string bad = "  2147483648     536870912     float     sum      -1   8538.8  oops  471.56";
  text.replace(text.find(row), row.size(), bad);
  const json e = fit(text)["error"];
  EXPECT_EQ(e["field"], "text");
  EXPECT_NE(e["message"].get<std::string>().find("line 26"), std::string::npos) << e.dump();
}

TEST(NcclFit, NoTableAndUnknownProgramsAreRefused) {
  EXPECT_EQ(fit("hello")["error"]["field"], "text");
  EXPECT_EQ(fit("# Collective test starting: broadcast_perf\n")["error"]["code"], "invalid_value");
  EXPECT_EQ(ask({{"op", "nccl_fit"}, {"text", 3}})["error"]["code"], "wrong_type");
  EXPECT_EQ(fit("{\"results\": 1}")["error"]["field"], "text");
}

TEST(NcclFit, NcclTestsJsonOutputIsReadToo) {
  // The -J file's layout (nccl-tests src/util.cu, v2.19.6), with the H200 run's first two rows.
  const json doc = {
      {"args", {"./build/all_reduce_perf", "-b", "1G"}},
      {"config", {{"devices", json::array()}}},
      {"results",
       {{{"size", 1073741824}, {"out_of_place", {{"time", 4396.8}, {"alg_bw", 244.21}, {"bus_bw", 457.90}}}},
        {{"size", 2147483648}, {"out_of_place", {{"time", 8538.8}, {"alg_bw", 251.50}, {"bus_bw", 471.56}}}}}}};
  json d = doc;
  for (int rank = 0; rank < 16; ++rank) {
    d["config"]["devices"].push_back({{"rank", rank}, {"hostname", rank < 8 ? "a" : "b"}});
  }
  const json r = fit(d.dump());
  ASSERT_FALSE(r.contains("error")) << r.dump();
  EXPECT_EQ(r["tables"][0]["gpus"], 16);
  EXPECT_EQ(r["tables"][0]["gpus_per_node"], 8);
  EXPECT_NEAR(r["points"][1]["model_busbw"].get<double>() / 471.56e9, 1.0, 0.01);
}

}  // namespace
