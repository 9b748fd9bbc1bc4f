// The "memory_timeline" operation: a step request and a stage -> that GPU's memory through one step, segment by
// segment (memory_timeline.hpp), the peak's moment marked; its peak is step's memory_per_gpu for the stage. The
// answer carries the step's own answer too, so a figure drawing it asks the engine once.
#include <cmath>
#include <string>
#include <vector>

#include "error_band.hpp"
#include "json_out.hpp"
#include "json_text.hpp"
#include "memory_timeline.hpp"
#include "ops.hpp"
#include "step_json.hpp"
#include "step_phases.hpp"

namespace parascope::detail {

namespace {

/// The largest schedule the op lays out: every op recorded (32 bytes each), and one stage's ops as segments.
constexpr std::int64_t kMaxTimelineOps = 250'000;
constexpr std::int64_t kMaxStageOps = 20'000;

/// Refuses a schedule whose op list or one stage's segments would pass the limits (engine/API.md, the largest request).
void check_size(const ParallelConfig& p) {
  const std::int64_t ops = pipeline_op_count(pipeline_spec_of(p));
  if (ops > kMaxTimelineOps || ops / p.pp > kMaxStageOps) {
    refuse(code::too_large,
           {"memory_timeline lays out at most ", std::to_string(kMaxTimelineOps), " ops, ",
            std::to_string(kMaxStageOps), " on one stage: this schedule has ", std::to_string(ops), " (",
            std::to_string(ops / p.pp), " per stage); fewer microbatches (a smaller global_batch) or more stages"},
           "parallel.global_batch");
  }
}

json peak_json(const MemoryTimeline& t) {
  const MemorySegment& s = t.segments[t.peak];
  json out;
  put(out, "segment", std::int64_t(t.peak));
  put(out, "time", s.start);
  put(out, "kind", std::string(1, s.kind));
  put(out, "microbatch", s.microbatch);
  put(out, "sets", s.sets);
  put(out, "activations", s.memory.activations);
  put(out, "transient", s.memory.transient);
  put(out, "peak_at_loss", s.memory.peak_at_loss);
  put(out, "allocator_reserve", s.memory.allocator_reserve);
  put(out, "total", s.memory.total);
  return out;
}

/// `"key":[v,...]`, v = get(list[i]) written as a double or an integer: one loop for every column (not one per field,
/// which the module's bytes would pay for).
template <class Item>
void column(JsonText& out, const char* key, const std::vector<Item>& list, double (*get)(const Item&), bool integer) {
  out.key(key);
  out.raw('[');
  for (std::size_t i = 0; i < list.size(); ++i) {
    if (i) out.raw(',');
    if (integer) {
      out.integer(std::int64_t(get(list[i])));
    } else {
      out.number(get(list[i]));
    }
  }
  out.raw(']');
}

/// The segments as columns (one array per field; `kind` one letter per segment), written as JSON text without a tree
/// (keys in the writer's sorted order, numbers as it writes them): at 64 stages x 512 microbatches a tree's 15,000
/// numbers were built, written and freed in a third of the op's time.
std::string segments_text(const MemoryTimeline& t) {
  using S = MemorySegment;
  struct Column {
    const char* key;
    double (*get)(const S&);
    bool integer;
  };
  static const Column columns[] = {
      {"activations", [](const S& s) { return s.memory.activations; }, false},
      {"allocator_reserve", [](const S& s) { return s.memory.allocator_reserve; }, false},
      {"chunk", [](const S& s) { return double(s.chunk); }, true},
      {"end", [](const S& s) { return s.end; }, false},
      {"kind", nullptr, false},
      {"microbatch", [](const S& s) { return double(s.microbatch); }, true},
      {"sets", [](const S& s) { return double(s.sets); }, true},
      {"start", [](const S& s) { return s.start; }, false},
      {"total", [](const S& s) { return s.memory.total; }, false},
      {"transient", [](const S& s) { return s.memory.transient; }, false},
  };
  JsonText out;
  out.text().reserve(t.segments.size() * 160 + 64);
  out.raw('{');
  for (const Column& c : columns) {
    if (c.key != columns[0].key) out.raw(',');
    if (c.get) {
      column(out, c.key, t.segments, c.get, c.integer);
      continue;
    }
    std::string kinds;
    kinds.reserve(t.segments.size());
    for (const S& s : t.segments) kinds.push_back(s.kind);
    out.key(c.key);
    out.string(kinds);
  }
  out.raw('}');
  return std::move(out.text());
}

/// The activation sets as columns, likewise.
std::string spans_text(const MemoryTimeline& t) {
  using A = ActivationSpan;
  JsonText out;
  out.text().reserve(t.spans.size() * 64 + 64);
  out.raw('{');
  column<A>(
      out, "chunk", t.spans, [](const A& s) { return double(s.chunk); }, true);
  out.raw(',');
  column<A>(
      out, "from", t.spans, [](const A& s) { return s.from; }, false);
  out.raw(',');
  column<A>(
      out, "microbatch", t.spans, [](const A& s) { return double(s.microbatch); }, true);
  out.raw(',');
  column<A>(
      out, "to", t.spans, [](const A& s) { return s.to; }, false);
  out.raw('}');
  return std::move(out.text());
}

/// columns_format "binary": the segments' columns, then the activation sets', each column's numbers one after another
/// in the call's attachment (parascope::last_attachment; `kind` as the letter's character code), and in the JSON only
/// where each block starts and what its columns are: no number is written as text nor parsed back.
json binary_columns(const MemoryTimeline& t) {
  using S = MemorySegment;
  using A = ActivationSpan;
  static double (*const segment_columns[])(const S&) = {
      [](const S& s) { return s.memory.activations; }, [](const S& s) { return s.memory.allocator_reserve; },
      [](const S& s) { return double(s.chunk); },      [](const S& s) { return s.end; },
      [](const S& s) { return double(s.kind); },       [](const S& s) { return double(s.microbatch); },
      [](const S& s) { return double(s.sets); },       [](const S& s) { return s.start; },
      [](const S& s) { return s.memory.total; },       [](const S& s) { return s.memory.transient; }};
  static double (*const span_columns[])(const A&) = {
      [](const A& s) { return double(s.chunk); }, [](const A& s) { return s.from; },
      [](const A& s) { return double(s.microbatch); }, [](const A& s) { return s.to; }};
  std::vector<double>& out = attachment();
  out.clear();
  out.reserve(10 * t.segments.size() + 4 * t.spans.size());
  for (auto get : segment_columns)
    for (const S& s : t.segments) out.push_back(get(s));
  for (auto get : span_columns)
    for (const A& s : t.spans) out.push_back(get(s));
  for (const double v : out) {
    if (!std::isfinite(v)) JsonText().number(v);  // refused as the text columns refuse it
  }
  auto block = [](std::size_t offset, std::size_t count, json columns) {
    json b;
    put(b, "format", "binary");
    put(b, "offset", offset);
    put(b, "count", count);
    put(b, "columns", std::move(columns));
    return b;
  };
  json both;
  put(both, "segments",
      block(0, t.segments.size(),
            {"activations", "allocator_reserve", "chunk", "end", "kind", "microbatch", "sets", "start", "total",
             "transient"}));
  put(both, "activation_sets", block(10 * t.segments.size(), t.spans.size(), {"chunk", "from", "microbatch", "to"}));
  return both;
}

/// `step`'s answer for the same request (op_step.cpp), from the same StepResult: every field but `hfu_note`,
/// `network_fit` and `error_band.network` (that what-if costs the step a second time, on a slower network).
json step_json(const StepRequest& s, const StepResult& step) {
  json out = step_to_json(step);
  put(out, "error_band", error_band_json(error_bands(s.software, s.run.hardware.id), step));
  return out;
}

}  // namespace

json op_memory_timeline(RequestReader& request) {
  const StepRequest s = read_step_request(request);
  const std::int64_t stage = request.has("stage") ? request.integer("stage", 0, s.run.parallel.pp - 1) : -1;
  const bool binary = request.choice_or("columns_format", "text", {"text", "binary"}) == "binary";
  request.finish();
  check_size(s.run.parallel);
  const StepResult step = evaluate(s);
  const MemoryTimeline t = memory_timeline(s.run, s.efficiency, step, stage);
  const MemoryPerGpu& states = t.segments[t.peak].memory;
  json out;
  put(out, "stage", t.stage);
  put(out, "most_loaded_stage", t.most_loaded_stage);
  put(out, "step_time", t.step_time);
  put(out, "pipeline_end", t.pipeline_end);
  put(out, "capacity", s.run.hardware.memory_bytes);
  put(out, "step_memory_total", step.memory.total);
  json& fixed = put_object(out, "states");
  put(fixed, "weights", states.weights);
  put(fixed, "gradients", states.gradients);
  put(fixed, "optimizer", states.optimizer);
  put(fixed, "runtime", states.runtime);
  put(out, "set_bytes", t.set_bytes);
  put(out, "peak", peak_json(t));
  put(out, "step", step_json(s, step));
  // A number that overflowed: the tree, which call() refuses naming it (a column's, JsonText::number refuses).
  if (!all_finite(out)) return out;
  if (binary) {
    json columns = binary_columns(t);
    put(out, "segments", std::move(columns["segments"]));
    put(out, "activation_sets", std::move(columns["activation_sets"]));
    return out;
  }
  // The columns as text around the small tree (json_text.hpp): the same answer, byte for byte.
  put(out, "segments", nullptr);
  put(out, "activation_sets", nullptr);
  text_answer() = splice(splice(out, "activation_sets", spans_text(t)), "segments", segments_text(t));
  return json();
}

}  // namespace parascope::detail
