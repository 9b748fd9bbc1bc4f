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

void validate(const PipelineSpec& spec) {
  check_count("stages", spec.stages, kMaxPipelineStages);
  check_count("microbatches", spec.microbatches, kMaxPipelineMicrobatches);
  check_count("chunks", spec.chunks, kMaxPipelineChunks);
  const std::string id(schedule_id(spec.schedule));
  if (spec.schedule != Schedule::interleaved && spec.chunks != 1) {
    throw RequestError(code::inconsistent,
                       "chunks (virtual stages per GPU) applies to the interleaved schedule only; " + id +
                           " runs one chunk per stage, so leave chunks at 1",
                       "chunks");
  }
  if (spec.schedule == Schedule::interleaved && spec.chunks > 1 && spec.microbatches > spec.stages &&
      spec.microbatches % spec.stages != 0) {
    // Megatron-LM runs microbatches in groups of p through chunk 0, then chunk 1, ...; with a short last group its
    // warm-up count leaves stages waiting on each other (the simulation deadlocks), and Megatron refuses it too.
    throw RequestError(code::inconsistent,
                       "interleaved runs microbatches in groups of p = " + std::to_string(spec.stages) +
                           " (one group through chunk 0, then chunk 1, ...), so microbatches must be a multiple of "
                           "stages, or fewer than stages (one short group); got " +
                           std::to_string(spec.microbatches),
                       "microbatches");
  }
  if (spec.schedule == Schedule::dualpipe && spec.stages > 1) {
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
                         "dualpipe needs at least 2 microbatches per stage (microbatches ≥ 2·stages = " +
                             std::to_string(2 * spec.stages) + ", as DeepSeek's reference implementation asserts); got " +
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

PipelineMetrics pipeline_metrics(const PipelineSpec& spec) {
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
