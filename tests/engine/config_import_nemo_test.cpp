// config_import "nemo": Megatron-Bridge recipe YAMLs (tests/fixtures/nemo-recipes) cost as the engine's presets,
// export as Bridge overrides and re-import to the same request; malformed YAML is refused naming its line.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <random>
#include <string>

#include "../../engine/src/yaml_reader.hpp"
#include "fixture_text.hpp"
#include "parascope/api.hpp"
#include "parascope/error.hpp"
#include "parascope/presets.hpp"

namespace {

using nlohmann::json;

json ask(const json& request) { return json::parse(parascope::call(request.dump())); }

std::string fixture(const std::string& name) { return parascope::test::fixture_text("nemo-recipes", name); }

json import(const std::string& text, const json& base = nullptr) {
  json r = {{"op", "config_import"}, {"format", "nemo"}, {"text", text}};
  if (!base.is_null()) r["base"] = base;
  return ask(r);
}

json exported(const json& request) { return ask({{"op", "config_export"}, {"format", "nemo"}, {"request", request}}); }

bool lists(const json& entries, const std::string& key_start, const char* name = "key") {
  for (const json& e : entries) {
    if (e[name].get<std::string>().rfind(key_start, 0) == 0) return true;
  }
  return false;
}

std::string error_message(const json& r) { return r.value("error", json::object()).value("message", ""); }

/// Exported as Bridge overrides and imported back (with the GPUs, which a YAML does not hold): the same request.
void expect_round_trip(const json& request) {
  const json out = exported(request);
  ASSERT_FALSE(out.contains("error")) << out.dump();
  const std::string text = out["text"].get<std::string>();
  const json back = import(text, {{"hardware", request["hardware"]}, {"cluster", request["cluster"]}});
  ASSERT_FALSE(back.contains("error")) << request.dump() << "\n" << text << back.dump();
  EXPECT_EQ(ask(back["request"]), ask(request)) << request.dump() << "\n" << text;
  EXPECT_TRUE(back["unmapped"].empty()) << back["unmapped"].dump();
  EXPECT_EQ(exported(back["request"])["text"], text);
}

TEST(ConfigImportNemo, BridgeRecipesCostAsThePresetsAndRoundTrip) {
  const std::pair<const char*, const char*> shipped[] = {{"llama3_8b_pretrain_2gpu_h100_bf16.yaml", "llama3-8b"},
                                                         {"llama3_70b_pretrain_32gpu_h100_bf16.yaml", "llama3-70b"}};
  for (const auto& [file, preset] : shipped) {
    const json r = import(fixture(file));
    ASSERT_FALSE(r.contains("error")) << file << r.dump();
    EXPECT_TRUE(r["unmapped"].empty()) << file << r["unmapped"].dump();
    EXPECT_TRUE(lists(r["assumed"], "cluster.gpus", "field")) << r["assumed"].dump();
    json as_preset = r["request"];
    as_preset["model"] = preset;
    EXPECT_EQ(ask(r["request"]), ask(as_preset)) << file;
    expect_round_trip(r["request"]);
  }
  const json r8 = import(fixture("llama3_8b_pretrain_2gpu_h100_bf16.yaml"));
  EXPECT_EQ(r8["request"]["cluster"]["gpus"], 2);  // tp·pp·cp: the recipe's "2gpu"
  EXPECT_EQ(r8["request"]["parallel"]["cp"], 2);
  EXPECT_EQ(r8["request"]["parallel"]["global_batch"], 512);
  EXPECT_EQ(r8["request"]["parallel"]["zero"], 1);  // ddp.use_distributed_optimizer
  EXPECT_EQ(r8["request"]["efficiency"]["dp_overlap"], true);
  EXPECT_TRUE(lists(r8["ignored"], "optimizer.lr (line "));
  EXPECT_TRUE(lists(r8["ignored"], "model.rotary_base (line "));
  EXPECT_TRUE(lists(r8["ignored"], "optimizer.use_distributed_optimizer"));  // ddp's twin, read there
  const json r70 = import(fixture("llama3_70b_pretrain_32gpu_h100_bf16.yaml"));
  const json& p = r70["request"]["parallel"];
  EXPECT_EQ(r70["request"]["cluster"]["gpus"], 32);
  EXPECT_EQ(p["tp"], 4);
  EXPECT_EQ(p["pp"], 4);
  EXPECT_EQ(p["vpp"], 5);
  EXPECT_EQ(p["sequence_parallel"], true);
  EXPECT_EQ(r70["request"]["efficiency"]["tp_comm_overlap"], true);  // comm_overlap.tp_comm_overlap
}

TEST(ConfigImportNemo, RoundTripOverSeededRandomRequests) {
  std::mt19937 rng(32);
  auto pick = [&rng](std::initializer_list<json> xs) { return *(xs.begin() + rng() % xs.size()); };
  std::vector<std::string> ids;
  for (const parascope::ModelShape& m : parascope::model_presets()) ids.push_back(m.id);
  int checked = 0;
  for (int i = 0; i < 300 && checked < 40; ++i) {
    json p = {{"tp", pick({1, 2, 4, 8})},
              {"pp", pick({1, 2, 4})},
              {"microbatch_size", pick({1, 2})},
              {"global_batch", pick({64, 128, 256})},
              {"recompute", pick({"none", "selective", "full"})},
              {"zero", pick({0, 1, 2, 3})}};
    if (p["tp"] != 1) p["sequence_parallel"] = pick({true, false});
    if (p["pp"] != 1 && rng() % 2) p["vpp"] = 2;
    if (rng() % 3 == 0) p["cp"] = 2;
    if (rng() % 3 == 0) p["ep"] = pick({2, 4, 8});
    json request = {{"op", "step"},           {"model", ids[rng() % ids.size()]},
                    {"hardware", "h100-sxm"}, {"cluster", {{"gpus", pick({8, 32, 64, 128})}}},
                    {"parallel", p},          {"precision", rng() % 3 == 0 ? "fp8" : "bf16"}};
    if (ask(request).contains("error") || !exported(request)["notes"].empty()) continue;
    expect_round_trip(request);
    ++checked;
  }
  EXPECT_GE(checked, 20);
}

const std::string kSmall =
    "model:\n  num_layers: 2\n  hidden_size: 64\n  num_attention_heads: 4\n  seq_length: 128\n  vocab_size: 256\n";

TEST(ConfigImportNemo, PrecisionRecipesByNameOrByField) {
  json r = import(kSmall + "mixed_precision: bf16_with_mxfp8_mixed\n", {{"hardware", "b200"}});  // MXFP8: Blackwell
  EXPECT_EQ(r["request"]["precision"], "fp8") << r.dump();
  EXPECT_EQ(r["request"]["fp8_recipe"], "mxfp8");
  r = import(kSmall + "mixed_precision: bf16-with-fp8-current-scaling-mixed\n");
  EXPECT_EQ(r["request"]["precision"], "fp8") << r.dump();
  EXPECT_TRUE(lists(r["unmapped"], "mixed_precision (line 7)")) << r.dump();  // its first and last layers in bf16
  r = import(kSmall + "mixed_precision:\n  bf16: true\n  fp8: hybrid\n");
  EXPECT_EQ(r["request"]["precision"], "fp8") << r.dump();  // fp8_recipe: MixedPrecisionConfig's tensorwise
  EXPECT_TRUE(r["unmapped"].empty()) << r.dump();
  r = import(kSmall);
  EXPECT_TRUE(lists(r["assumed"], "precision", "field")) << r.dump();  // the recipes' bf16_mixed
  r = import(kSmall + "mixed_precision: fp16_mixed\n");
  EXPECT_TRUE(lists(r["unmapped"], "mixed_precision")) << r.dump();  // fp16: costed as bf16
}

TEST(ConfigImportNemo, SettingsAreNamedByTheirKeysAndLines) {
  json r = import(kSmall + "  my_own_key: 3\nmy_section:\n  a: 1\n");
  ASSERT_FALSE(r.contains("error")) << r.dump();
  EXPECT_TRUE(lists(r["unmapped"], "model.my_own_key (line 7)")) << r.dump();
  EXPECT_TRUE(lists(r["unmapped"], "my_section.a (line 9)")) << r.dump();
  EXPECT_TRUE(lists(r["assumed"], "ffn", "field")) << r.dump();  // TransformerConfig's 4 × hidden
  EXPECT_EQ(r["request"]["model"]["ffn"], 256);
  r = import("model:\n  num_layers: two\n  hidden_size: 64\n  num_attention_heads: 4\n");
  EXPECT_EQ(r["error"]["field"], "text") << r.dump();
  EXPECT_NE(error_message(r).find("model.num_layers (line 2)"), std::string::npos) << r.dump();
  r = import("model:\n  hidden_size: 64\n  num_attention_heads: 4\n  seq_length: 8\n  vocab_size: 8\n");
  EXPECT_EQ(r["error"]["code"], "missing_field") << r.dump();
  EXPECT_NE(error_message(r).find("model.num_layers"), std::string::npos) << r.dump();
  r = import(kSmall + "dataset:\n  seq_length: 256\n");
  EXPECT_EQ(r["error"]["code"], "inconsistent") << r.dump();
  EXPECT_NE(error_message(r).find("dataset.seq_length (line 8)"), std::string::npos) << r.dump();
  r = import(kSmall + "  sequence_parallel: 1\n");
  EXPECT_EQ(error_message(r), "model.sequence_parallel (line 7) must be true or false") << r.dump();
  r = import("- a\n- b\n");
  EXPECT_EQ(r["error"]["code"], "wrong_type") << r.dump();
}

json yaml_error(const std::string& text) {
  try {
    parascope::detail::read_yaml(text);
  } catch (const parascope::RequestError& e) {
    return {{"code", e.code}, {"message", e.message}, {"field", e.field}};
  }
  return nullptr;
}

TEST(ConfigImportNemo, TheYamlReaderReadsTheRecipesSubset) {
  json lines;
  const json doc = parascope::detail::read_yaml(
      "# a comment\nmodel:\n  n: 3  # trailing\n  x: 3.0e-4\n  s: 'it''s'\n  q: \"a\\\"b\"\n  none: ~\n"
      "  flag: False\n  list: [1, 'two', 3]\n  block:\n  - a\n  - b\n  empty: {}\n  deep:\n    k: v # c\n",
      &lines);
  EXPECT_EQ(doc["model"]["n"], 3);
  EXPECT_EQ(doc["model"]["x"], 3.0e-4);  // OmegaConf's float, not YAML 1.1's string
  EXPECT_EQ(doc["model"]["s"], "it's");
  EXPECT_EQ(doc["model"]["q"], "a\"b");
  EXPECT_TRUE(doc["model"]["none"].is_null());
  EXPECT_EQ(doc["model"]["flag"], false);
  EXPECT_EQ(doc["model"]["list"], json::array({1, "two", 3}));
  EXPECT_EQ(doc["model"]["block"], json::array({"a", "b"}));
  EXPECT_EQ(doc["model"]["empty"], json::object());
  EXPECT_EQ(doc["model"]["deep"]["k"], "v");
  EXPECT_EQ(lines["model.deep.k"], 15);
  EXPECT_EQ(lines["model.block"], 11);
}

TEST(ConfigImportNemo, TheYamlReaderRefusesWhatItDoesNotReadNamingTheLine) {
  const std::pair<const char*, const char*> cases[] = {
      {"a:\n\tb: 1\n", "the YAML is malformed at line 2: a tab in the indentation (YAML indents with spaces)"},
      {"a: 1\na: 2\n", "the YAML is malformed at line 2: the key a is given twice"},
      {"a: &x 1\n", "the YAML is malformed at line 1: anchors and aliases (&, *) are not read"},
      {"a: {b: 1}\n",
       "the YAML is malformed at line 1: flow maps ({...}) other than {} are not read: write the map "
       "as a block"},
      {"a: |\n  text\n", "the YAML is malformed at line 1: multi-line strings (| and >) are not read"},
      {"a: yes\n",
       "the YAML is malformed at line 1: \"yes\" is a boolean in YAML 1.1 and a string in 1.2: write true "
       "or false"},
      {"a:\n  b: 1\n c: 2\n", "the YAML is malformed at line 3: indentation that matches no enclosing block"},
      {"a: 1\n  b: 2\n", "the YAML is malformed at line 2: an indented block under a key that has a value"},
      {"a:\n- b: 1\n  - c: 2\n", "the YAML is malformed at line 3: a list item among a map's keys"},
      {"a: [1, [2]]\n", "the YAML is malformed at line 1: nested flow collections are not read"},
      {"a: 'open\n",
       "the YAML is malformed at line 1: a quote is not closed on its line (multi-line strings are not "
       "read)"},
      {"just words\n", "the YAML is malformed at line 1: a line that is neither `key: value` nor `- item`"},
      {"a: 1\n---\nb: 2\n", "the YAML is malformed at line 2: several documents in one file are not read"}};
  for (const auto& [text, message] : cases) {
    const json e = yaml_error(text);
    ASSERT_FALSE(e.is_null()) << text;
    EXPECT_EQ(e["message"], message) << text;
    EXPECT_EQ(e["code"], "invalid_value");
    EXPECT_EQ(e["field"], "text");
  }
}

}  // namespace
