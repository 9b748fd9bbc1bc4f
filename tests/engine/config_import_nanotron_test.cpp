// config_import "nanotron": nanotron's own example config (examples/config_tiny_llama.yaml at 2411b02) read key by
// key into a step request under `software: "nanotron"`; its data_stages (a YAML list of maps) ignored; bad keys named.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <random>
#include <set>
#include <string>

#include "../../engine/src/yaml_reader.hpp"
#include "fixture_text.hpp"
#include "parascope/api.hpp"

namespace {

using nlohmann::json;

json ask(const json& request) { return json::parse(parascope::call(request.dump())); }

json import(const std::string& text) { return ask({{"op", "config_import"}, {"format", "nanotron"}, {"text", text}}); }

json exported(const json& request) {
  return ask({{"op", "config_export"}, {"format", "nanotron"}, {"request", request}});
}

bool lists(const json& entries, const std::string& key_start) {
  for (const json& e : entries) {
    if (e["key"].get<std::string>().rfind(key_start, 0) == 0) return true;
  }
  return false;
}

TEST(ConfigImportNanotron, NanotronsTinyLlamaExample) {
  const json r = import(parascope::test::fixture_text("nanotron-configs", "config_tiny_llama.yaml"));
  ASSERT_FALSE(r.contains("error")) << r.dump();
  const json& m = r["request"]["model"];
  EXPECT_EQ(m["layers"], 28);
  EXPECT_EQ(m["hidden"], 2048);
  EXPECT_EQ(m["heads"], 16);
  EXPECT_EQ(m["kv_heads"], 2);
  EXPECT_EQ(m["ffn"], 11008);
  EXPECT_EQ(m["vocab"], 128256);  // a multiple of make_vocab_size_divisible_by 1 × tp 2 already
  EXPECT_EQ(m["seq"], 4096);      // tokens.sequence_length, not max_position_embeddings
  EXPECT_EQ(m["activation"], "swiglu");
  EXPECT_EQ(m["tied_embeddings"], true);
  const json& p = r["request"]["parallel"];
  EXPECT_EQ(p["dp"], 4);
  EXPECT_EQ(p["tp"], 2);
  EXPECT_FALSE(p.contains("pp"));
  EXPECT_EQ(p["microbatch_size"], 3);
  EXPECT_EQ(p["global_batch"], 12);         // dp 4 × micro_batch_size 3 × batch_accumulation_per_replica 1
  EXPECT_EQ(p["sequence_parallel"], true);  // tp_mode REDUCE_SCATTER
  EXPECT_FALSE(p.contains("zero"));         // zero_stage 0
  EXPECT_EQ(r["request"]["cluster"]["gpus"], 8);
  EXPECT_EQ(r["request"]["efficiency"], json({{"tp_async_shards", true}}));  // tp_linear_async_communication
  EXPECT_EQ(r["request"]["software"], "nanotron");
  EXPECT_TRUE(r["unmapped"].empty()) << r["unmapped"].dump();
  EXPECT_TRUE(lists(r["ignored"], "data_stages"));
  EXPECT_TRUE(lists(r["ignored"], "optimizer.learning_rate_scheduler.learning_rate"));
  ASSERT_EQ(r["assumed"].size(), 1u) << r["assumed"].dump();
  EXPECT_EQ(r["assumed"][0]["field"], "hardware");  // a nanotron config does not name the GPU
  EXPECT_FALSE(ask(r["request"]).contains("error"));
}

TEST(ConfigImportNanotron, PipelineEngineRecomputeZeroAndPadding) {
  std::string text = parascope::test::fixture_text("nanotron-configs", "config_tiny_llama.yaml");
  auto set = [&](const std::string& from, const std::string& to) {
    const std::size_t at = text.find(from);
    ASSERT_NE(at, std::string::npos) << from;
    text.replace(at, from.size(), to);
  };
  set("  pp: 1\n", "  pp: 2\n  recompute_layer: true\n");
  set("  pp_engine: 1f1b\n", "  pp_engine: afab\n");
  set("  zero_stage: 0\n", "  zero_stage: 1\n");
  set("  make_vocab_size_divisible_by: 1\n", "  make_vocab_size_divisible_by: 100\n");
  const json r = import(text);
  ASSERT_FALSE(r.contains("error")) << r.dump();
  const json& p = r["request"]["parallel"];
  EXPECT_EQ(p["pp"], 2);
  EXPECT_EQ(p["schedule"], "gpipe");  // afab: all forward, all backward
  EXPECT_EQ(p["recompute"], "full");
  EXPECT_EQ(p["zero"], 1);
  EXPECT_EQ(r["request"]["cluster"]["gpus"], 16);
  EXPECT_EQ(r["request"]["model"]["vocab"], 128400);  // the next multiple of 100 × tp 2
}

TEST(ConfigImportNanotron, TheTensorParallelLinearsCommunicationIsRead) {
  const std::string text = parascope::test::fixture_text("nanotron-configs", "config_tiny_llama.yaml");
  // Asynchronous linears in ALL_REDUCE mode: nanotron's TensorParallelRowLinear refuses them, so does the import.
  std::string all_reduce = text;
  all_reduce.replace(all_reduce.find("tp_mode: REDUCE_SCATTER"), 23, "tp_mode: ALL_REDUCE");
  const json e = import(all_reduce);
  ASSERT_TRUE(e.contains("error")) << e.dump();
  EXPECT_NE(e["error"]["message"].get<std::string>().find("parallelism.tp_linear_async_communication"),
            std::string::npos)
      << e.dump();
  // Synchronous linears keeping the gathered inputs: no re-gather costed, and the memory it keeps listed as unmapped.
  std::string kept = text;
  kept.replace(kept.find("tp_linear_async_communication: true"), 35,
               "tp_linear_async_communication: false\n  tp_recompute_allgather: false");
  const json r = import(kept);
  ASSERT_FALSE(r.contains("error")) << r.dump();
  EXPECT_EQ(r["request"]["efficiency"], json({{"tp_backward_allgather", false}}));
  EXPECT_TRUE(lists(r["unmapped"], "parallelism.tp_recompute_allgather"));
}

TEST(ConfigImportNanotron, BadValuesAndUnknownKeysAreNamed) {
  const std::string text = parascope::test::fixture_text("nanotron-configs", "config_tiny_llama.yaml");
  std::string bad = text;
  bad.replace(bad.find("pp_engine: 1f1b"), 15, "pp_engine: zb1");
  const json e = import(bad);
  ASSERT_TRUE(e.contains("error")) << e.dump();
  EXPECT_EQ(e["error"]["field"], "text");
  EXPECT_NE(e["error"]["message"].get<std::string>().find("parallelism.pp_engine (line"), std::string::npos) << e;
  std::string unknown = text;
  unknown.replace(unknown.find("tokens:\n"), 8, "tokens:\n  warp_factor: 9\n");
  const json u = import(unknown);
  ASSERT_FALSE(u.contains("error")) << u.dump();
  EXPECT_TRUE(lists(u["unmapped"], "tokens.warp_factor"));
}

TEST(ConfigImportNanotron, TheYamlReaderReadsAListOfMapsAsOneLeaf) {
  json lines;
  const json doc =
      parascope::detail::read_yaml("stages:\n- name: a\n  data:\n    seed: 1\n-   name: b\nafter: 2\n", &lines);
  EXPECT_EQ(doc["stages"][0]["name"], "a");
  EXPECT_EQ(doc["stages"][0]["data"]["seed"], 1);
  EXPECT_EQ(doc["stages"][1]["name"], "b");
  EXPECT_EQ(doc["after"], 2);
  EXPECT_EQ(lines, json({{"stages", 2}, {"after", 6}}));
}

TEST(ConfigExportNanotron, TheTinyLlamaExampleComesBackAsItWasRead) {
  const json first = import(parascope::test::fixture_text("nanotron-configs", "config_tiny_llama.yaml"));
  ASSERT_FALSE(first.contains("error")) << first.dump();
  const json out = exported(first["request"]);
  ASSERT_FALSE(out.contains("error")) << out.dump();
  EXPECT_EQ(out["format"], "nanotron");
  EXPECT_TRUE(out["notes"].empty()) << out["notes"].dump();
  const std::string text = out["text"].get<std::string>();
  EXPECT_NE(text.find("torchrun --nproc-per-node 8 --nnodes 1 run_train.py"), std::string::npos) << text;
  EXPECT_NE(text.find("  tp_mode: REDUCE_SCATTER\n"), std::string::npos) << text;
  EXPECT_NE(text.find("    num_key_value_heads: 2\n"), std::string::npos) << text;
  const json back = import(text);
  ASSERT_FALSE(back.contains("error")) << back.dump();
  EXPECT_EQ(back["request"], first["request"]) << text;
  EXPECT_TRUE(back["unmapped"].empty()) << back["unmapped"].dump();
}

TEST(ConfigExportNanotron, SeededRequestsRoundTripAndWhatNanotronCannotSayIsANote) {
  std::mt19937 rng(34);
  auto pick = [&rng](std::initializer_list<json> xs) { return *(xs.begin() + rng() % xs.size()); };
  int checked = 0;
  for (int i = 0; i < 200 && checked < 40; ++i) {
    json p = {{"tp", pick({1, 2, 8})},
              {"pp", pick({1, 2, 4})},
              {"microbatch_size", pick({1, 2})},
              {"global_batch", pick({64, 128})},
              {"recompute", pick({"none", "full"})},
              {"zero", pick({0, 1})}};
    if (p["tp"] != 1 && rng() % 2) p["sequence_parallel"] = true;
    if (p["pp"] != 1) p["schedule"] = pick({"gpipe", "1f1b"});
    json request = {{"op", "step"},           {"model", pick({"llama3-8b", "llama3-70b"})},
                    {"hardware", "h100-sxm"}, {"cluster", {{"gpus", pick({16, 64})}}},
                    {"parallel", p},          {"software", "nanotron"}};
    if (ask(request).contains("error")) continue;
    const json out = exported(request);
    ASSERT_FALSE(out.contains("error")) << out.dump();
    EXPECT_TRUE(out["notes"].empty()) << request.dump() << out["notes"].dump();
    const json back = import(out["text"].get<std::string>());
    ASSERT_FALSE(back.contains("error")) << request.dump() << back.dump();
    EXPECT_EQ(ask(back["request"]), ask(request)) << request.dump() << "\n" << out["text"].get<std::string>();
    ++checked;
  }
  EXPECT_GE(checked, 20);
  // What nanotron cannot run is written as its nearest setting, each with a note naming the setting.
  const json far = {{"op", "step"},
                    {"model", "mixtral-8x7b"},
                    {"hardware", "h100-sxm"},
                    {"cluster", {{"gpus", 64}}},
                    {"parallel",
                     {{"tp", 2},
                      {"pp", 4},
                      {"vpp", 2},
                      {"ep", 8},
                      {"zero", 3},
                      {"recompute", "selective"},
                      {"global_batch", 64},
                      {"schedule", "interleaved"}}},
                    {"software", "megatron-core"}};
  ASSERT_FALSE(ask(far).contains("error")) << ask(far).dump();
  const json out = exported(far);
  ASSERT_FALSE(out.contains("error")) << out.dump();
  std::set<std::string> settings;
  for (const json& n : out["notes"]) settings.insert(n["setting"].get<std::string>());
  for (const char* s : {"model.experts", "zero", "vpp", "ep", "recompute", "schedule", "software"}) {
    EXPECT_TRUE(settings.count(s)) << s << " " << out["notes"].dump();
  }
  EXPECT_NE(out["text"].get<std::string>().find("  zero_stage: 1\n"), std::string::npos);
}

}  // namespace
