// The "pipeline" operation: a schedule's timeline of F/B/W ops and what it costs (bubble, busy time, activations).
#include <cmath>

#include "ops.hpp"
#include "parascope/pipeline.hpp"

namespace parascope::detail {

namespace {

PipelineSpec read_spec(RequestReader& request) {
  PipelineSpec spec;
  const std::string id =
      request.choice("schedule", {"gpipe", "1f1b", "interleaved", "zb-h1", "zb-h2", "dualpipe"});
  spec.schedule = *parse_schedule(id);
  spec.stages = int(request.integer("stages", 1, kMaxPipelineStages));
  spec.microbatches = int(request.integer("microbatches", 1, kMaxPipelineMicrobatches));
  spec.chunks = int(request.integer_or("chunks", 1, 1, kMaxPipelineChunks));
  spec.forward_only = request.boolean_or("forward_only", false);
  spec.times = default_times(spec.schedule);
  request.accept("times");
  if (request.has("times")) {
    RequestReader times = request.object("times");
    spec.times.f = times.number_or("f", spec.times.f, 0, 1e12, true);
    spec.times.b = times.number_or("b", spec.times.b, 0, 1e12, !spec.forward_only);
    spec.times.w = times.number_or("w", spec.times.w, 0, 1e12);
    spec.times.comm = times.number_or("comm", spec.times.comm, 0, 1e12);
    times.finish();
  }
  return spec;
}

/// An op's start or end: whole numbers are written as integers ("12", not "12.0"), which is shorter and much faster to
/// print than a double; the value is the same.
json time_value(double t) {
  if (t == std::floor(t) && std::fabs(t) < 9e15) return json(std::int64_t(t));
  return json(t);
}

json ops_as_objects(const std::vector<PipelineOp>& ops) {
  json out = json::array();
  for (const PipelineOp& op : ops) {
    out.push_back({{"stage", op.stage}, {"microbatch", op.microbatch}, {"kind", std::string(1, op.kind)},
                   {"chunk", op.chunk}, {"start", time_value(op.start)}, {"end", time_value(op.end)}});
  }
  return out;
}

/// One array per field (and the kinds as one string): much smaller and faster to parse than one object per op.
json ops_as_columns(const std::vector<PipelineOp>& ops) {
  std::vector<int> stage, microbatch, chunk;
  json::array_t start, end;
  std::string kind;
  for (auto* v : {&stage, &microbatch, &chunk}) v->reserve(ops.size());
  start.reserve(ops.size());
  end.reserve(ops.size());
  kind.reserve(ops.size());
  for (const PipelineOp& op : ops) {
    stage.push_back(op.stage);
    microbatch.push_back(op.microbatch);
    chunk.push_back(op.chunk);
    start.push_back(time_value(op.start));
    end.push_back(time_value(op.end));
    kind.push_back(op.kind);
  }
  return {{"stage", stage}, {"microbatch", microbatch}, {"kind", std::move(kind)},
          {"chunk", chunk}, {"start", std::move(start)}, {"end", std::move(end)}};
}

}  // namespace

json op_pipeline(RequestReader& request) {
  PipelineSpec spec = read_spec(request);
  spec.record_ops = request.boolean_or("include_ops", true);
  const bool columns = request.choice_or("ops_format", "objects", {"objects", "columns"}) == "columns";
  request.finish();

  const PipelineResult r = run_pipeline(spec);
  const PipelineMetrics& mt = r.metrics;
  double useful = 0;
  for (double b : mt.busy) useful += b;
  const PipelineClosedForm& cf = r.closed_form;
  json out = {
      {"schedule", std::string(schedule_id(spec.schedule))},
      {"stages", spec.stages},
      {"microbatches", spec.microbatches},
      {"chunks", spec.chunks},
      {"forward_only", spec.forward_only},
      {"times", {{"f", spec.times.f}, {"b", spec.times.b}, {"w", spec.times.w}, {"comm", spec.times.comm}}},
      {"makespan", mt.makespan},
      {"busy", mt.busy},
      {"useful_time", useful},
      {"efficiency", 1 - mt.bubble_fraction},
      {"bubble_fraction", mt.bubble_fraction},
      {"steady_bubble_fraction", mt.steady_bubble_fraction},
      // A stage in the bubble is blocked in a receive (or the step's final synchronisation): a kernel is resident,
      // so "GPU utilization" (the share of time a kernel runs, as nvidia-smi reports it) reads 100 %.
      {"dashboard_utilization", 1.0},
      {"peak_activations", mt.peak_activations},
      {"chunk_model_fraction", mt.chunk_model_fraction},
      {"closed_form",
       {{"formula", cf.formula},
        {"substituted", cf.substituted},
        {"value", cf.value ? json(*cf.value) : json(nullptr)},
        {"measure", cf.measure},
        {"condition", cf.condition},
        {"source", cf.source}}},
  };
  if (spec.record_ops) out["ops"] = columns ? ops_as_columns(r.ops) : ops_as_objects(r.ops);
  return out;
}

}  // namespace parascope::detail
