// The timeline op: built from the step's own cost model, so on every published and calibration row and on a seeded
// random set, each GPU's events add up to step's breakdown and end at step_time; its Chrome trace checked for format.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <random>
#include <set>
#include <string>
#include <tuple>
#include <vector>

#include "../../engine/src/json_text.hpp"
#include "../../engine/src/request_reader.hpp"
#include "parascope/api.hpp"
#include "published_runs.hpp"

namespace parascope::detail {
json op_timeline_columns(RequestReader& request);  // engine/src/op_timeline.cpp: the generated op tables declare it
}  // namespace parascope::detail

namespace {

using nlohmann::json;

json ask(const json& request) { return json::parse(parascope::call(request.dump())); }

json as_timeline(json request, const std::string& format) {
  request["op"] = "timeline";
  request["format"] = format;
  return request;
}

/// Each event's fields from an answer's columns, one GPU at a time: each op's shape's events at the op's start (a
/// send: its end) plus their offsets, then the tail's (engine/API.md, "timeline": the rule a reader follows).
struct Event {
  std::string piece, lane;
  double start, end, exposed, amount;
  long long microbatch, chunk, to_stage;
  char op;
};
std::vector<Event> events_of(const json& answer, const json& gpu) {
  std::vector<Event> out;
  const json& pieces = answer["pieces"];
  const json& ops = gpu["ops"];
  const std::string kinds = ops["op"];
  auto event = [&](const json& c, std::size_t j, double base) {
    const json& piece = pieces[c["piece"][j].get<std::size_t>()];
    return Event{piece["id"],
                 piece["lane"],
                 base + c["start"][j].get<double>(),
                 base + c["end"][j].get<double>(),
                 c["exposed"][j],
                 c["amount"][j],
                 -1,
                 -1,
                 c.contains("to_stage") ? c["to_stage"][j].get<long long>() : -1,
                 '-'};
  };
  for (std::size_t i = 0; i < kinds.size(); ++i) {
    const json& shape = gpu["shapes"][ops["shape"][i].get<std::size_t>()];
    for (std::size_t j = 0; j < shape["piece"].size(); ++j) {
      const double base = shape["from_end"][j] == 1 ? ops["end"][i].get<double>() : ops["start"][i].get<double>();
      Event e = event(shape, j, base);
      e.microbatch = ops["microbatch"][i];
      e.chunk = ops["chunk"][i];
      e.op = kinds[i];
      out.push_back(e);
    }
  }
  const json& tail = gpu["tail"];
  for (std::size_t j = 0; j < tail["piece"].size(); ++j) out.push_back(event(tail, j, 0.0));
  return out;
}

/// Which breakdown term each piece's exposed seconds count toward.
const std::map<std::string, std::string> kTerm = {
    {"kernels", "compute"}, {"stretch", "compute"},    {"memory", "memory_bound"}, {"accumulation", "memory_bound"},
    {"tp", "tp_comm"},      {"ep", "ep_comm"},         {"cp", "cp_comm"},          {"wait", "other"},
    {"dp", "dp_comm"},      {"optimizer", "optimizer"}};
const char* const kAveraged[] = {"compute", "memory_bound", "tp_comm", "ep_comm", "cp_comm", "other"};

/// Checks a timeline answer against the step answer for the same request; `label` names the case on failure.
void check_against_step(const json& step, const json& t, const std::string& label) {
  ASSERT_FALSE(t.contains("error")) << label << ": " << t.dump();
  const double step_time = step["step_time"];
  const double tol = 1e-9 * step_time;
  const json& b = step["breakdown"];
  EXPECT_EQ(t["step_time"], step["step_time"]) << label;
  EXPECT_EQ(t["breakdown"], b) << label;
  EXPECT_NEAR(t["makespan"].get<double>(), step_time, tol) << label;
  EXPECT_NEAR(t["pipeline_makespan"].get<double>(), step["pipeline_makespan"].get<double>(), tol) << label;
  const double pipeline_end = t["pipeline_makespan"];
  std::map<std::string, double> mean;
  double last_end = 0;
  for (const json& gpu : t["gpus"]) {
    std::map<std::string, double> sums;
    double stream = 0, previous_end = 0;
    for (const Event& e : events_of(t, gpu)) {
      EXPECT_GE(e.start, -tol) << label;
      EXPECT_GE(e.end, e.start) << label;
      EXPECT_LE(e.exposed, e.end - e.start + tol) << label << " " << e.piece;
      last_end = std::max(last_end, e.end);
      if (e.piece == "send") {
        EXPECT_EQ(e.exposed, 0) << label;
        continue;
      }
      sums[kTerm.at(e.piece)] += e.exposed;
      if (e.piece != "dp" && e.start < pipeline_end - tol) stream += e.exposed;
      if (e.lane == "compute") {
        // The compute stream runs one kernel at a time: its events never overlap.
        EXPECT_GE(e.start, previous_end - tol) << label << " stage " << gpu["stage"];
        previous_end = e.end;
      }
    }
    sums["idle"] = pipeline_end - stream;
    // Each GPU: the gaps of its compute stream are the schedule's idle (sends and fill/drain), the same on every
    // stage; the data-parallel wait and the optimizer are the step's; everything adds up to step_time.
    EXPECT_NEAR(sums["idle"], b["pp_comm"].get<double>() + b["bubble"].get<double>(), tol) << label;
    EXPECT_NEAR(sums["dp_comm"], b["dp_comm"].get<double>(), tol) << label;
    EXPECT_NEAR(sums["optimizer"], b["optimizer"].get<double>(), tol) << label;
    double total = 0;
    for (const auto& [term, seconds] : sums) total += seconds;
    EXPECT_NEAR(total, step_time, tol) << label << " stage " << gpu["stage"];
    for (const auto& [term, seconds] : gpu["exposed"].items()) {
      EXPECT_NEAR(seconds.get<double>(), sums[term], tol) << label << " " << term;
    }
    for (const char* term : kAveraged) mean[term] += sums[term] / double(t["gpus"].size());
  }
  // Across the stages (each GPU its own stage's layers): the breakdown's per-GPU average.
  for (const char* term : kAveraged) EXPECT_NEAR(mean[term], b[term].get<double>(), tol) << label << " " << term;
  EXPECT_NEAR(last_end, step_time, tol) << label;
}

/// Answers `request` as step and as timeline (columns) and checks one against the other; false when step refuses.
bool check_request(const json& request, const std::string& label) {
  const json step = ask(request);
  const json t = ask(as_timeline(request, "columns"));
  if (step.contains("error")) {
    EXPECT_EQ(t, step) << label;  // the same refusal, word for word
    return false;
  }
  check_against_step(step, t, label);
  return true;
}

TEST(Timeline, EveryPublishedRowAddsUpToItsStep) {
  int checked = 0;
  for (const parascope::test::PublishedRun& run : parascope::test::published_runs()) {
    if (check_request(run.request, run.source + " " + run.label)) ++checked;
  }
  EXPECT_GT(checked, 50);
}

TEST(Timeline, ASeededRandomSetAddsUpToItsSteps) {
  std::mt19937_64 rng(29);
  auto pick = [&](std::initializer_list<json> values) {
    return *(values.begin() + std::uniform_int_distribution<std::size_t>(0, values.size() - 1)(rng));
  };
  int answered = 0, moe = 0, split = 0;
  for (int i = 0; i < 300; ++i) {
    const json model = pick({"gpt3-175b", "llama3-8b", "llama3-70b", "mixtral-8x7b", "deepseek-v3", "gpt2-124m"});
    const json tp = pick({1, 2, 4, 8}), pp = pick({1, 2, 3, 4, 8}), dp = pick({1, 2, 4}), cp = pick({1, 1, 2});
    json parallel = {{"tp", tp},
                     {"pp", pp},
                     {"cp", cp},
                     {"global_batch", dp.get<int>() * pick({1, 2, 4, 8, 16}).get<int>()},
                     {"schedule", pick({"1f1b", "gpipe", "interleaved", "zb-h1", "zb-h2", "dualpipe"})},
                     {"zero", pick({0, 1, 2, 3})},
                     {"recompute", pick({"none", "selective", "full"})}};
    if (parallel["schedule"] == "interleaved") parallel["vpp"] = pick({1, 2, 3});
    if (model == "mixtral-8x7b" || model == "deepseek-v3") parallel["ep"] = pick({1, 2});
    const int gpus = tp.get<int>() * pp.get<int>() * dp.get<int>() * cp.get<int>();
    json request = {
        {"op", "step"},
        {"model", model},
        {"hardware", pick({"a100-80gb", "h100-sxm", "mi300x", "b200"})},
        {"cluster", {{"gpus", gpus}}},
        {"parallel", parallel},
        {"efficiency",
         {{"tp_overlap", pick({0.0, 0.5})}, {"nccl_sms", pick({0, 16})}, {"ep_overlap", pick({0.0, 0.7})}}}};
    if (check_request(request, request.dump())) {
      ++answered;
      moe += parallel.contains("ep");
      split += parallel["schedule"] == "zb-h1" || parallel["schedule"] == "zb-h2" || parallel["schedule"] == "dualpipe";
    }
  }
  EXPECT_GT(answered, 100);
  EXPECT_GT(moe, 10);
  EXPECT_GT(split, 20);
}

/// A GPT-3 step with TP overlapped and NCCL taking SMs: the kernels it hides under are stretched.
json overlapped_request() {
  return {{"op", "timeline"},
          {"model", "gpt3-175b"},
          {"hardware", "h100-sxm"},
          {"cluster", {{"gpus", 64}}},
          {"parallel", {{"tp", 8}, {"pp", 4}, {"global_batch", 16}}},
          {"efficiency", {{"tp_overlap", 0.6}, {"nccl_sms", 16}}}};
}

TEST(Timeline, OverlapIsAnEventUnderAnotherAndInterferenceStretchesTheKernels) {
  const json t = ask(overlapped_request());
  ASSERT_FALSE(t.contains("error")) << t.dump();
  const json& events = t["gpus"][0]["events"];
  int under = 0;
  for (std::size_t i = 0; i < events.size(); ++i) {
    if (events[i]["piece"] != "tp") continue;
    const json& kernels = events[i - 2];  // kernels, element-wise kernels, then the op's TP collectives
    ASSERT_EQ(kernels["piece"], "kernels");
    EXPECT_GT(kernels["interference"].get<double>(), 0);
    EXPECT_LT(events[i]["start"].get<double>(), kernels["end"].get<double>());  // it starts under the kernels
    EXPECT_LT(events[i]["exposed"].get<double>(), events[i]["end"].get<double>() - events[i]["start"].get<double>());
    EXPECT_EQ(events[i]["link"], "NVLink 4");
    ++under;
  }
  EXPECT_GT(under, 0);
}

/// The columns answer, expanded by the reader's rule, is the objects answer's events bit for bit.
void check_columns_are_the_objects(json request) {
  request["op"] = "timeline";
  const json objects = ask(as_timeline(request, "objects"));
  const json columns = ask(as_timeline(request, "columns"));
  ASSERT_EQ(objects["gpus"].size(), columns["gpus"].size());
  for (std::size_t g = 0; g < objects["gpus"].size(); ++g) {
    const json& list = objects["gpus"][g]["events"];
    const std::vector<Event> events = events_of(columns, columns["gpus"][g]);
    ASSERT_EQ(events.size(), list.size());
    for (std::size_t i = 0; i < events.size(); ++i) {
      const json& o = list[i];
      const Event& e = events[i];
      EXPECT_EQ(e.piece, o["piece"]);
      EXPECT_EQ(e.start, o["start"].get<double>()) << i;
      EXPECT_EQ(e.end, o["end"].get<double>()) << i;
      EXPECT_EQ(e.exposed, o["exposed"].get<double>()) << i;
      const std::string amount = e.piece == "kernels" ? "flops" : "bytes";
      EXPECT_EQ(e.amount, o.contains(amount) ? o[amount].get<double>() : 0.0) << i;
      EXPECT_EQ(e.microbatch, o.value("microbatch", -1LL));
      EXPECT_EQ(e.chunk, o.value("chunk", -1LL));
      EXPECT_EQ(e.to_stage, o.value("to_stage", -1LL));
      EXPECT_EQ(std::string(1, e.op), o.value("op", std::string("-")));
    }
  }
}

TEST(Timeline, ColumnsHoldTheObjectsEventsBitForBit) {
  check_columns_are_the_objects(overlapped_request());
  json interleaved = overlapped_request();
  interleaved["parallel"] = {{"tp", 8}, {"pp", 4}, {"vpp", 2}, {"schedule", "interleaved"}, {"global_batch", 16}};
  check_columns_are_the_objects(interleaved);
  json dualpipe = overlapped_request();
  dualpipe["parallel"] = {{"tp", 8}, {"pp", 4}, {"schedule", "dualpipe"}, {"global_batch", 16}};
  check_columns_are_the_objects(dualpipe);
  json zb = overlapped_request();
  zb["parallel"] = {{"tp", 8}, {"pp", 4}, {"schedule", "zb-h1"}, {"global_batch", 16}, {"zero", 3}};
  check_columns_are_the_objects(zb);
}

TEST(Timeline, RefusesWhatStepRefusesAndBadStagesAndTooManyEvents) {
  json bad = overlapped_request();
  bad["parallel"]["tp"] = 3;
  json step = bad;
  step["op"] = "step";
  EXPECT_EQ(ask(bad), ask(step));
  json stages = overlapped_request();
  for (const auto& [list, code, field] :
       {std::tuple{json{4}, "out_of_range", "stages[0]"}, std::tuple{json{1, 1}, "invalid_value", "stages[1]"},
        std::tuple{json{"0"}, "wrong_type", "stages[0]"}, std::tuple{json::array(), "wrong_type", "stages"}}) {
    stages["stages"] = list;
    const json e = ask(stages)["error"];
    EXPECT_EQ(e["code"], code) << list;
    EXPECT_EQ(e["field"], field) << list;
  }
  // An index far past pp is named as given, not as the bound it was clamped to before the check.
  stages["stages"] = json::array({std::uint64_t(99)});
  EXPECT_NE(ask(stages)["error"]["message"].get<std::string>().find("got 99"), std::string::npos);
  json many = overlapped_request();
  many["parallel"]["global_batch"] = 8192;
  const json e = ask(many)["error"];
  EXPECT_EQ(e["code"], "too_large");
  EXPECT_EQ(e["field"], "stages");
  many["format"] = "columns";
  EXPECT_FALSE(ask(many).contains("error"));
}

/// op_timeline_columns (the step figure's own wasm module's handler) on `request`: its text answer, or its refusal.
std::string columns_only(const json& request) {
  parascope::detail::RequestReader reader(request, "");
  reader.value("op");  // read, as dispatch reads it
  try {
    const json answer = parascope::detail::op_timeline_columns(reader);
    EXPECT_TRUE(answer.is_null());
    return std::move(parascope::detail::text_answer());
  } catch (const parascope::RequestError& e) {
    std::string().swap(parascope::detail::text_answer());
    return json{{"error", {{"code", e.code}, {"field", e.field}, {"message", e.message}}}}.dump();
  }
}

TEST(Timeline, TheColumnsOnlyHandlerAnswersColumnsAsTheOpDoesAndNamesTheEngineForTheRest) {
  const json columns = as_timeline(overlapped_request(), "columns");
  EXPECT_EQ(columns_only(columns), parascope::call(columns.dump()));
  json bad = columns;
  bad["parallel"]["tp"] = 3;
  EXPECT_EQ(columns_only(bad), parascope::call(bad.dump()));
  for (const char* format : {"objects", "chrome"}) {
    const json e = json::parse(columns_only(as_timeline(overlapped_request(), format)))["error"];
    EXPECT_EQ(e["code"], "unknown_op");
    EXPECT_EQ(e["field"], "format");
    // The library's table answers every format itself: the figures' engine is named.
    EXPECT_EQ(e["message"], std::string("the timeline op's \"") + format +
                                "\" format is answered by the parascope engine (wasm/parascope.wasm), not by this one "
                                "(parascope), which writes \"columns\"");
  }
  json unread = as_timeline(overlapped_request(), "objects");
  unread["stagez"] = 1;  // the request is read first: its own refusals come before the format's
  EXPECT_EQ(json::parse(columns_only(unread))["error"]["code"], "unknown_field");
}

TEST(Timeline, StagesPicksGpusAndMarksTheSlowest) {
  json request = overlapped_request();
  request["stages"] = {3, 1};
  const json t = ask(request);
  ASSERT_EQ(t["gpus"].size(), 2u);
  EXPECT_EQ(t["gpus"][0]["stage"], 3);
  EXPECT_EQ(t["gpus"][0]["gpu"], 48);  // rank order tp, cp, dp, pp: stage 3's first GPU
  EXPECT_EQ(t["gpus"][1]["gpu"], 16);
  EXPECT_EQ(t["slowest_stage"], 3);  // the last stage carries the output layer
  EXPECT_TRUE(t["gpus"][0]["slowest"].get<bool>());
  EXPECT_FALSE(t["gpus"][1]["slowest"].get<bool>());
}

/// The Chrome Trace Event format's rules the file must keep (docs: "Trace Event Format", Google, the JSON Object
/// Format; what Perfetto's importer reads): checked here, each a way the file can fail. Returns the "X" events.
std::size_t check_trace_format(const json& trace) {
  EXPECT_TRUE(trace.is_object());
  EXPECT_TRUE(trace["traceEvents"].is_array());
  EXPECT_EQ(trace["displayTimeUnit"], "ms");
  std::set<long long> named_processes;
  std::set<std::pair<long long, long long>> named_threads;
  std::map<long long, std::vector<std::pair<double, double>>> spans;
  std::size_t complete = 0;
  for (const json& e : trace["traceEvents"]) {
    EXPECT_TRUE(e.is_object());
    EXPECT_TRUE(e["ph"].is_string());
    EXPECT_TRUE(e["pid"].is_number_integer());
    EXPECT_TRUE(e["tid"].is_number_integer());
    EXPECT_TRUE(e["name"].is_string());
    const long long pid = e["pid"], tid = e["tid"];
    if (e["ph"] == "M") {
      EXPECT_TRUE(e["args"].is_object());
      if (e["name"] == "process_name") named_processes.insert(pid);
      if (e["name"] == "thread_name") named_threads.insert({pid, tid});
      if (e["name"] != "process_sort_index") EXPECT_TRUE(e["args"]["name"].is_string());
      continue;
    }
    EXPECT_EQ(e["ph"], "X") << e.dump();
    EXPECT_TRUE(e["ts"].is_number());
    EXPECT_TRUE(e["dur"].is_number());
    EXPECT_GE(e["ts"].get<double>(), 0);
    EXPECT_GE(e["dur"].get<double>(), 0);
    if (e.contains("args") || trace["otherData"]["detail"] == "events") EXPECT_TRUE(e["args"].is_object());
    EXPECT_TRUE(named_processes.count(pid)) << "an event before its process_name: " << e.dump();
    EXPECT_TRUE(named_threads.count({pid, tid})) << "an event on an unnamed thread: " << e.dump();
    // Each end rounded once to the nanosecond: events that touch still touch (an op's last end and the next op's
    // start, summed differently, may round a nanosecond apart).
    if (tid == 0) spans[pid].push_back({e["ts"], e["ts"].get<double>() + e["dur"].get<double>()});
    ++complete;
  }
  for (auto& [pid, list] : spans) {
    for (std::size_t k = 1; k < list.size(); ++k) EXPECT_GE(list[k].first, list[k - 1].second - 1.001e-3) << pid;
  }
  return complete;
}

/// The trace name of an event object: its op, microbatch and (with chunks) chunk, then its piece.
std::string trace_name(const json& o, bool chunks) {
  if (!o.contains("op")) return o["piece"];
  std::string name = o["op"].get<std::string>() + std::to_string(o["microbatch"].get<long long>());
  if (chunks) name += " c" + std::to_string(o["chunk"].get<long long>());
  return name + " " + o["piece"].get<std::string>();
}

/// A trace at full detail: one "X" event per event of the objects answer, named and timed as it (to the nanosecond).
void check_chrome_trace(const json& trace, const json& objects, bool chunks = false) {
  EXPECT_EQ(trace["otherData"]["detail"], "events");
  EXPECT_EQ(check_trace_format(trace), objects["event_count"].get<std::size_t>());
  std::size_t i = 0;
  const json& first = objects["gpus"][0];
  for (const json& e : trace["traceEvents"]) {
    if (e["ph"] != "X" || e["pid"] != first["gpu"]) continue;
    const json& o = first["events"][i++];
    EXPECT_EQ(e["name"], trace_name(o, chunks));
    EXPECT_NEAR(e["ts"].get<double>(), o["start"].get<double>() * 1e6, 0.5e-3 + 1e-9 * e["ts"].get<double>());
    EXPECT_NEAR(e["ts"].get<double>() + e["dur"].get<double>(), o["end"].get<double>() * 1e6,
                1e-3 + 1e-9 * e["ts"].get<double>());
    if (o.contains("flops"))
      EXPECT_NEAR(e["args"]["flops"].get<double>(), o["flops"].get<double>(), 1e-5 * o["flops"].get<double>());
    if (o.contains("bytes"))
      EXPECT_NEAR(e["args"]["bytes"].get<double>(), o["bytes"].get<double>(), 1e-5 * o["bytes"].get<double>());
  }
  EXPECT_EQ(i, first["events"].size());
}

TEST(Timeline, ChromeTraceKeepsTheFormat) {
  json request = overlapped_request();
  const json objects = ask(request);
  request["format"] = "chrome";
  check_chrome_trace(ask(request), objects);
  request["parallel"] = {{"tp", 8}, {"pp", 4}, {"vpp", 2}, {"schedule", "interleaved"}, {"global_batch", 16}};
  request["format"] = "objects";
  const json interleaved = ask(request);
  request["format"] = "chrome";
  check_chrome_trace(ask(request), interleaved, true);
}

TEST(Timeline, ALargeTraceDrawsEachOpsComputeStreamAsOneEvent) {
  // 4 stages x 8,192 microbatches: ~295,000 events, more than a trace draws one by one (engine/API.md).
  json request = overlapped_request();
  request["parallel"]["global_batch"] = 16384;
  request["format"] = "columns";
  const json columns = ask(request);
  ASSERT_GT(columns["event_count"].get<long long>(), 150'000);
  request["format"] = "chrome";
  const std::string text = parascope::call(request.dump());
  const json trace = json::parse(text);
  EXPECT_EQ(trace["otherData"]["detail"], "ops");
  check_trace_format(trace);
  for (const json& gpu : columns["gpus"]) {
    // Per op one compute-stream event from its first kernel to its last compute event, its parts in args; the other
    // lanes' events as they are.
    std::vector<Event> compute;
    std::size_t others = 0;
    for (const Event& e : events_of(columns, gpu)) {
      if (e.lane == "compute" && e.op != '-') {
        if (compute.empty() || compute.back().op != e.op || compute.back().microbatch != e.microbatch) {
          compute.push_back(e);
        } else {
          compute.back().end = e.end;
        }
      } else {
        ++others;
      }
    }
    std::size_t i = 0, rest = 0;
    for (const json& e : trace["traceEvents"]) {
      if (e["ph"] != "X" || e["pid"] != gpu["gpu"]) continue;
      if (e["tid"] != 0 || e.contains("args")) {  // a merged op's args are its shape's
        ++rest;
        continue;
      }
      ASSERT_LT(i, compute.size());
      const Event& c = compute[i++];
      EXPECT_EQ(e["name"], std::string(1, c.op) + std::to_string(c.microbatch));
      EXPECT_FALSE(e.contains("args"));  // given once per shape
      const json& shape = trace.at("otherData").at("shapes").at(gpu["gpu"].dump() + " " + std::string(1, c.op));
      EXPECT_GT(shape["compute"]["kernels_us"].get<double>(), 0);
      EXPECT_GT(shape["compute"]["flops"].get<double>(), 0);
      EXPECT_NEAR(e["ts"].get<double>(), c.start * 1e6, 1e-3);
      EXPECT_NEAR(e["ts"].get<double>() + e["dur"].get<double>(), c.end * 1e6, 2e-3);
    }
    EXPECT_EQ(i, compute.size());
    EXPECT_EQ(rest, others);
  }
}

/// An objects answer's events as (gpu, op, microbatch, chunk) -> how many of them, and the tail's pieces per GPU.
std::map<std::tuple<long long, std::string, long long, long long>, int> ops_of(const json& objects) {
  std::map<std::tuple<long long, std::string, long long, long long>, int> out;
  for (const json& g : objects["gpus"]) {
    for (const json& e : g["events"]) {
      ++out[{g["gpu"].get<long long>(), e.value("op", std::string("-")), e.value("microbatch", -1LL),
             e.value("chunk", -1LL)}];
    }
  }
  return out;
}

TEST(Timeline, AWindowKeepsTheOpsWithAnEventInItAndTheirEvents) {
  const json whole = ask(overlapped_request());
  const double step_time = whole["step_time"];
  json request = overlapped_request();
  request["from"] = 0.3 * step_time;
  request["to"] = 0.5 * step_time;
  const json part = ask(request);
  ASSERT_FALSE(part.contains("error")) << part.dump();
  EXPECT_LT(part["event_count"].get<long long>(), whole["event_count"].get<long long>());
  EXPECT_EQ(part["breakdown"], whole["breakdown"]);
  // The ops of the whole answer with an event overlapping the window, each with all its events, and nothing else.
  std::map<std::tuple<long long, std::string, long long, long long>, int> expected;
  for (const json& g : whole["gpus"]) {
    std::map<std::tuple<long long, std::string, long long, long long>, std::pair<int, bool>> ops;
    for (const json& e : g["events"]) {
      const std::tuple<long long, std::string, long long, long long> key{
          g["gpu"].get<long long>(), e.value("op", std::string("-")), e.value("microbatch", -1LL),
          e.value("chunk", -1LL)};
      const bool in = e["start"].get<double>() <= 0.5 * step_time && e["end"].get<double>() >= 0.3 * step_time;
      if (std::get<1>(key) == "-") {  // the tail: event by event
        if (in) ++expected[key];
        continue;
      }
      ++ops[key].first;
      ops[key].second = ops[key].second || in;
    }
    for (const auto& [key, value] : ops) {
      if (value.second) expected[key] = value.first;
    }
  }
  EXPECT_EQ(ops_of(part), expected);
  long long count = 0;
  for (const auto& [key, n] : expected) count += n;
  EXPECT_EQ(part["event_count"].get<long long>(), count);
  // The same window as columns and as a trace: the same events.
  request["format"] = "columns";
  const json columns = ask(request);
  EXPECT_EQ(columns["event_count"], part["event_count"]);
  request["format"] = "chrome";
  check_chrome_trace(ask(request), part);
}

TEST(Timeline, AWindowOfALargeStepIsAnsweredAtFullDetail) {
  // 8 stages x 8,192 microbatches: too many events for any answer; a window of a hundredth of the step is not.
  json request = overlapped_request();
  request["parallel"] = {{"tp", 8}, {"pp", 8}, {"global_batch", 8192}};
  const json refused = ask(request);
  ASSERT_EQ(refused["error"]["code"], "too_large");
  json step = request;
  step["op"] = "step";
  const double step_time = ask(step)["step_time"];
  request["from"] = 0.5 * step_time;
  request["to"] = 0.51 * step_time;
  request["format"] = "objects";
  const json part = ask(request);
  ASSERT_FALSE(part.contains("error")) << part.dump().substr(0, 300);
  EXPECT_GT(part["event_count"].get<long long>(), 0);
  request["format"] = "chrome";
  check_chrome_trace(ask(request), part);
  json huge = request;  // 8 stages x 32,768 microbatches: ~2.6 million events, too many to cut a window from
  huge["parallel"]["global_batch"] = 32768;
  const json cut = ask(huge)["error"];
  EXPECT_EQ(cut["code"], "too_large");
  EXPECT_NE(cut["message"].get<std::string>().find("a window"), std::string::npos) << cut.dump();
  for (const auto& [from, to, code, field] :
       {std::tuple{json(0.2), json(0.1), "invalid_value", "to"}, std::tuple{json(-1), json(1), "out_of_range", "from"},
        std::tuple{json(0), json("1"), "wrong_type", "to"}}) {
    request["from"] = from;
    request["to"] = to;
    const json e = ask(request)["error"];
    EXPECT_EQ(e["code"], code) << from << " " << to;
    EXPECT_EQ(e["field"], field) << from << " " << to;
  }
}

TEST(Timeline, CliWritesTheTraceOfAStepRequest) {
  json step = overlapped_request();
  step["op"] = "step";
  const std::string dir = testing::TempDir();
  const std::string request_file = dir + "timeline_request.json", trace_file = dir + "timeline_trace.json";
  std::ofstream(request_file) << step.dump();
  const std::string cmd = std::string(PARASCOPE_CLI) + " --trace " + trace_file + " " + request_file;
  FILE* pipe = popen(cmd.c_str(), "r");
  std::string out;
  char buf[4096];
  while (std::size_t n = fread(buf, 1, sizeof buf, pipe)) out.append(buf, n);
  EXPECT_EQ(WEXITSTATUS(pclose(pipe)), 0);
  EXPECT_EQ(out, parascope::call(step.dump()) + "\n");  // stdout: the step's answer, as without --trace
  std::ifstream in(trace_file);
  const json trace = json::parse(in);
  check_chrome_trace(trace, ask(overlapped_request()));
}

}  // namespace
