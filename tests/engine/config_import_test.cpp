// config_import: published Hugging Face config.json files become step requests that cost exactly as the engine's
// presets of the same models; every key is mapped, ignored with a reason or listed as unmapped; bad files refused.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <string>

#include "fixture_text.hpp"
#include "parascope/api.hpp"

namespace {

using nlohmann::json;

json ask(const json& request) { return json::parse(parascope::call(request.dump())); }

std::string fixture(const std::string& name) { return parascope::test::fixture_text("hf-configs", name); }

json import(const std::string& file, json extra = json::object()) {
  json request = {{"op", "config_import"}, {"format", "huggingface"}, {"text", fixture(file)}};
  request.update(extra);
  return ask(request);
}

/// The imported request and the preset's, both as step answers: every number that depends on the model's shape.
void expect_costs_as_preset(const json& imported, const std::string& preset) {
  ASSERT_FALSE(imported.contains("error")) << imported.dump();
  json mine = imported["request"];
  json theirs = mine;
  theirs["model"] = preset;
  const json a = ask(mine), b = ask(theirs);
  ASSERT_FALSE(a.contains("error")) << a.dump();
  ASSERT_FALSE(b.contains("error")) << b.dump();
  for (const char* key : {"step_time", "flops_per_token", "hardware_flops_per_token", "mfu", "tokens_per_second"}) {
    EXPECT_EQ(a[key], b[key]) << preset << ": " << key;
  }
  EXPECT_EQ(a["memory_per_gpu"], b["memory_per_gpu"]) << preset;
  EXPECT_EQ(a["breakdown"], b["breakdown"]) << preset;
}

/// Whether `list` (of {key, why}) names `key`.
bool lists(const json& list, const std::string& key) {
  for (const json& e : list) {
    if (e["key"] == key) return true;
  }
  return false;
}

TEST(ConfigImport, PublishedConfigsCostExactlyAsThePresets) {
  expect_costs_as_preset(import("meta-llama-3-8b.json"), "llama3-8b");
  expect_costs_as_preset(import("mixtral-8x7b-v0.1.json"), "mixtral-8x7b");
  expect_costs_as_preset(import("gpt2.json"), "gpt2-124m");
  // DeepSeek-V3's config gives a 163,840-token context; the preset trains at 4,096 (its report, Sec. 4.2).
  expect_costs_as_preset(import("deepseek-v3.json", {{"seq", 4096}}), "deepseek-v3");
}

TEST(ConfigImport, EveryKeyIsMappedIgnoredOrUnmappedWithAReason) {
  const json r = import("deepseek-v3.json", {{"seq", 4096}});
  ASSERT_FALSE(r.contains("error")) << r.dump();
  // What the engine cannot express is said, never dropped.
  EXPECT_TRUE(lists(r["unmapped"], "num_nextn_predict_layers"));
  EXPECT_TRUE(lists(r["unmapped"], "quantization_config"));
  EXPECT_TRUE(lists(r["ignored"], "rope_scaling"));
  EXPECT_TRUE(lists(r["ignored"], "topk_method"));
  for (const json& e : r["unmapped"]) EXPECT_FALSE(e["why"].get<std::string>().empty());
  for (const json& e : r["ignored"]) EXPECT_FALSE(e["why"].get<std::string>().empty());
  // An unknown key is listed as such.
  json config = json::parse(fixture("meta-llama-3-8b.json"));
  config["my_new_trick"] = 3;
  const json u = ask({{"op", "config_import"}, {"format", "huggingface"}, {"text", config.dump()}});
  ASSERT_FALSE(u.contains("error")) << u.dump();
  EXPECT_TRUE(lists(u["unmapped"], "my_new_trick"));
  EXPECT_TRUE(u["unmapped"].size() == 1) << u["unmapped"].dump();
}

TEST(ConfigImport, WhatTheFileLeavesOpenIsListedAsAssumed) {
  const json r = import("gpt2.json");
  ASSERT_FALSE(r.contains("error")) << r.dump();
  std::string fields;
  for (const json& a : r["assumed"]) fields += a["field"].get<std::string>() + ";";
  EXPECT_NE(fields.find("ffn;"), std::string::npos) << fields;              // n_inner absent: 4 × hidden
  EXPECT_NE(fields.find("tied_embeddings;"), std::string::npos) << fields;  // GPT-2's default: tied
  EXPECT_NE(fields.find("seq;"), std::string::npos) << fields;              // max_position_embeddings
  const json given =
      import("gpt2.json",
             {{"seq", 512},
              {"base", {{"hardware", "a100-80gb"}, {"cluster", {{"gpus", 1}}}, {"parallel", {{"global_batch", 4}}}}}});
  EXPECT_EQ(given["request"]["model"]["seq"], 512);
  EXPECT_EQ(given["request"]["hardware"], "a100-80gb");
  for (const json& a : given["assumed"]) EXPECT_NE(a["field"], "seq");
}

TEST(ConfigImport, BadFilesAreRefusedNamingTheLineOrTheMissingKey) {
  const std::string broken = "{\n  \"hidden_size\": 4096,\n  oops\n}";
  json r = ask({{"op", "config_import"}, {"format", "huggingface"}, {"text", broken}});
  ASSERT_TRUE(r.contains("error"));
  EXPECT_EQ(r["error"]["code"], "invalid_json");
  EXPECT_NE(r["error"]["message"].get<std::string>().find("line 3"), std::string::npos) << r.dump();
  r = ask({{"op", "config_import"}, {"format", "huggingface"}, {"text", "{\"hidden_size\": 4096}"}});
  EXPECT_EQ(r["error"]["code"], "missing_field") << r.dump();
  r = ask({{"op", "config_import"}, {"format", "keras"}, {"text", "--num-layers 2"}});
  EXPECT_EQ(r["error"]["field"], "format") << r.dump();
  json config = json::parse(fixture("meta-llama-3-8b.json"));
  config["num_key_value_heads"] = 7;  // does not divide 32 heads
  r = ask({{"op", "config_import"}, {"format", "huggingface"}, {"text", config.dump()}});
  EXPECT_EQ(r["error"]["code"], "inconsistent") << r.dump();
  EXPECT_EQ(r["error"]["field"], "text");
  r = ask({{"op", "config_import"}, {"format", "huggingface"}, {"text", "[1, 2]"}});
  EXPECT_EQ(r["error"]["code"], "wrong_type") << r.dump();
}

/// Whether `model` holds every field of `fields` with its value.
bool holds(const json& model, const json& fields) {
  json merged = model;
  merged.update(fields);
  return merged == model;
}

/// No key of a published config is left as one the importer does not know: each is mapped, ignored or refused by name.
void expect_every_key_named(const json& r, const std::string& file) {
  ASSERT_FALSE(r.contains("error")) << file << r.dump();
  for (const json& e : r["unmapped"]) EXPECT_NE(e["why"], "not a key the importer knows") << file << e.dump();
  const json step = ask(r["request"]);
  EXPECT_FALSE(step.contains("error")) << file << step.dump();
}

TEST(ConfigImport, Qwen3DenseAndMoeGptNeoxAndGptOssConfigsAreReadKeyByKey) {
  const json dense = import("qwen3-8b.json", {{"seq", 4096}});
  expect_every_key_named(dense, "qwen3-8b.json");
  const json& d = dense["request"]["model"];
  EXPECT_TRUE(holds(d, {{"layers", 36}, {"ffn", 12288}, {"head_dim", 128}, {"kv_heads", 8}, {"activation", "swiglu"}}))
      << d.dump();
  EXPECT_FALSE(d.contains("experts"));
  EXPECT_TRUE(dense["unmapped"].empty()) << dense["unmapped"].dump();

  const json qwen = import("qwen3-30b-a3b.json", {{"seq", 4096}});
  expect_every_key_named(qwen, "qwen3-30b-a3b.json");
  const json& q = qwen["request"]["model"];
  EXPECT_TRUE(holds(q, {{"experts", 128}, {"top_k", 8}, {"expert_ffn", 768}, {"head_dim", 128}, {"kv_heads", 4}}))
      << q.dump();
  EXPECT_FALSE(q.contains("moe_layer_freq"));                        // decoder_sparse_step 1: every layer
  EXPECT_TRUE(qwen["unmapped"].empty()) << qwen["unmapped"].dump();  // mlp_only_layers [], no sliding window

  const json neox = import("gpt-neox-20b.json");
  expect_every_key_named(neox, "gpt-neox-20b.json");
  const json& n = neox["request"]["model"];
  // attention_bias defaults true (configuration_gpt_neox.py): the engine's bias on every matrix.
  EXPECT_TRUE(holds(
      n, {{"bias", true}, {"norm", "layernorm"}, {"activation", "gelu"}, {"ffn", 24576}, {"tied_embeddings", false}}))
      << n.dump();
  EXPECT_TRUE(lists(neox["ignored"], "use_parallel_residual"));
  EXPECT_TRUE(neox["unmapped"].empty()) << neox["unmapped"].dump();

  const json oss = import("gpt-oss-20b.json", {{"seq", 4096}});
  expect_every_key_named(oss, "gpt-oss-20b.json");
  const json& o = oss["request"]["model"];
  EXPECT_TRUE(holds(o, {{"experts", 32}, {"top_k", 4}, {"expert_ffn", 2880}, {"head_dim", 64}})) << o.dump();
  for (const char* k : {"sliding_window", "layer_types", "attention_bias", "quantization_config"}) {
    EXPECT_TRUE(lists(oss["unmapped"], k)) << k << oss["unmapped"].dump();
  }
  EXPECT_TRUE(lists(oss["ignored"], "swiglu_limit"));
}

TEST(ConfigImport, Gemma2AndQwen2ConfigsAreReadKeyByKey) {
  // Gemma 2 9B: head_dim 256 apart from hidden / heads (3584 / 16 = 224), a tied embedding by gemma2's default, a
  // tanh-approximated GELU gate (the gated MLP's three matrices), logit soft-capping; sliding window 4096.
  const json gemma = import("gemma-2-9b.json", {{"seq", 4096}});
  expect_every_key_named(gemma, "gemma-2-9b.json");
  const json& g = gemma["request"]["model"];
  EXPECT_TRUE(holds(g, {{"layers", 42},
                        {"hidden", 3584},
                        {"heads", 16},
                        {"head_dim", 256},
                        {"kv_heads", 8},
                        {"ffn", 14336},
                        {"activation", "swiglu"},
                        {"vocab", 256000},
                        {"tied_embeddings", true}}))
      << g.dump();
  EXPECT_TRUE(gemma["unmapped"].empty()) << gemma["unmapped"].dump();  // the 4096 window spans a 4096 sequence
  const json longer = import("gemma-2-9b.json", {{"seq", 8192}});
  EXPECT_TRUE(lists(longer["unmapped"], "sliding_window")) << longer["unmapped"].dump();

  // Qwen2 7B: untied, GQA 28 / 4, q/k/v biases (assumed away, named), the sliding window off (use_sliding_window).
  const json qwen = import("qwen2-7b.json", {{"seq", 4096}});
  expect_every_key_named(qwen, "qwen2-7b.json");
  const json& q = qwen["request"]["model"];
  EXPECT_TRUE(holds(q, {{"layers", 28},
                        {"hidden", 3584},
                        {"heads", 28},
                        {"kv_heads", 4},
                        {"ffn", 18944},
                        {"vocab", 152064},
                        {"tied_embeddings", false},
                        {"bias", false}}))
      << q.dump();
  EXPECT_TRUE(qwen["unmapped"].empty()) << qwen["unmapped"].dump();
}

}  // namespace
