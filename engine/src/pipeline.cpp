// Pipeline schedules: names, defaults, validation of a spec, and run_pipeline (build the programs, simulate, measure).
#include "parascope/pipeline.hpp"

#include <cmath>

#include "number_text.hpp"
#include "parascope/error.hpp"
#include "pipeline_compiled.hpp"
#include "pipeline_detail.hpp"
#include "schedule_registry.hpp"

namespace parascope {

namespace {

constexpr double kMaxDuration = 1e12;

using Refusal = std::optional<PipelineError>;

Refusal check_count(const char* name, PipelineKnob knob, int value, int max) {
  if (value >= 1 && value <= max) return std::nullopt;
  return PipelineError(code::out_of_range,
                       detail::join_pieces({name, " must be an integer from 1 to ", max, "; got ", value}), knob);
}

Refusal check_duration(const char* name, PipelineKnob knob, double value, bool may_be_zero) {
  if (!std::isfinite(value))
    return PipelineError(code::not_finite, detail::join_pieces({name, " must be finite"}), knob);
  if (value < 0 || (!may_be_zero && value == 0) || value > kMaxDuration) {
    return PipelineError(code::out_of_range,
                         detail::join_pieces({name, " must be ", may_be_zero ? "from 0" : "greater than 0",
                                              " and at most 1e12; got ", value}),
                         knob);
  }
  return std::nullopt;
}

}  // namespace

namespace detail {

std::optional<PipelineError> interleaved_rule(const PipelineSpec& spec) {
  if (spec.chunks > 1 && spec.microbatches > spec.stages && spec.microbatches % spec.stages != 0) {
    // Megatron-LM runs microbatches in groups of p through chunk 0, then chunk 1, ...; with a short last group its
    // warm-up count leaves stages waiting on each other (the simulation deadlocks), and Megatron refuses it too.
    return PipelineError(code::inconsistent,
                         join_pieces({"interleaved needs microbatches in a multiple of stages (", spec.stages,
                                      ") or fewer: it runs them in groups of p = ", spec.stages,
                                      " (one group through chunk 0, then chunk 1, ...) and a short last group after "
                                      "full ones leaves stages waiting on each other; got ",
                                      spec.microbatches}),
                         PipelineKnob::microbatches);
  }
  return std::nullopt;
}

std::optional<PipelineError> dualpipe_rule(const PipelineSpec& spec) {
  if (spec.stages % 2 != 0) {
    return PipelineError(code::inconsistent,
                         join_pieces({"dualpipe needs an even number of stages: it pairs rank r with rank p−1−r and "
                                      "feeds microbatches from both ends; got ",
                                      spec.stages}),
                         PipelineKnob::stages);
  }
  if (spec.microbatches % 2 != 0) {
    return PipelineError(code::inconsistent,
                         join_pieces({"dualpipe needs an even number of microbatches: half enter at each end of the "
                                      "pipeline; got ",
                                      spec.microbatches}),
                         PipelineKnob::microbatches);
  }
  if (spec.microbatches < 2 * spec.stages) {
    return PipelineError(code::inconsistent,
                         join_pieces({"dualpipe needs at least 2 microbatches per stage (", 2 * spec.stages,
                                      " here): DeepSeek's reference implementation asserts microbatches ≥ 2·stages; "
                                      "got ",
                                      spec.microbatches}),
                         PipelineKnob::microbatches);
  }
  return std::nullopt;
}

}  // namespace detail

namespace {

/// Refusals for settings that do not go together. Each message starts with the rule, up to the first colon (a reader
/// can show that part beside the control that broke it), then says why, then what it got.
Refusal refusal(const PipelineSpec& spec) {
  if (auto r = check_count("stages", PipelineKnob::stages, spec.stages, kMaxPipelineStages)) return r;
  if (auto r = check_count("microbatches", PipelineKnob::microbatches, spec.microbatches, kMaxPipelineMicrobatches)) {
    return r;
  }
  if (auto r = check_count("chunks", PipelineKnob::chunks, spec.chunks, kMaxPipelineChunks)) return r;
  const detail::ScheduleEntry& entry = detail::schedule_entry(spec.schedule);
  const std::string_view id = entry.info.id;
  if (spec.forward_only && !entry.info.forward_only) {
    // What sets 1F1B, ZB-H1, ZB-H2 and DualPipe apart is where they place the backward passes; without them each is
    // GPipe's forward half under another name, and its known bubble (a statement about the whole pass) would not apply.
    return PipelineError(code::inconsistent,
                         detail::join_pieces({id,
                                              " is drawn with its backward passes: it differs from gpipe in where it "
                                              "places them, so its forward half alone is gpipe's; forward_only "
                                              "applies to gpipe and interleaved"}),
                         PipelineKnob::forward_only);
  }
  if (!entry.info.interleaves && spec.chunks != 1) {
    return PipelineError(
        code::inconsistent,
        detail::join_pieces({"chunks apply to the interleaved schedule only: a chunk is a virtual stage, "
                             "and ",
                             id, " runs one per GPU, so leave chunks at 1"}),
        PipelineKnob::chunks);
  }
  if (entry.rule) {
    if (auto r = entry.rule(spec)) return r;
  }
  if (auto r = check_duration("times.f", PipelineKnob::time_f, spec.times.f, false)) return r;
  if (auto r = check_duration("times.b", PipelineKnob::time_b, spec.times.b, spec.forward_only)) return r;
  if (auto r = check_duration("times.w", PipelineKnob::time_w, spec.times.w, true)) return r;
  if (auto r = check_duration("times.comm", PipelineKnob::time_comm, spec.times.comm, true)) return r;
  if (!entry.info.splits_backward && spec.times.w != 0) {
    return PipelineError(code::inconsistent,
                         detail::join_pieces({id,
                                              " runs the whole backward as one op of length times.b; put the "
                                              "weight-gradient time into times.b and leave times.w at 0 (only "
                                              "zb-h1, zb-h2 and dualpipe split it off)"}),
                         PipelineKnob::time_w);
  }
  if (pipeline_op_count(spec) > kMaxPipelineOps) {
    return PipelineError(
        code::too_large,
        detail::join_pieces({"this schedule would have ", pipeline_op_count(spec),
                             " ops (stages × microbatches × chunks × op kinds); the limit is 1000000"}),
        PipelineKnob::size);
  }
  return std::nullopt;
}

void validate(const PipelineSpec& spec) {
  if (auto r = refusal(spec)) throw *r;
}

}  // namespace

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
  const std::int64_t chunks = schedule_info(spec.schedule).interleaves ? std::max(spec.chunks, 1) : 1;
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

PipelineResult detail::simulate_pipeline(const PipelineSpec& spec) { return simulate(spec); }

std::optional<PipelineError> pipeline_refusal(const PipelineSpec& spec) { return refusal(spec); }

void check_pipeline(const PipelineSpec& spec) { validate(spec); }

namespace {

/// The spec pipeline_metrics times. DualPipe on one stage is the cost model's pp = 1: no pipeline at all, so no
/// pairing of ranks; one stage runs F, B, W per microbatch in turn, which is ZB-H1's order on one stage (and what
/// DualPipe's order degenerates to).
PipelineSpec metrics_spec(const PipelineSpec& spec) {
  PipelineSpec timed = spec;
  if (spec.stages == 1 && spec.schedule == Schedule::dualpipe) timed.schedule = Schedule::zb_h1;
  return timed;
}

}  // namespace

void check_pipeline_metrics(const PipelineSpec& spec) { validate(metrics_spec(spec)); }

PipelineMetrics pipeline_metrics(const PipelineSpec& spec) {
  if (spec.stages == 1 && spec.schedule == Schedule::dualpipe) return pipeline_metrics(metrics_spec(spec));
  validate(spec);
  if (spec.schedule == Schedule::gpipe && !spec.forward_only) return detail::gpipe_metrics(spec);
  if (spec.schedule == Schedule::zb_h2) return detail::zb_h2_metrics(spec);
  const bool plain_one_f_one_b =
      spec.schedule == Schedule::one_f_one_b || (spec.schedule == Schedule::interleaved && spec.chunks == 1);
  // Short 1F1B schedules are timed op by op (as cheap, and every bit the simulation's: the closed form sums in another
  // order, see pipeline_one_f_one_b.cpp); long ones, which the steady path would extrapolate, in closed form.
  if (plain_one_f_one_b && !spec.forward_only && !detail::steady_path_times_whole(spec)) {
    return detail::one_f_one_b_metrics(spec);
  }
  if (auto steady = detail::steady_pipeline_metrics(spec)) return *steady;
  return simulate(spec).metrics;
}

PipelineResult run_pipeline(const PipelineSpec& spec) {
  PipelineResult result = simulate(spec);
  result.closed_form = detail::closed_form(spec);
  return result;
}

}  // namespace parascope
