// The "memory_timeline" operation: a step request and a stage -> that GPU's memory through one step, segment by
// segment (memory_timeline.hpp), the peak's moment marked; its peak is step's memory_per_gpu for the stage. The
// answer carries the step's own answer too, so a figure drawing it asks the engine once.
#include <string>

#include "error_band.hpp"
#include "json_out.hpp"
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
  put(out, "segments", segments_json(t));
  put(out, "activation_sets", spans_json(t));
  put(out, "peak", peak_json(t));
  put(out, "step", step_json(s, step));
  return out;
}

}  // namespace parascope::detail
