// config_import / config_export "torchtitan": torchtitan's shipped Llama 3 TOMLs (820504e) become step requests that
// cost as the engine's presets, export back to TOML and re-import to the same request; bad TOML is refused by line.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <random>
#include <string>

#include "fixture_text.hpp"
#include "parascope/api.hpp"

namespace {

using nlohmann::json;

json ask(const json& request) { return json::parse(parascope::call(request.dump())); }

std::string fixture(const std::string& name) { return parascope::test::fixture_text("torchtitan-configs", name); }

json import(const std::string& text, const json& base) {
  return ask({{"op", "config_import"}, {"format", "torchtitan"}, {"text", text}, {"base", base}});
}

json exported(const json& request) {
  return ask({{"op", "config_export"}, {"format", "torchtitan"}, {"request", request}});
}

bool lists(const json& entries, const std::string& key_start) {
  for (const json& e : entries) {
    if (e["key"].get<std::string>().rfind(key_start, 0) == 0) return true;
  }
  return false;
}

struct Shipped {
  const char* file;
  const char* preset;
  json base;
};

TEST(ConfigImportTorchtitan, ShippedTomlsCostAsThePresetsAndRoundTrip) {
  const Shipped shipped[] = {
      {"llama3_8b.toml", "llama3-8b", {{"hardware", "a100-80gb"}, {"cluster", {{"gpus", 64}}}}},
      {"llama3_70b.toml", "llama3-70b", {{"hardware", "a100-80gb"}, {"cluster", {{"gpus", 64}}}}},
      {"llama3_405b.toml", "llama3-405b", {{"hardware", "h100-sxm"}, {"cluster", {{"gpus", 128}}}}}};
  for (const Shipped& s : shipped) {
    const json r = import(fixture(s.file), s.base);
    ASSERT_FALSE(r.contains("error")) << s.file << r.dump();
    json as_preset = r["request"];
    as_preset["model"] = s.preset;
    EXPECT_EQ(ask(r["request"]), ask(as_preset)) << s.file;
    EXPECT_TRUE(lists(r["ignored"], "optimizer.lr")) << s.file;
    const json out = exported(r["request"]);
    ASSERT_FALSE(out.contains("error")) << out.dump();
    EXPECT_TRUE(out["notes"].empty()) << out.dump();
    const json back = import(out["text"].get<std::string>(), {{"hardware", s.base["hardware"]}});
    ASSERT_FALSE(back.contains("error")) << back.dump() << "\n" << out["text"].get<std::string>();
    EXPECT_EQ(back["request"], r["request"]) << s.file << "\n" << out["text"].get<std::string>();
  }
  const json r8 = import(fixture("llama3_8b.toml"), shipped[0].base);
  EXPECT_EQ(r8["request"]["parallel"]["recompute"], "op");   // selective_ac_option = "op"
  EXPECT_EQ(r8["request"]["parallel"]["zero"], 3);           // data_parallel_shard_degree -1: FSDP over 64
  EXPECT_EQ(r8["request"]["parallel"]["global_batch"], 64);  // local_batch_size 1 × 64
  const json r405 = import(fixture("llama3_405b.toml"), shipped[2].base);
  EXPECT_EQ(r405["request"]["precision"], "fp8");  // converters = ["float8"]
  EXPECT_EQ(r405["request"]["software"], "pytorch-compile");
  EXPECT_EQ(r405["request"]["parallel"]["tp"], 8);
  EXPECT_EQ(r405["request"]["efficiency"]["tp_comm_overlap"], true);  // enable_async_tensor_parallel
}

TEST(ConfigImportTorchtitan, SeededRequestsRoundTrip) {
  std::mt19937 rng(32);
  auto pick = [&rng](std::initializer_list<json> xs) { return *(xs.begin() + rng() % xs.size()); };
  int checked = 0;
  for (int i = 0; i < 200 && checked < 40; ++i) {
    json p = {{"tp", pick({1, 2, 8})},
              {"pp", pick({1, 2, 4})},
              {"microbatch_size", pick({1, 2})},
              {"global_batch", pick({64, 128})},
              {"recompute", pick({"none", "full", "op"})},
              {"zero", pick({0, 3})}};
    if (p["tp"] != 1) p["sequence_parallel"] = true;
    if (p["pp"] != 1 && rng() % 2) p["vpp"] = 2;
    json request = {{"op", "step"},
                    {"model", pick({"llama3-8b", "llama3-70b"})},
                    {"hardware", "h100-sxm"},
                    {"cluster", {{"gpus", pick({16, 64})}}},
                    {"parallel", p},
                    {"software", pick({"pytorch", "pytorch-compile"})},
                    {"precision", pick({"bf16", "fp8"})},
                    {"efficiency", {{"split_projections", true}}}};  // torchtitan's own GEMMs
    if (ask(request).contains("error")) continue;
    const json out = exported(request);
    ASSERT_FALSE(out.contains("error")) << out.dump();
    if (!out["notes"].empty()) continue;
    const json back = import(out["text"].get<std::string>(), {{"hardware", "h100-sxm"}});
    ASSERT_FALSE(back.contains("error")) << request.dump() << back.dump();
    EXPECT_EQ(ask(back["request"]), ask(request)) << request.dump() << "\n" << out["text"].get<std::string>();
    ++checked;
  }
  EXPECT_GE(checked, 20);
}

TEST(ConfigImportTorchtitan, BadTomlAndUnknownKeysAreNamed) {
  json r = import("[model]\nname = \"llama3\"\nflavor = 8B\n", json::object());
  EXPECT_EQ(r["error"]["field"], "text") << r.dump();
  EXPECT_NE(r["error"]["message"].get<std::string>().find("line 3"), std::string::npos) << r.dump();
  r = import("[training]\nseq_len = 1\nseq_len = 2\n", json::object());
  EXPECT_NE(r["error"]["message"].get<std::string>().find("given twice"), std::string::npos) << r.dump();
  r = import("[model]\nname = \"llama3\"\nflavor = \"debugmodel\"\n", json::object());
  EXPECT_EQ(r["error"]["code"], "invalid_value") << r.dump();
  r = import("[model]\nname = \"llama3\"\nflavor = \"8B\"\n[training]\nmy_knob = [1, 2]\n", json::object());
  ASSERT_FALSE(r.contains("error")) << r.dump();
  EXPECT_TRUE(lists(r["unmapped"], "training.my_knob (line 5)")) << r.dump();
  // torchtitan's defaults: selective, every 2nd layer (config_manager.py), which the engine costs as full.
  EXPECT_TRUE(lists(r["unmapped"], "activation_checkpoint.selective_ac_option (default)")) << r.dump();
  EXPECT_EQ(r["request"]["parallel"]["recompute"], "full");
}

}  // namespace
