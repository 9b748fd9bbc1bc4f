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

/// The segments as columns (one array per field; `kinds` one letter per segment): a 512-microbatch stage has
/// thousands of them.
json segments_json(const MemoryTimeline& t) {
  json out;
  json &start = put_array(out, "start"), &end = put_array(out, "end"), &mb = put_array(out, "microbatch");
  json &chunk = put_array(out, "chunk"), &sets = put_array(out, "sets"), &act = put_array(out, "activations");
  json &transient = put_array(out, "transient"), &reserve = put_array(out, "allocator_reserve");
  json& total = put_array(out, "total");
  for (json* column : {&start, &end, &mb, &chunk, &sets, &act, &transient, &reserve, &total}) {
    column->get_ref<json::array_t&>().reserve(t.segments.size());
  }
  std::string kinds;
  kinds.reserve(t.segments.size());
  for (const MemorySegment& s : t.segments) {
    start.push_back(s.start);
    end.push_back(s.end);
    kinds.push_back(s.kind);
    mb.push_back(s.microbatch);
    chunk.push_back(s.chunk);
    sets.push_back(s.sets);
    act.push_back(s.memory.activations);
    transient.push_back(s.memory.transient);
    reserve.push_back(s.memory.allocator_reserve);
    total.push_back(s.memory.total);
  }
  put(out, "kind", std::move(kinds));
  return out;
}

json spans_json(const MemoryTimeline& t) {
  json out;
  json &mb = put_array(out, "microbatch"), &chunk = put_array(out, "chunk");
  json &from = put_array(out, "from"), &to = put_array(out, "to");
  for (json* column : {&mb, &chunk, &from, &to}) column->get_ref<json::array_t&>().reserve(t.spans.size());
  for (const ActivationSpan& s : t.spans) {
    mb.push_back(s.microbatch);
    chunk.push_back(s.chunk);
    from.push_back(s.from);
    to.push_back(s.to);
  }
  return out;
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

/// Whether every number of `v` is finite (call() refuses an answer holding another; the text path must too).
bool finite(const json& v) {
  if (v.is_number_float()) return std::isfinite(v.get<double>());
  if (v.is_structured()) {
    for (const json& child : v) {
      if (!finite(child)) return false;
    }
  }
  return true;
}

bool finite(const MemoryTimeline& t) {
  for (const MemorySegment& s : t.segments) {
    const double numbers[] = {
        s.start, s.end, s.memory.activations, s.memory.transient, s.memory.allocator_reserve, s.memory.total};
    for (double x : numbers) {
      if (!std::isfinite(x)) return false;
    }
  }
  for (const ActivationSpan& s : t.spans) {
    if (!std::isfinite(s.from) || !std::isfinite(s.to)) return false;
  }
  return true;
}

/// `"key":[v,...]` over `list`, each element written by `value`.
template <class List, class Value>
void column(JsonText& out, const char* key, const List& list, Value value) {
  out.key(key);
  out.raw('[');
  for (std::size_t i = 0; i < list.size(); ++i) {
    if (i) out.raw(',');
    value(list[i]);
  }
  out.raw(']');
}

/// segments_json's text, written without the tree (keys in the writer's sorted order, numbers as it writes them): at
/// 64 stages x 512 microbatches the tree's 15,000 numbers were built, written and freed in a third of the op's time.
std::string segments_text(const MemoryTimeline& t) {
  JsonText out;
  out.text().reserve(t.segments.size() * 160 + 64);
  const std::vector<MemorySegment>& g = t.segments;
  out.raw('{');
  column(out, "activations", g, [&](const MemorySegment& s) { out.number(s.memory.activations); });
  out.raw(',');
  column(out, "allocator_reserve", g, [&](const MemorySegment& s) { out.number(s.memory.allocator_reserve); });
  out.raw(',');
  column(out, "chunk", g, [&](const MemorySegment& s) { out.integer(s.chunk); });
  out.raw(',');
  column(out, "end", g, [&](const MemorySegment& s) { out.number(s.end); });
  out.raw(',');
  std::string kinds;
  kinds.reserve(g.size());
  for (const MemorySegment& s : g) kinds.push_back(s.kind);
  out.key("kind");
  out.string(kinds);
  out.raw(',');
  column(out, "microbatch", g, [&](const MemorySegment& s) { out.integer(s.microbatch); });
  out.raw(',');
  column(out, "sets", g, [&](const MemorySegment& s) { out.integer(s.sets); });
  out.raw(',');
  column(out, "start", g, [&](const MemorySegment& s) { out.number(s.start); });
  out.raw(',');
  column(out, "total", g, [&](const MemorySegment& s) { out.number(s.memory.total); });
  out.raw(',');
  column(out, "transient", g, [&](const MemorySegment& s) { out.number(s.memory.transient); });
  out.raw('}');
  return std::move(out.text());
}

/// spans_json's text, likewise.
std::string spans_text(const MemoryTimeline& t) {
  JsonText out;
  out.text().reserve(t.spans.size() * 64 + 64);
  out.raw('{');
  column(out, "chunk", t.spans, [&](const ActivationSpan& s) { out.integer(s.chunk); });
  out.raw(',');
  column(out, "from", t.spans, [&](const ActivationSpan& s) { out.number(s.from); });
  out.raw(',');
  column(out, "microbatch", t.spans, [&](const ActivationSpan& s) { out.integer(s.microbatch); });
  out.raw(',');
  column(out, "to", t.spans, [&](const ActivationSpan& s) { out.number(s.to); });
  out.raw('}');
  return std::move(out.text());
}

/// `text` with its member `"key":null` written as `body` (json_text.hpp's splice, on a text already spliced once).
std::string filled(const std::string& text, const char* key, const std::string& body) {
  const std::string marker = "\"" + std::string(key) + "\":null";
  const std::size_t at = text.find(marker) + marker.size() - 4;  // the null
  std::string out;
  out.reserve(text.size() + body.size());
  out.append(text, 0, at);
  out += body;
  out.append(text, at + 4, std::string::npos);
  return out;
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
  if (!finite(out) || !finite(t)) {  // the tree, which call() refuses naming the number that overflowed
    put(out, "segments", segments_json(t));
    put(out, "activation_sets", spans_json(t));
    return out;
  }
  // The columns as text around the small tree (json_text.hpp): the same answer, byte for byte.
  put(out, "segments", nullptr);
  put(out, "activation_sets", nullptr);
  text_answer() = filled(splice(out, "activation_sets", spans_text(t)), "segments", segments_text(t));
  return json();
}

}  // namespace parascope::detail
