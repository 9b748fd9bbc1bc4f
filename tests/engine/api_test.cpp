// The API contract: dispatch, error objects with stable codes and exact messages, and hostile input that must not
// crash.
#include "parascope/api.hpp"

#include <gtest/gtest.h>
#include <sys/wait.h>

#include <cstdio>
#include <nlohmann/json.hpp>
#include <regex>
#include <string>
#include <vector>

namespace {

using nlohmann::json;

json ask(const std::string& request) { return json::parse(parascope::call(request)); }

json error_of(const std::string& request) {
  json r = ask(request);
  EXPECT_TRUE(r.contains("error")) << request << " -> " << r.dump();
  return r.value("error", json::object());
}

TEST(Api, VersionNamesTheEngineAndASemver) {
  json r = ask(R"({"op": "version"})");
  EXPECT_EQ(r["name"], "parascope");
  EXPECT_TRUE(std::regex_match(r["version"].get<std::string>(), std::regex(R"(\d+\.\d+\.\d+)")));
  EXPECT_EQ(r["max_request_bytes"], parascope::kMaxRequestBytes);
}

TEST(Api, PresetsListEveryContractId) {
  json r = ask(R"({"op": "presets"})");
  std::vector<std::string> hw, models;
  for (const auto& h : r["hardware"]) hw.push_back(h["id"]);
  for (const auto& m : r["models"]) models.push_back(m["id"]);
  EXPECT_EQ(hw, (std::vector<std::string>{"a100-40gb", "a100-80gb", "h100-sxm", "h200", "b200", "tpu-v4", "tpu-v5p",
                                          "mi300x", "h800", "gb200", "tpu-v5e", "mi325x"}));
  EXPECT_EQ(models, (std::vector<std::string>{"gpt2-124m", "gpt3-175b", "megatron-1t", "palm-540b", "llama3-8b",
                                              "llama3-70b", "llama3-405b", "mixtral-8x7b", "deepseek-v3"}));
  for (const auto& h : r["hardware"]) {
    for (const char* key :
         {"peak_flops", "memory_bytes", "intra_bandwidth", "intra_latency", "inter_bandwidth", "inter_latency"}) {
      EXPECT_TRUE(h.contains(key)) << h["id"] << " lacks " << key;
      EXPECT_TRUE(h["sources"].contains(key)) << h["id"] << " cites no source for " << key;
    }
    // Every kernel ceiling a preset gives cites where it was measured (or says it is assumed).
    for (const char* key : {"peak_flops_fp8", "compute_units", "gemm_efficiency", "gemm_efficiency_fp8",
                            "attention_efficiency", "attention_efficiency_fa2", "memory_efficiency"}) {
      if (h.contains(key)) EXPECT_TRUE(h["sources"].contains(key)) << h["id"] << " cites no source for " << key;
    }
  }
}

TEST(Api, PresetsSayWhetherADeviceIsAGpuOrATpuChip) {
  json r = ask(R"({"op": "presets"})");
  for (const auto& h : r["hardware"]) {
    const std::string id = h["id"];
    EXPECT_EQ(h["kind"], id.rfind("tpu-", 0) == 0 ? "tpu" : "gpu") << id;
  }
  json presets = ask(R"({"op": "presets"})");
  json by_object = {{"op", "mfu"},
                    {"model", "palm-540b"},
                    {"hardware", presets["hardware"][5]},
                    {"gpus", 6144},
                    {"tokens_per_second", 238300}};
  EXPECT_FALSE(ask(by_object.dump()).contains("error")) << "a preset passed back as an object, kind included";
  by_object["hardware"]["kind"] = "npu";
  json e = error_of(by_object.dump());
  EXPECT_EQ(e["code"], "invalid_value");
  EXPECT_EQ(e["field"], "hardware.kind");
}

TEST(Api, APresetModelPassedBackAsAnObjectGivesTheSameAnswer) {
  json presets = ask(R"({"op": "presets"})");
  json by_id = {
      {"op", "mfu"}, {"model", "llama3-70b"}, {"hardware", "h100-sxm"}, {"gpus", 64}, {"tokens_per_second", 1e5}};
  json by_shape = by_id;
  by_shape["model"] = presets["models"][5];
  EXPECT_EQ(parascope::call(by_id.dump()), parascope::call(by_shape.dump()));
}

TEST(Api, ErrorsCarryCodeMessageAndField) {
  json e =
      error_of(R"({"op": "mfu", "model": "gpt2-124m", "hardware": "a100-40gb", "gpus": 0, "tokens_per_second": 1})");
  EXPECT_EQ(e["code"], "out_of_range");
  EXPECT_EQ(e["field"], "gpus");
  EXPECT_EQ(e["message"], "gpus must be an integer from 1 to 10000000; got 0");
}

TEST(Api, NestedFieldsAreNamedByTheirPath) {
  json e = error_of(R"({"op": "mfu", "model": {"layers": 2, "hidden": 64, "heads": 3, "vocab": 10, "seq": 8},
                        "hardware": "a100-40gb", "gpus": 1, "tokens_per_second": 1})");
  EXPECT_EQ(e["code"], "inconsistent");
  EXPECT_EQ(e["field"], "model.heads");
}

TEST(Api, UnknownFieldsAreRefusedSoTyposDoNotPassSilently) {
  json e = error_of(R"({"op": "version", "verbose": true})");
  EXPECT_EQ(e["code"], "unknown_field");
  EXPECT_EQ(e["field"], "verbose");
}

