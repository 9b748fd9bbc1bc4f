// Pipeline schedules: names, defaults, validation of a spec, and run_pipeline (build the programs, simulate, measure).
#include "parascope/pipeline.hpp"

#include <cmath>

#include "parascope/error.hpp"
#include "pipeline_compiled.hpp"
#include "pipeline_detail.hpp"
#include "request_reader.hpp"

namespace parascope {

namespace {

struct ScheduleName {
  Schedule schedule;
  std::string_view id;
};

constexpr ScheduleName kSchedules[] = {
    {Schedule::gpipe, "gpipe"}, {Schedule::one_f_one_b, "1f1b"}, {Schedule::interleaved, "interleaved"},
    {Schedule::zb_h1, "zb-h1"}, {Schedule::zb_h2, "zb-h2"},      {Schedule::dualpipe, "dualpipe"},
};

constexpr double kMaxDuration = 1e12;

void check_count(const char* field, int value, int max) {
  if (value < 1 || value > max) {
    throw RequestError(code::out_of_range,
                       std::string(field) + " must be an integer from 1 to " + std::to_string(max) + "; got " +
                           std::to_string(value),
                       field);
  }
}

void check_duration(const char* field, double value, bool may_be_zero) {
  if (!std::isfinite(value)) throw RequestError(code::not_finite, std::string(field) + " must be finite", field);
  if (value < 0 || (!may_be_zero && value == 0) || value > kMaxDuration) {
    throw RequestError(code::out_of_range,
                       std::string(field) + " must be " + (may_be_zero ? "from 0" : "greater than 0") +
                           " and at most 1e12; got " + detail::format_number(value),
                       field);
  }
}

/// Refusals for settings that do not go together. Each message starts with the rule, up to the first colon (a reader
/// can show that part beside the control that broke it), then says why, then what it got.
void validate(const PipelineSpec& spec) {
  check_count("stages", spec.stages, kMaxPipelineStages);
  check_count("microbatches", spec.microbatches, kMaxPipelineMicrobatches);
  check_count("chunks", spec.chunks, kMaxPipelineChunks);
  const std::string id(schedule_id(spec.schedule));
  if (spec.forward_only && spec.schedule != Schedule::gpipe && spec.schedule != Schedule::interleaved) {
    // What sets 1F1B, ZB-H1, ZB-H2 and DualPipe apart is where they place the backward passes; without them each is
    // GPipe's forward half under another name, and its known bubble (a statement about the whole pass) would not apply.
    throw RequestError(code::inconsistent,
                       id + " is drawn with its backward passes: it differs from gpipe in where it places them, so its "
                            "forward half alone is gpipe's; forward_only applies to gpipe and interleaved",
                       "forward_only");
  }
  if (spec.schedule != Schedule::interleaved && spec.chunks != 1) {
    throw RequestError(code::inconsistent,
                       "chunks apply to the interleaved schedule only: a chunk is a virtual stage, and " + id +
                           " runs one per GPU, so leave chunks at 1",
                       "chunks");
  }
  if (spec.schedule == Schedule::interleaved && spec.chunks > 1 && spec.microbatches > spec.stages &&
      spec.microbatches % spec.stages != 0) {
    // Megatron-LM runs microbatches in groups of p through chunk 0, then chunk 1, ...; with a short last group its
    // warm-up count leaves stages waiting on each other (the simulation deadlocks), and Megatron refuses it too.
    throw RequestError(code::inconsistent,
                       "interleaved needs microbatches in a multiple of stages (" + std::to_string(spec.stages) +
                           ") or fewer: it runs them in groups of p = " + std::to_string(spec.stages) +
                           " (one group through chunk 0, then chunk 1, ...) and a short last group after full ones "
                           "leaves stages waiting on each other; got " +
                           std::to_string(spec.microbatches),
                       "microbatches");
  }
  if (spec.schedule == Schedule::dualpipe) {
    if (spec.stages % 2 != 0) {
      throw RequestError(code::inconsistent,
                         "dualpipe needs an even number of stages: it pairs rank r with rank p−1−r and feeds "
                         "microbatches from both ends; got " + std::to_string(spec.stages),
                         "stages");
    }
    if (spec.microbatches % 2 != 0) {
      throw RequestError(code::inconsistent,
                         "dualpipe needs an even number of microbatches: half enter at each end of the pipeline; got " +
                             std::to_string(spec.microbatches),
                         "microbatches");
    }
    if (spec.microbatches < 2 * spec.stages) {
      throw RequestError(code::inconsistent,
                         "dualpipe needs at least 2 microbatches per stage (" + std::to_string(2 * spec.stages) +
                             " here): DeepSeek's reference implementation asserts microbatches ≥ 2·stages; got " +
                             std::to_string(spec.microbatches),
                         "microbatches");
    }
  }
  check_duration("times.f", spec.times.f, false);
  check_duration("times.b", spec.times.b, spec.forward_only);
  check_duration("times.w", spec.times.w, true);
  check_duration("times.comm", spec.times.comm, true);
  if (!detail::splits_backward(spec.schedule) && spec.times.w != 0) {
    throw RequestError(code::inconsistent,
                       id + " runs the whole backward as one op of length times.b; put the weight-gradient time into "
                            "times.b and leave times.w at 0 (only zb-h1, zb-h2 and dualpipe split it off)",
                       "times.w");
  }
  if (pipeline_op_count(spec) > kMaxPipelineOps) {
    throw RequestError(code::too_large,
                       "this schedule would have " + std::to_string(pipeline_op_count(spec)) +
                           " ops (stages × microbatches × chunks × op kinds); the limit is 1000000",
                       "");
  }
}

}  // namespace

std::optional<Schedule> parse_schedule(std::string_view id) {
  for (const auto& s : kSchedules) {
    if (s.id == id) return s.schedule;
  }
  return std::nullopt;
}

std::string_view schedule_id(Schedule schedule) {
  for (const auto& s : kSchedules) {
    if (s.schedule == schedule) return s.id;
  }
  return "?";
}

PipelineTimes default_times(Schedule schedule) {
  PipelineTimes t;
  if (detail::splits_backward(schedule)) {
    t.b = 1;
    t.w = 1;
  }
  return t;
}

std::int64_t pipeline_op_count(const PipelineSpec& spec) {
  const std::int64_t kinds = spec.forward_only ? 1 : detail::splits_backward(spec.schedule) ? 3 : 2;
  const std::int64_t chunks = spec.schedule == Schedule::interleaved ? std::max(spec.chunks, 1) : 1;
  return std::int64_t(std::max(spec.stages, 0)) * std::int64_t(std::max(spec.microbatches, 0)) * chunks * kinds;
}

namespace {

/// Validates, builds the programs and times every op: everything run_pipeline does but the closed form.
PipelineResult simulate(const PipelineSpec& spec) {
  validate(spec);
  if (spec.schedule == Schedule::zb_h2) return detail::simulate_zb_h2(spec);
  return detail::simulate_programs(spec, detail::make_layout(spec), detail::build_orders(spec));
}

}  // namespace

void check_pipeline(const PipelineSpec& spec) { validate(spec); }

PipelineMetrics pipeline_metrics(const PipelineSpec& spec) {
  if (spec.stages == 1 && spec.schedule == Schedule::dualpipe) {
    // The cost model's pp = 1: no pipeline at all, so no pairing of ranks; one stage runs F, B, W per microbatch in
    // turn, which is ZB-H1's order on one stage (and what DualPipe's order degenerates to).
    PipelineSpec one = spec;
    one.schedule = Schedule::zb_h1;
    return pipeline_metrics(one);
  }
  validate(spec);
  if (auto steady = detail::steady_pipeline_metrics(spec)) return *steady;
  return simulate(spec).metrics;
}

PipelineResult run_pipeline(const PipelineSpec& spec) {
  PipelineResult result = simulate(spec);
  result.closed_form = detail::closed_form(spec);
  return result;
}

}  // namespace parascope
