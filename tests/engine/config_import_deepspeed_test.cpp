// config_import / config_export "deepspeed": DeepSpeed's own ZeRO-3 example config (v0.19.5) with the model from
// `base`; export → import gives the same step over seeded requests; bad JSON is refused naming the line.
#include <gtest/gtest.h>

#include <fstream>
#include <nlohmann/json.hpp>
#include <random>
#include <sstream>
#include <string>

#include "parascope/api.hpp"

namespace {

using nlohmann::json;

json ask(const json& request) { return json::parse(parascope::call(request.dump())); }

json import(const std::string& text, const json& base) {
  return ask({{"op", "config_import"}, {"format", "deepspeed"}, {"text", text}, {"base", base}});
}

bool lists(const json& entries, const std::string& key) {
  for (const json& e : entries) {
    if (e["key"] == key) return true;
  }
  return false;
}

TEST(ConfigImportDeepspeed, DeepSpeedsZero3Example) {
  std::ifstream in(std::string(PARASCOPE_SOURCE_DIR) + "/tests/fixtures/deepspeed-configs/ds_config_zero3.json");
  std::stringstream text;
  text << in.rdbuf();
  const json r = import(text.str(), {{"model", "llama3-8b"}, {"cluster", {{"gpus", 16}}}});
  ASSERT_FALSE(r.contains("error")) << r.dump();
  EXPECT_EQ(r["request"]["parallel"]["zero"], 3);
  EXPECT_EQ(r["request"]["parallel"]["microbatch_size"], 1);
  EXPECT_EQ(r["request"]["parallel"]["global_batch"], 16);  // 1 × 1 accumulation × 16 ranks
  EXPECT_EQ(r["request"]["efficiency"]["dp_overlap"], true);
  EXPECT_EQ(r["request"]["software"], "deepspeed");
  EXPECT_TRUE(lists(r["ignored"], "optimizer"));
  EXPECT_TRUE(lists(r["ignored"], "zero_optimization.stage3_max_live_parameters"));
  EXPECT_TRUE(r["unmapped"].empty()) << r["unmapped"].dump();
  EXPECT_FALSE(ask(r["request"]).contains("error"));
  EXPECT_EQ(import(text.str(), json::object())["error"]["field"], "base.model");  // the model comes from base
}

TEST(ConfigImportDeepspeed, SeededRequestsRoundTrip) {
  std::mt19937 rng(32);
  auto pick = [&rng](std::initializer_list<json> xs) { return *(xs.begin() + rng() % xs.size()); };
  int checked = 0;
  for (int i = 0; i < 100 && checked < 30; ++i) {
    json request = {
        {"op", "step"},
        {"model", pick({"gpt2-124m", "llama3-8b", "mixtral-8x7b"})},
        {"hardware", "h100-sxm"},
        {"cluster", {{"gpus", pick({8, 16, 64})}}},
        {"software", "deepspeed"},
        {"parallel",
         {{"microbatch_size", pick({1, 2, 4})}, {"global_batch", pick({64, 256})}, {"zero", pick({0, 1, 2, 3})}}}};
    if (ask(request).contains("error")) continue;
    const json out = ask({{"op", "config_export"}, {"format", "deepspeed"}, {"request", request}});
    ASSERT_FALSE(out.contains("error")) << out.dump();
    if (!out["notes"].empty()) continue;
    const json back = import(out["text"].get<std::string>(),
                             {{"model", request["model"]}, {"hardware", "h100-sxm"}, {"cluster", request["cluster"]}});
    ASSERT_FALSE(back.contains("error")) << back.dump();
    EXPECT_EQ(ask(back["request"]), ask(request)) << request.dump() << "\n" << out["text"].get<std::string>();
    ++checked;
  }
  EXPECT_GE(checked, 20);
}

TEST(ConfigImportDeepspeed, BadJsonAndAutoAreNamed) {
  json r = import("{\n  \"train_batch_size\": 8,\n  oops\n}", {{"model", "gpt2-124m"}});
  EXPECT_EQ(r["error"]["message"], "the DeepSpeed config is not valid JSON at line 3") << r.dump();
  r = import("{\"train_micro_batch_size_per_gpu\": \"auto\", \"bf16\": {\"enabled\": true}, \"my_knob\": 1}",
             {{"model", "gpt2-124m"}});
  ASSERT_FALSE(r.contains("error")) << r.dump();
  EXPECT_TRUE(lists(r["unmapped"], "train_micro_batch_size_per_gpu")) << r.dump();
  EXPECT_TRUE(lists(r["unmapped"], "my_knob")) << r.dump();
  r = import("{\"train_batch_size\": 10, \"train_micro_batch_size_per_gpu\": 1, \"gradient_accumulation_steps\": 1}",
             {{"model", "gpt2-124m"}, {"cluster", {{"gpus", 8}}}});
  EXPECT_EQ(r["error"]["code"], "inconsistent") << r.dump();
}

}  // namespace
