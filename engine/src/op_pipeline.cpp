// The "pipeline" operation: a schedule's timeline of F/B/W ops and what it costs (bubble, busy time, activations).
#include <charconv>
#include <cmath>
#include <utility>

#include "code_size.hpp"
#include "json_out.hpp"
#include "json_text.hpp"
#include "ops.hpp"
#include "parascope/pipeline.hpp"
#include "pipeline_detail.hpp"

namespace parascope::detail {

namespace {

/// The largest op time or send over the shortest op that runs: at most this. Starts and ends are doubles of the
/// makespan's size (up to about 10^6 ops × the longest time); an op 10^16 times shorter than that has no length in them
/// (f = 1e-6 next to comm = 1e12 gave a steady bubble of −1). At 10^6, every op keeps ≥ 10^-4 of its length.
constexpr double kMaxTimeRatio = 1e6;

PARASCOPE_SMALL void check_time_scale(const PipelineSpec& spec) {
  const bool split = splits_backward(spec.schedule);
  const std::pair<const char*, double> times[] = {{"times.f", spec.times.f},
                                                  {"times.b", spec.forward_only ? 0.0 : spec.times.b},
                                                  {"times.w", split ? spec.times.w : 0.0},
                                                  {"times.comm", spec.times.comm}};
  const std::pair<const char*, double>* shortest = nullptr;
  const std::pair<const char*, double>* longest = &times[0];
  for (const auto& t : times) {
    if (t.second > longest->second) longest = &t;
    if (t.second > 0 && &t != &times[3] && (!shortest || t.second < shortest->second)) shortest = &t;
  }
  if (shortest && longest->second > kMaxTimeRatio * shortest->second) {
    refuse(code::inconsistent,
           {"times must lie within a factor of 1e6 of the shortest op: the timeline's numbers cannot "
            "resolve an op that much shorter than the makespan; got ",
            longest->first, " = ", double(longest->second), " and ", shortest->first, " = ", double(shortest->second)},
           longest->first);
  }
}

PARASCOPE_SMALL PipelineSpec read_spec(RequestReader& request) {
  PipelineSpec spec;
  spec.schedule = *parse_schedule(request.choice("schedule", schedule_ids()));
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
  check_time_scale(spec);
  return spec;
}

/// An op's start or end: whole numbers are written as integers ("12", not "12.0"); the value is the same.
json time_value(double t) {
  if (t == std::floor(t) && std::fabs(t) < 9e15) return json(std::int64_t(t));
  return json(t);
}

PARASCOPE_NOT_INLINED json ops_as_objects(const std::vector<PipelineOp>& ops) {
  json out = json::array();
  for (const PipelineOp& op : ops) {
    json& o = push_object(out);
    put(o, "stage", op.stage);
    put(o, "microbatch", op.microbatch);
    put(o, "kind", std::string(1, op.kind));
    put(o, "chunk", op.chunk);
    put(o, "start", time_value(op.start));
    put(o, "end", time_value(op.end));
  }
  return out;
}

/// Appends a number as JSON would write it (integers through to_chars, others through the JSON writer itself, so
/// native and wasm give the same text), followed by a comma.
void append_number(std::string& out, double x) {
  if (x == std::floor(x) && std::fabs(x) < 9e15) {
    char buf[24];
    const auto r = std::to_chars(buf, buf + sizeof buf, std::int64_t(x));
    out.append(buf, r.ptr);
  } else {
    out += dump_text(json(x));
  }
  out += ',';
}

/// "packed": each column is one string of comma-separated numbers. Writing (and parsing) a handful of long strings is
/// several times faster than tens of thousands of JSON numbers, which is what lets the widget redraw within a frame.
/// Instead of a stage per op, the number of ops of each stage (ops come stage by stage); no end times: an op ends at
/// start + its kind's duration (times.f, times.b, times.w, in the response); and a start is left empty when the op
/// begins the moment the stage's previous op ends (or at 0 for a stage's first op), which most ops do.
PARASCOPE_NOT_INLINED json ops_packed(const std::vector<PipelineOp>& ops, int stages) {
  std::vector<std::int64_t> per_stage(static_cast<std::size_t>(stages), 0);
  std::string kind, microbatch, chunk, start;
  kind.reserve(ops.size());
  microbatch.reserve(ops.size() * 4);
  chunk.reserve(ops.size() * 2);
  start.reserve(ops.size() * 6);
  double previous_end = 0;
  for (std::size_t i = 0; i < ops.size(); ++i) {
    const PipelineOp& op = ops[i];
    if (i == 0 || op.stage != ops[i - 1].stage) previous_end = 0;
    ++per_stage[std::size_t(op.stage)];
    kind.push_back(op.kind);
    append_number(microbatch, op.microbatch);
    append_number(chunk, op.chunk);
    if (op.start == previous_end) {
      start += ',';
    } else {
      append_number(start, op.start);
    }
    previous_end = op.end;
  }
  for (std::string* column : {&microbatch, &chunk, &start}) {
    if (!column->empty()) column->pop_back();  // the last comma
  }
  json out;
  put(out, "per_stage", per_stage);
  put(out, "kind", std::move(kind));
  put(out, "microbatch", std::move(microbatch));
  put(out, "chunk", std::move(chunk));
  put(out, "start", std::move(start));
  return out;
}

/// "binary": no numbers in the JSON at all. The columns go to the call's attachment (parascope::last_attachment),
/// column after column, `count` numbers each: microbatch, kind (the character code of 'F', 'B' or 'W'), chunk, start,
/// end. Ops come stage by stage, `per_stage` of each. For in-process callers (the wasm page copies them out as one
/// Float64Array); the CLI prints only the JSON.
PARASCOPE_NOT_INLINED json ops_binary(const std::vector<PipelineOp>& ops, int stages) {
  std::vector<std::int64_t> per_stage(static_cast<std::size_t>(stages), 0);
  const std::size_t n = ops.size();
  std::vector<double>& out = attachment();
  out.assign(5 * n, 0.0);
  for (std::size_t i = 0; i < n; ++i) {
    const PipelineOp& op = ops[i];
    ++per_stage[std::size_t(op.stage)];
    out[i] = op.microbatch;
    out[n + i] = double(op.kind);
    out[2 * n + i] = op.chunk;
    out[3 * n + i] = op.start;
    out[4 * n + i] = op.end;
  }
  json answer;
  put(answer, "format", "binary");
  put(answer, "count", n);
  put(answer, "per_stage", per_stage);
  put(answer, "columns", json::array({"microbatch", "kind", "chunk", "start", "end"}));
  return answer;
}

/// Ops an answer may carry, by format: what keeps the largest answer within 256 MB natively and the wasm heap under
/// 64 MiB (engine/API.md, "Cost of the largest request"). Objects cost ~0.7 KB each to build as JSON; packed and
/// binary ~70 bytes (the timeline plus its text or numbers); metrics alone need no timeline (kMaxPipelineOps).
/// Listed ops were 500,000: binary then peaked at 50 MiB of wasm heap alone, and one module answering every largest
/// request in turn ended at 58 MiB; at 250,000 a binary answer peaks near 33 MiB (the bubble widget lists ≤ 98,304).
constexpr std::int64_t kMaxObjectOps = 50'000;
constexpr std::int64_t kMaxListedOps = 250'000;

PARASCOPE_SMALL void check_answer_size(const PipelineSpec& spec, const std::string& format, bool sent_format) {
  if (!spec.record_ops) return;
  const std::int64_t ops = pipeline_op_count(spec);
  const std::int64_t limit = format == "objects" ? kMaxObjectOps : kMaxListedOps;
  if (ops <= limit) return;
  refuse(code::too_large,
         {"this schedule has ", ops, " ops; an answer lists at most ", kMaxObjectOps,
          " as objects (ops_format \"objects\", the default) and ", kMaxListedOps,
          " as \"packed\" or \"binary\"; with include_ops false up to ", kMaxPipelineOps, " are timed"},
         sent_format ? "ops_format" : "microbatches");
}

/// A refusal in this op's words: each knob is the request field of its name; too many ops blames no one field.
PARASCOPE_SMALL RequestError in_request_terms(const PipelineError& e) {
  const char* field = "";
  switch (e.knob) {
    case PipelineKnob::stages:
      field = "stages";
      break;
    case PipelineKnob::microbatches:
      field = "microbatches";
      break;
    case PipelineKnob::chunks:
      field = "chunks";
      break;
    case PipelineKnob::forward_only:
      field = "forward_only";
      break;
    case PipelineKnob::time_f:
      field = "times.f";
      break;
    case PipelineKnob::time_b:
      field = "times.b";
      break;
    case PipelineKnob::time_w:
      field = "times.w";
      break;
    case PipelineKnob::time_comm:
      field = "times.comm";
      break;
    case PipelineKnob::size:
      break;
  }
  return RequestError(e.code, e.message, field);
}

}  // namespace

// Reading, checks and the answer around the per-op writers (-O3): optimised for size in the wasm.
PARASCOPE_SMALL json op_pipeline(RequestReader& request) {
  PipelineSpec spec = read_spec(request);
  spec.record_ops = request.boolean_or("include_ops", true);
  // A stage in the bubble waits inside a posted receive (or the step's closing synchronisation): a kernel is resident,
  // so "GPU utilization" (NVML's share of time a kernel runs, what nvidia-smi shows) counts the wait as busy. Set
  // false for a runtime that waits on the host instead: then the dashboard sees the bubble as idle.
  const bool bubble_kernel_resident = request.boolean_or("bubble_kernel_resident", true);
  const std::string format = request.choice_or("ops_format", "objects", {"objects", "packed", "binary"});
  // check_only: is this spec accepted? The same refusals as the full request, nothing built or simulated (a widget asks
  // it of candidate slider positions to offer only values the engine accepts).
  const bool check_only = request.boolean_or("check_only", false);
  const bool sent_format = request.has("ops_format");
  request.finish();
  if (auto refused = pipeline_refusal(spec)) throw in_request_terms(*refused);
  check_answer_size(spec, format, sent_format);
  json out;
  if (check_only) {
    put(out, "valid", true);
    return out;
  }

  const PipelineResult r = run_pipeline(spec);
  const PipelineMetrics& mt = r.metrics;
  double useful = 0;
  for (double b : mt.busy) useful += b;
  const PipelineClosedForm& cf = r.closed_form;
  put(out, "schedule", schedule_id(spec.schedule));
  put(out, "stages", spec.stages);
  put(out, "microbatches", spec.microbatches);
  put(out, "chunks", spec.chunks);
  put(out, "forward_only", spec.forward_only);
  json& times = put_object(out, "times");
  put(times, "f", spec.times.f);
  put(times, "b", spec.times.b);
  put(times, "w", spec.times.w);
  put(times, "comm", spec.times.comm);
  put(out, "makespan", mt.makespan);
  put(out, "busy", mt.busy);
  put(out, "useful_time", useful);
  put(out, "efficiency", 1 - mt.bubble_fraction);
  put(out, "bubble_fraction", mt.bubble_fraction);
  put(out, "steady_bubble_fraction", mt.steady_bubble_fraction);
  put(out, "dashboard_utilization", bubble_kernel_resident ? 1.0 : 1.0 - mt.bubble_fraction);
  put(out, "peak_activations", mt.peak_activations);
  put(out, "chunk_model_fraction", mt.chunk_model_fraction);
  if (mt.critical_sends >= 0) {
    put(out, "critical_sends", mt.critical_sends);
  } else {
    put(out, "critical_sends", nullptr);
  }
  json& closed = put_object(out, "closed_form");
  put(closed, "formula", cf.formula);
  put(closed, "substituted", cf.substituted);
  if (cf.value) {
    put(closed, "value", *cf.value);
  } else {
    put(closed, "value", nullptr);
  }
  put(closed, "measure", cf.measure);
  put(closed, "condition", cf.condition);
  put(closed, "source", cf.source);
  if (spec.record_ops) {
    put(out, "ops",
        format == "packed"   ? ops_packed(r.ops, spec.stages)
        : format == "binary" ? ops_binary(r.ops, spec.stages)
                             : ops_as_objects(r.ops));
  }
  return out;
}

}  // namespace parascope::detail
