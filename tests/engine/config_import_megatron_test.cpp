// config_import "megatron": Megatron-LM's own example script read into a step request; config_export megatron →
// config_import megatron gives back a request that costs the same, over the presets and seeded random requests.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <random>
#include <set>
#include <sstream>
#include <string>

#include "../../engine/src/config_import_formats.hpp"
#include "fixture_text.hpp"
#include "parascope/api.hpp"
#include "parascope/presets.hpp"

namespace {

using nlohmann::json;

json ask(const json& request) { return json::parse(parascope::call(request.dump())); }

std::string fixture(const std::string& name) { return parascope::test::fixture_text("megatron-args", name); }

json import(const std::string& text, json extra = json::object()) {
  json r = {{"op", "config_import"}, {"format", "megatron"}, {"text", text}};
  r.update(extra);
  return ask(r);
}

bool lists(const json& entries, const std::string& key_start) {
  for (const json& e : entries) {
    if (e["key"].get<std::string>().rfind(key_start, 0) == 0) return true;
  }
  return false;
}

TEST(ConfigImportMegatron, MegatronsGpt3ExampleScript) {
  std::string script = fixture("train_gpt3_175b_distributed.sh");
  // As the script's own comment says, multi-node runs change NUM_NODES: tp 8 × pp 16 needs 16 nodes of 8.
  const json one_node = import(script, {{"vocab", 50257}});
  ASSERT_TRUE(one_node.contains("error")) << one_node.dump();
  EXPECT_NE(one_node["error"]["message"].get<std::string>().find("tp·pp·cp"), std::string::npos) << one_node.dump();
  script.replace(script.find("NUM_NODES=1"), 11, "NUM_NODES=16");
  const json r = import(script, {{"vocab", 50257}});
  ASSERT_FALSE(r.contains("error")) << r.dump();
  const json& m = r["request"]["model"];
  EXPECT_EQ(m["layers"], 96);
  EXPECT_EQ(m["hidden"], 12288);
  EXPECT_EQ(m["heads"], 96);
  EXPECT_EQ(m["ffn"], 4 * 12288);
  EXPECT_EQ(m["seq"], 2048);
  EXPECT_EQ(m["vocab"], 51200);  // padded to a multiple of 128 × tp 8, as Megatron trains it
  EXPECT_EQ(m["position_embedding"], "learned");
  EXPECT_EQ(m["bias"], true);
  const json& p = r["request"]["parallel"];
  EXPECT_EQ(p["tp"], 8);
  EXPECT_EQ(p["pp"], 16);
  EXPECT_EQ(p["global_batch"], 1536);
  EXPECT_EQ(r["request"]["cluster"]["gpus"], 128);
  EXPECT_TRUE(lists(r["unmapped"], "--fp16"));
  EXPECT_TRUE(lists(r["unmapped"], "--rampup-batch-size"));
  EXPECT_TRUE(lists(r["ignored"], "--lr "));
  EXPECT_TRUE(lists(r["ignored"], "--save "));  // $CHECKPOINT_PATH ($1): fine for a flag with no bearing on cost
  const json step = ask(r["request"]);
  EXPECT_FALSE(step.contains("error")) << step.dump();
}

/// The exported arguments imported back: the same step answer, and the same arguments exported again.
void expect_round_trip(const json& request) {
  const json out = ask({{"op", "config_export"}, {"format", "megatron"}, {"request", request}});
  ASSERT_FALSE(out.contains("error")) << out.dump();
  const json back = import(out["text"].get<std::string>(), {{"base", {{"hardware", request["hardware"]}}}});
  ASSERT_FALSE(back.contains("error")) << request.dump() << "\n" << back.dump();
  EXPECT_EQ(ask(back["request"]), ask(request)) << request.dump() << "\n" << back["request"].dump();
  const json again = ask({{"op", "config_export"}, {"format", "megatron"}, {"request", back["request"]}});
  EXPECT_EQ(again["args"], out["args"]) << request.dump();
  EXPECT_TRUE(back["unmapped"].empty()) << back["unmapped"].dump();
}

json step_of(const std::string& model, const json& parallel, const std::string& precision = "bf16") {
  return {{"op", "step"},         {"model", model},        {"hardware", "h100-sxm"}, {"cluster", {{"gpus", 64}}},
          {"parallel", parallel}, {"precision", precision}};
}

TEST(ConfigImportMegatron, RoundTripOverThePresets) {
  int checked = 0;
  for (const parascope::ModelShape& m : parascope::model_presets()) {
    json request = step_of(m.id, {{"pp", 8}, {"global_batch", 64}});
    if (ask(request).contains("error")) continue;
    const json out = ask({{"op", "config_export"}, {"format", "megatron"}, {"request", request}});
    if (!out["notes"].empty()) continue;  // what Megatron cannot express is noted, not round-tripped
    expect_round_trip(request);
    ++checked;
  }
  EXPECT_GE(checked, 5);
}

TEST(ConfigImportMegatron, RoundTripOverSeededRandomRequests) {
  std::mt19937 rng(32);
  auto pick = [&rng](std::initializer_list<json> xs) { return *(xs.begin() + rng() % xs.size()); };
  std::vector<std::string> ids;
  for (const parascope::ModelShape& m : parascope::model_presets()) ids.push_back(m.id);
  int checked = 0;
  for (int i = 0; i < 300 && checked < 60; ++i) {
    json p = {{"tp", pick({1, 2, 4, 8})},
              {"pp", pick({1, 2, 4})},
              {"microbatch_size", pick({1, 2})},
              {"global_batch", pick({64, 128, 256})},
              {"recompute", pick({"none", "selective", "full"})},
              {"zero", pick({0, 1, 2, 3})},
              {"sequence_parallel", pick({true, false})}};
    if (p["tp"] == 1) p.erase("sequence_parallel");  // Megatron has no SP without TP: not exported
    if (p["pp"] != 1 && rng() % 2) p["vpp"] = 2;
    if (rng() % 3 == 0) p["cp"] = 2;
    if (rng() % 3 == 0) p["ep"] = pick({2, 4, 8});
    json request = step_of(ids[rng() % ids.size()], p, rng() % 3 == 0 ? "fp8" : "bf16");
    request["cluster"]["gpus"] = pick({8, 32, 64, 128});
    if (ask(request).contains("error")) continue;
    const json out = ask({{"op", "config_export"}, {"format", "megatron"}, {"request", request}});
    if (!out["notes"].empty()) continue;
    expect_round_trip(request);
    ++checked;
  }
  EXPECT_GE(checked, 30);
}

TEST(ConfigImportMegatron, EveryFlagReadIsOneArgumentsPyDefines) {
  std::set<std::string> defined;
  std::stringstream lines(fixture("arguments-core_v0.14.0-flags.txt"));
  for (std::string line; std::getline(lines, line);) defined.insert(line);
  ASSERT_EQ(defined.size(), 512u);
  for (const std::string& flag : parascope::detail::megatron_known_flags()) EXPECT_TRUE(defined.count(flag)) << flag;
}

TEST(ConfigImportMegatron, UnknownAndUnsetAreNamed) {
  const std::string base = "--num-layers 2 --hidden-size 64 --num-attention-heads 4 --seq-length 128 --vocab-size 256 ";
  json r = import(base + "--bf16 --my-own-flag 3");
  ASSERT_FALSE(r.contains("error")) << r.dump();
  EXPECT_TRUE(lists(r["unmapped"], "--my-own-flag"));
  r = import(base + "--tensor-model-parallel-size $TP");
  EXPECT_EQ(r["error"]["code"], "invalid_value") << r.dump();
  EXPECT_NE(r["error"]["message"].get<std::string>().find("$TP"), std::string::npos) << r.dump();
  r = import("TP=2\n" + base + "--tensor-model-parallel-size=$TP --bf16");
  EXPECT_EQ(r["request"]["parallel"]["tp"], 2) << r.dump();
  r = import("--num-layers 2 \\\n  --hidden-size '64\n");
  EXPECT_EQ(r["error"]["message"], "a quote (') opened at line 2 is never closed") << r.dump();
  r = import("--hidden-size 64 --num-attention-heads 4");
  EXPECT_EQ(r["error"]["code"], "missing_field") << r.dump();
  r = import(base + "--num-layers two");
  EXPECT_EQ(r["error"]["field"], "text") << r.dump();
}

TEST(ConfigImportMegatron, BareFlagsGetAClusterTheirSplitFits) {
  // No torchrun line: one node of 8 where tp × pp × cp divides 8, else one replica (tp 4 × pp 4 = 16 was refused).
  const std::string base = "--num-layers 8 --hidden-size 64 --num-attention-heads 4 --seq-length 128 --vocab-size 256 ";
  json r = import(base + "--tensor-model-parallel-size 4 --pipeline-model-parallel-size 4");
  ASSERT_FALSE(r.contains("error")) << r.dump();
  EXPECT_EQ(r["request"]["cluster"]["gpus"], 16) << r.dump();
  EXPECT_FALSE(ask(r["request"]).contains("error")) << "step answers the imported request";
  r = import(base + "--tensor-model-parallel-size 2");
  EXPECT_EQ(r["request"]["cluster"]["gpus"], 8) << r.dump();
  EXPECT_FALSE(ask(r["request"]).contains("error")) << "step answers the imported request";
}

}  // namespace