TEST(Api, HostileInputNeverCrashes) {
  const std::string deep(200000, '[');
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"", "invalid_json"},
      {"not json", "invalid_json"},
      {"[1, 2]", "invalid_request"},
      {"null", "invalid_request"},
      {deep, "invalid_json"},
      {std::string(2 << 20, ' '), "too_large"},
      {R"({"op": 7})", "wrong_type"},
      {R"({"op": "launch"})", "unknown_op"},
      {R"({})", "missing_field"},
      // JSON has no infinity: a number that overflows a double is refused by the parser itself.
      {R"({"op": "mfu", "model": "gpt2-124m", "hardware": "a100-40gb", "gpus": 1, "tokens_per_second": 1e999})",
       "invalid_json"},
      {R"({"op": "version", "x": )" + std::string(100000, '[') + std::string(100000, ']') + "}", "unknown_field"},
      {R"({"op": "mfu", "model": "gpt2-124m", "hardware": "a100-40gb", "gpus": 1.5, "tokens_per_second": 1})",
       "not_integer"},
      {R"({"op": "mfu", "model": "gpt2-124m", "hardware": "a100-40gb", "gpus": 1e300, "tokens_per_second": 1})",
       "out_of_range"},
      {R"({"op": "mfu", "model": "gpt2-124m", "hardware": "a100-40gb", "gpus": "8", "tokens_per_second": 1})",
       "wrong_type"},
      {R"({"op": "mfu", "model": "gpt5", "hardware": "a100-40gb", "gpus": 8, "tokens_per_second": 1})",
       "unknown_preset"},
      {R"({"op": "mfu", "model": "gpt2-124m", "hardware": {"peak_flops": -1}, "gpus": 8, "tokens_per_second": 1})",
       "out_of_range"},
      {R"({"op": "mfu", "model": "gpt2-124m", "hardware": "a100-40gb", "gpus": 8})", "missing_field"},
      {R"({"op": "mfu", "model": "gpt2-124m", "hardware": "a100-40gb", "gpus": 8, "tokens_per_second": 1,
           "step_time": 1, "tokens_per_step": 1})",
       "conflicting_fields"},
      {R"({"op": "mfu", "model": "gpt2-124m", "hardware": "a100-40gb", "gpus": 8, "tokens_per_second": 1,
           "attention": "sparse"})",
       "invalid_value"},
      // Bytes that are not UTF-8: the parser's message quotes them, and the answer must still be written.
      {"{\"op\":\"\xff\"}", "invalid_json"},
      {"{\"op\":\"\xc3\x28\"}", "invalid_json"},
      {"\xfe\xff", "invalid_json"},
  };
  for (const auto& [request, code] : cases) {
    json e = error_of(request);
    EXPECT_EQ(e["code"], code) << request.substr(0, 120);
    EXPECT_FALSE(e["message"].get<std::string>().empty());
  }
}

TEST(Cli, AnswersOnStdoutAndExitsTwoOnABadRequest) {
  const std::string cli = PARASCOPE_CLI;
  auto run = [&](const std::string& input, int* status) {
    std::string cmd = "printf '%s' '" + input + "' | " + cli;
    FILE* pipe = popen(cmd.c_str(), "r");
    std::string out;
    char buf[4096];
    while (std::size_t n = fread(buf, 1, sizeof buf, pipe)) out.append(buf, n);
    *status = WEXITSTATUS(pclose(pipe));
    return out;
  };
  int status = -1;
  EXPECT_EQ(run(R"({"op":"version"})", &status), parascope::call(R"({"op":"version"})") + "\n");
  EXPECT_EQ(status, 0);
  std::string bad = run(R"({"op":"nope"})", &status);
  EXPECT_EQ(status, 2);
  EXPECT_EQ(json::parse(bad)["error"]["code"], "unknown_op");
}

/// Runs a shell command; returns its stdout and sets its exit status.
std::string shell(const std::string& cmd, int* status) {
  FILE* pipe = popen(cmd.c_str(), "r");
  std::string out;
  char buf[4096];
  while (std::size_t n = fread(buf, 1, sizeof buf, pipe)) out.append(buf, n);
  *status = WEXITSTATUS(pclose(pipe));
  return out;
}

TEST(Cli, StopsReadingAnEndlessInputAtTheLimit) {
  // /dev/zero never ends: the CLI must answer too_large after reading just over 1 MiB (before, it read forever).
  const std::string cli = PARASCOPE_CLI;
  int status = -1;
  const std::string out = shell("timeout 20 " + cli + " /dev/zero", &status);
  EXPECT_EQ(status, 2);
  EXPECT_EQ(json::parse(out)["error"]["code"], "too_large");
  const std::string piped = shell("head -c 50000000 /dev/zero | timeout 20 " + cli, &status);
  EXPECT_EQ(status, 2);
  EXPECT_EQ(json::parse(piped)["error"]["code"], "too_large");
}

TEST(Cli, ADirectoryIsAnInputThatCannotBeRead) {
  const std::string cli = PARASCOPE_CLI;
  int status = -1;
  const std::string out = shell(cli + " /tmp 2>&1", &status);
  EXPECT_EQ(status, 1);
  EXPECT_NE(out.find("cannot read /tmp"), std::string::npos) << out;
}

TEST(Cli, InvalidUtf8IsInvalidJsonNotAnInternalError) {
  const std::string cli = PARASCOPE_CLI;
  int status = -1;
  const std::string out = shell("printf '{\"op\":\"\\377\"}' | " + cli, &status);
  EXPECT_EQ(status, 2);
  EXPECT_EQ(json::parse(out)["error"]["code"], "invalid_json") << out;
}

}  // namespace
