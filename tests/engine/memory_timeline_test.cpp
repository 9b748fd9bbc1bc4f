// One GPU's memory through one step (memory_timeline op): its peak is step's memory_per_gpu.total on every published
// and calibration row and on seeded random runs; the activation sets in flight follow the schedule's closed forms.
#include <gtest/gtest.h>

#include <algorithm>
#include <nlohmann/json.hpp>
#include <random>
#include <string>
#include <vector>

#include "../../engine/src/ops.hpp"
#include "parascope/api.hpp"
#include "published_runs.hpp"
#include "step_request.hpp"

namespace parascope::detail {
json op_memory_timeline_binary(RequestReader& request);  // engine/src/op_memory_timeline.cpp: the op tables declare it
}  // namespace parascope::detail

namespace {

using nlohmann::json;

/// The timeline and the step for one request (its op replaced); false when step refuses it.
bool timeline_and_step(json request, json& timeline, json& step) {
  request["op"] = "step";
  step = step_request::ask(request);
  if (step.contains("error")) return false;
  request["op"] = "memory_timeline";
  timeline = step_request::ask(request);
  EXPECT_FALSE(timeline.contains("error")) << timeline.dump() << "\n" << request.dump();
  return !timeline.contains("error");
}

/// The timeline's own invariants: the peak is its largest segment, no segment holds more sets than the peak's stage
/// may, the time axis runs from 0 to the step's end without gaps.
void expect_consistent(const json& t, const std::string& label) {
  const json& seg = t["segments"];
  const std::size_t n = seg["total"].size();
  ASSERT_GT(n, 0u) << label;
  double most = 0, at = 0;
  for (std::size_t i = 0; i < n; ++i) {
    most = std::max(most, seg["total"][i].get<double>());
    EXPECT_EQ(seg["start"][i].get<double>(), at) << label << " segment " << i;
    at = seg["end"][i].get<double>();
  }
  EXPECT_EQ(at, t["step_time"].get<double>()) << label;
  EXPECT_EQ(t["peak"]["total"].get<double>(), most) << label;
  EXPECT_EQ(seg["kind"].get<std::string>().size(), n) << label;
}

TEST(MemoryTimeline, PeakEqualsStepsMemoryPerGpuOnEveryPublishedRow) {
  int checked = 0;
  for (const parascope::test::PublishedRun& run : parascope::test::published_runs()) {
    json t, step;
    if (!timeline_and_step(run.request, t, step)) continue;
    EXPECT_EQ(t["stage"], t["most_loaded_stage"]) << run.label;
    EXPECT_EQ(t["peak"]["total"].get<double>(), step["memory_per_gpu"]["total"].get<double>()) << run.label;
    EXPECT_EQ(t["peak"]["activations"].get<double>(), step["memory_per_gpu"]["activations"].get<double>()) << run.label;
    expect_consistent(t, run.label);
    ++checked;
  }
  EXPECT_GT(checked, 300);
}

/// `step`'s answer less what memory_timeline's `step` leaves out (engine/API.md, memory_timeline): the network what-if
/// (a second costing), the hfu note and the nccl-tests rows echoed.
json without_extras(json step) {
  step.erase("hfu_note");
  step.erase("network_fit");
  step["error_band"].erase("network");
  return step;
}

TEST(MemoryTimeline, CarriesStepsAnswerForTheSameRequestOnEveryPublishedRow) {
  int checked = 0, with_network = 0;
  for (const parascope::test::PublishedRun& run : parascope::test::published_runs()) {
    json t, step;
    if (!timeline_and_step(run.request, t, step)) continue;
    ASSERT_TRUE(t.contains("step")) << run.label;
    EXPECT_EQ(t["step"], without_extras(step)) << run.label;
    EXPECT_EQ(t["step"]["memory_per_gpu"]["total"], t["step_memory_total"]) << run.label;
    with_network += step["error_band"].contains("network") ? 1 : 0;
    ++checked;
  }
  EXPECT_GT(checked, 300);
  EXPECT_GT(with_network, 0);  // the left-out what-if was there to leave out
}

TEST(MemoryTimeline, ItsTextIsTheJsonWritersOwnOnEveryPublishedRow) {
  // The columns are written as text (op_memory_timeline.cpp, segments_text): byte for byte what the writer writes.
  int checked = 0;
  for (const parascope::test::PublishedRun& run : parascope::test::published_runs()) {
    json request = run.request;
    request["op"] = "memory_timeline";
    const std::string text = parascope::call(request.dump());
    if (text.rfind("{\"error\"", 0) == 0) continue;
    EXPECT_EQ(text, json::parse(text).dump()) << run.label;
    ++checked;
  }
  EXPECT_GT(checked, 300);
}

TEST(MemoryTimeline, BinaryColumnsAreTheTextColumnsNumbersOnEveryPublishedRow) {
  // columns_format "binary": the same numbers in the call's attachment, column after column, and the rest of the
  // answer unchanged.
  int checked = 0;
  for (const parascope::test::PublishedRun& run : parascope::test::published_runs()) {
    json request = run.request;
    request["op"] = "memory_timeline";
    const json text = json::parse(parascope::call(request.dump()));
    if (text.contains("error")) continue;
    request["columns_format"] = "binary";
    json binary = json::parse(parascope::call(request.dump()));
    const std::vector<double> numbers = parascope::last_attachment();
    ASSERT_FALSE(binary.contains("error")) << binary.dump();
    for (const char* block : {"segments", "activation_sets"}) {
      const json& b = binary[block];
      ASSERT_EQ(b["format"], "binary") << run.label;
      const std::size_t offset = b["offset"], count = b["count"];
      std::size_t at = offset;
      for (const json& column : b["columns"]) {
        const json& values = text[block][column.get<std::string>()];
        ASSERT_EQ(values.is_string() ? values.get<std::string>().size() : values.size(), count) << run.label;
        for (std::size_t i = 0; i < count; ++i, ++at) {
          const double want = values.is_string() ? double(values.get<std::string>()[i]) : values[i].get<double>();
          ASSERT_EQ(numbers.at(at), want) << run.label << " " << block << "." << column << "[" << i << "]";
        }
      }
      binary.erase(block);
    }
    json rest = text;
    rest.erase("segments");
    rest.erase("activation_sets");
    EXPECT_EQ(binary, rest) << run.label;
    ++checked;
  }
  EXPECT_GT(checked, 300);
  const json bad = json::parse(
      parascope::call(R"({"op":"memory_timeline","model":"gpt2-124m","hardware":"h100-sxm","cluster":{"gpus":8},)"
                      R"("parallel":{"global_batch":8},"columns_format":"packed"})"));
  ASSERT_TRUE(bad.contains("error")) << bad.dump();
  EXPECT_EQ(bad["error"]["field"], "columns_format");
}

template <class T>
T pick(std::mt19937_64& rng, std::initializer_list<T> values) {
  return *(values.begin() + std::uniform_int_distribution<std::size_t>(0, values.size() - 1)(rng));
}

TEST(MemoryTimeline, PeakEqualsStepsMemoryPerGpuOnSeededRandomRuns) {
  std::mt19937_64 rng(20261206);
  int checked = 0;
  for (int i = 0; i < 400; ++i) {
    const std::string model = pick<std::string>(rng, {"gpt3-175b", "llama3-8b", "llama3-70b", "mixtral-8x7b"});
    const std::int64_t tp = pick<std::int64_t>(rng, {1, 2, 4, 8}), pp = pick<std::int64_t>(rng, {1, 2, 4, 8});
    const std::int64_t cp = pick<std::int64_t>(rng, {1, 1, 2}), dp = pick<std::int64_t>(rng, {1, 2, 4});
    const std::int64_t ep = model == "mixtral-8x7b" ? pick<std::int64_t>(rng, {1, 2}) : 1;
    const std::int64_t mbs = pick<std::int64_t>(rng, {1, 2});
    const std::string schedule = pick<std::string>(rng, {"gpipe", "1f1b", "interleaved", "zb-h1", "zb-h2", "dualpipe"});
    json parallel = {{"tp", tp},
                     {"pp", pp},
                     {"cp", cp},
                     {"ep", ep},
                     {"microbatch_size", mbs},
                     {"global_batch", dp * mbs * pick<std::int64_t>(rng, {1, 3, 8, 16})},
                     {"schedule", schedule},
                     {"recompute", pick<std::string>(rng, {"none", "selective", "full"})},
                     {"zero", pick<int>(rng, {0, 1, 2, 3})}};
    if (schedule == "interleaved") parallel["vpp"] = pick<std::int64_t>(rng, {1, 2});
    if (tp > 1) parallel["sequence_parallel"] = pick<bool>(rng, {false, true});
    const json request = {{"model", model},
                          {"hardware", pick<std::string>(rng, {"a100-80gb", "h100-sxm"})},
                          {"cluster", {{"gpus", tp * pp * cp * dp}}},
                          {"parallel", parallel}};
    json t, step;
    if (!timeline_and_step(request, t, step)) continue;
    EXPECT_EQ(t["peak"]["total"].get<double>(), step["memory_per_gpu"]["total"].get<double>()) << request.dump();
    expect_consistent(t, request.dump());
    ++checked;
  }
  EXPECT_GT(checked, 150);
}

/// The timeline of `stage` for GPT-3 on 32 A100s at pp 4, 8 microbatches per pipeline, the given schedule.
json gpt3_timeline(const std::string& schedule, std::int64_t stage) {
  const json r = step_request::ask({{"op", "memory_timeline"},
                                    {"model", "gpt3-175b"},
                                    {"hardware", "a100-80gb"},
                                    {"cluster", {{"gpus", 32}}},
                                    {"parallel", {{"tp", 8}, {"pp", 4}, {"global_batch", 8}, {"schedule", schedule}}},
                                    {"stage", stage}});
  EXPECT_FALSE(r.contains("error")) << r.dump();
  return r;
}

TEST(MemoryTimeline, OneFOneBHoldsPSetsOnTheFirstStageAndOneOnTheLast) {
  // 1F1B: stage s runs p − s forwards before its first backward (Narayanan et al. 2021, Sec. 2.2); GPipe all m.
  for (std::int64_t s = 0; s < 4; ++s) EXPECT_EQ(gpt3_timeline("1f1b", s)["peak"]["sets"], 4 - s) << s;
  EXPECT_EQ(gpt3_timeline("gpipe", 0)["peak"]["sets"], 8);
  EXPECT_EQ(gpt3_timeline("gpipe", 3)["peak"]["sets"], 8);
}

TEST(MemoryTimeline, EveryMicrobatchsActivationsAreHeldFromItsForwardToItsBackward) {
  const json t = gpt3_timeline("1f1b", 1);
  const json& sets = t["activation_sets"];
  ASSERT_EQ(sets["microbatch"].size(), 8u);
  for (std::size_t i = 0; i < 8; ++i) EXPECT_LT(sets["from"][i].get<double>(), sets["to"][i].get<double>()) << i;
  // A segment's activations are its sets in flight times one set's bytes (no backward's rebuilt layer: none here).
  const json& seg = t["segments"];
  for (std::size_t i = 0; i < seg["total"].size(); ++i) {
    EXPECT_DOUBLE_EQ(seg["activations"][i].get<double>(), seg["sets"][i].get<double>() * t["set_bytes"].get<double>());
  }
}

TEST(MemoryTimeline, AKeptScheduleAnswersAsAFreshOne) {
  // The op keeps its last schedule for the next request with the same spec (memory_timeline.cpp, scheduled_ops): the
  // stages walked one way, then after other schedules (another op time, another order) the other way, answer alike.
  std::vector<json> walked;
  for (std::int64_t s = 0; s < 4; ++s) walked.push_back(gpt3_timeline("1f1b", s));
  for (std::int64_t s = 3; s >= 0; --s) {
    gpt3_timeline(s % 2 ? "gpipe" : "zb-h1", s);
    EXPECT_EQ(gpt3_timeline("1f1b", s), walked[std::size_t(s)]) << s;
  }
  EXPECT_NE(gpt3_timeline("gpipe", 0)["segments"], walked[0]["segments"]);  // another schedule is laid out anew
}

/// op_memory_timeline_binary (the memory figure's own wasm module's handler) on `request`: its answer and attachment,
/// or its refusal, as call() would write them.
std::string binary_only(const json& request, std::vector<double>& numbers) {
  parascope::detail::RequestReader reader(request, "");
  reader.value("op");  // read, as dispatch reads it
  parascope::detail::attachment().clear();
  try {
    const json answer = parascope::detail::op_memory_timeline_binary(reader);
    numbers = parascope::detail::attachment();
    return answer.dump();
  } catch (const parascope::RequestError& e) {
    return json{{"error", {{"code", e.code}, {"field", e.field}, {"message", e.message}}}}.dump();
  }
}

TEST(MemoryTimeline, TheBinaryOnlyHandlerAnswersBinaryAsTheOpDoesAndNamesTheEngineForText) {
  json request = {{"op", "memory_timeline"},
                  {"model", "gpt3-175b"},
                  {"hardware", "a100-80gb"},
                  {"cluster", {{"gpus", 32}}},
                  {"parallel", {{"tp", 8}, {"pp", 4}, {"global_batch", 64}}},
                  {"stage", 1},
                  {"columns_format", "binary"}};
  std::vector<double> numbers;
  EXPECT_EQ(binary_only(request, numbers), parascope::call(request.dump()));
  EXPECT_EQ(numbers, parascope::last_attachment());
  EXPECT_FALSE(numbers.empty());
  json bad = request;
  bad["stage"] = 4;
  EXPECT_EQ(binary_only(bad, numbers), parascope::call(bad.dump()));
  for (const bool sent : {true, false}) {
    json text = request;
    if (sent)
      text["columns_format"] = "text";
    else
      text.erase("columns_format");
    const json e = json::parse(binary_only(text, numbers))["error"];
    EXPECT_EQ(e["code"], "unknown_op");
    EXPECT_EQ(e["field"], "columns_format");
    // The library's table answers every format itself: the figures' engine is named.
    EXPECT_EQ(e["message"],
              "the memory_timeline op's \"text\" columns_format is answered by the parascope engine "
              "(wasm/parascope.wasm), not by this one (parascope), which writes \"binary\"");
  }
  json unread = request;
  unread.erase("columns_format");
  unread["stagez"] = 1;  // the request is read first: its own refusals come before the format's
  EXPECT_EQ(json::parse(binary_only(unread, numbers))["error"]["code"], "unknown_field");
}

TEST(MemoryTimeline, RefusesAStageOutsideThePipeline) {
  const json r = step_request::ask({{"op", "memory_timeline"},
                                    {"model", "gpt3-175b"},
                                    {"hardware", "a100-80gb"},
                                    {"cluster", {{"gpus", 32}}},
                                    {"parallel", {{"tp", 8}, {"pp", 4}, {"global_batch", 8}}},
                                    {"stage", 4}});
  EXPECT_EQ(r["error"]["code"], "out_of_range");
  EXPECT_EQ(r["error"]["field"], "stage");
}

}  // namespace
