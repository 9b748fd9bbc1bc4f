// libFuzzer harness over the JSON API: any bytes in; the answer must be one JSON object, either an error with a code
// other than internal_error, or an answer whose numbers are finite, whose times are not negative, whose fractions
// lie in [0, 1] and whose quoted closed form equals the simulated measure it names. Built and run by scripts/fuzz
// (npm run fuzz) under AddressSanitizer and UBSan.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <nlohmann/json.hpp>
#include <set>
#include <string>
#include <string_view>

#include "parascope/api.hpp"

namespace {

using nlohmann::json;

const std::string* g_response = nullptr;
bool g_step = false;  // a step answer: its mfu and hfu are predictions, at most 1 (hfu only with hfu_note). The mfu op
                      // reports a measured throughput, whose mfu exceeds 1 when the throughput is impossible.

[[noreturn]] void fail(const std::string& why) {
  std::fprintf(stderr, "api_fuzzer: %s\nresponse: %.2000s\n", why.c_str(), g_response ? g_response->c_str() : "");
  std::abort();
}

// Answer fields documented as fractions (0–1) and as times or counts that cannot be negative.
const std::set<std::string> kFractions = {"bubble_fraction",       "steady_bubble_fraction", "efficiency",
                                          "dashboard_utilization", "hidden_fraction",        "chunk_model_fraction"};
const std::set<std::string> kNonNegative = {
    "time",           "step_time",         "makespan",      "balanced_time", "useful_time",        "tokens_per_second",
    "achieved_flops", "hot_rank_bytes",    "algbw",         "busbw",         "bytes_sent_per_gpu", "pipeline_makespan",
    "useful_at_peak", "recompute_at_peak", "bytes_per_gpu", "max_over_mean"};
// Nulls the API documents: critical_sends for zb-h2, closed_form.value where no closed form applies.
const std::set<std::string> kNullable = {"critical_sends", "value"};

void check(const json& v, const std::string& key, const std::string& path, bool in_breakdown, bool hfu_noted) {
  if (v.is_null()) {
    if (!kNullable.count(key)) fail("null at " + path + " (a number that overflowed?)");
  } else if (v.is_number()) {
    const double x = v.get<double>();
    if (kFractions.count(key) && !(x >= 0 && x <= 1)) fail(path + " is not a fraction in [0, 1]");
    if (g_step && key == "hfu" && !(x >= 0 && (x <= 1 || hfu_noted))) fail("hfu above 1 without a note saying why");
    if (g_step && key == "mfu" && !(x >= 0 && (x <= 1 || hfu_noted))) fail("mfu above 1 without a note saying why");
    if ((kNonNegative.count(key) || in_breakdown) && !(x >= 0)) fail(path + " is negative");
  } else if (v.is_object()) {
    const bool noted = v.contains("hfu_note");
    for (const auto& [k, child] : v.items()) check(child, k, path + "." + k, in_breakdown || k == "breakdown", noted);
  } else if (v.is_array()) {
    for (std::size_t i = 0; i < v.size(); ++i)
      check(v[i], key, path + "[" + std::to_string(i) + "]", in_breakdown, hfu_noted);
  }
}

/// A pipeline answer's closed form, when it quotes a value: a fraction, equal to the simulated metric it names.
void check_closed_form(const json& answer) {
  if (!answer.contains("closed_form")) return;
  const json& cf = answer["closed_form"];
  if (!cf.is_object() || !cf.contains("value") || cf["value"].is_null()) return;
  const double value = cf["value"].get<double>();
  if (!(value >= 0 && value <= 1)) fail("closed_form.value is not a fraction in [0, 1]");
  const std::string measure = cf.value("measure", "");
  if (!answer.contains(measure) || !answer[measure].is_number()) fail("closed_form.measure names no answer field");
  const double simulated = answer[measure].get<double>();
  if (!(std::fabs(value - simulated) <= 1e-9 * std::max(1.0, std::fabs(simulated)))) {
    fail("closed_form.value differs from the simulated " + measure);
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string response = parascope::call(std::string_view(reinterpret_cast<const char*>(data), size));
  g_response = &response;
  const json answer = json::parse(response, nullptr, /*allow_exceptions=*/false);
  if (!answer.is_object()) fail("the response is not a JSON object");
  if (answer.contains("error")) {
    const json& error = answer["error"];
    if (!error.is_object() || !error.contains("code") || !error["code"].is_string() || !error.contains("message")) {
      fail("an error without code and message");
    }
    if (error["code"] == "internal_error") fail("internal_error: a bug in the engine");
  } else {
    g_step = answer.contains("step_time") && answer.contains("breakdown");
    check(answer, "", "answer", false, false);
    check_closed_form(answer);
  }
  g_response = nullptr;
  return 0;
}
