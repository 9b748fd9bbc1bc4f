/// Pipeline-parallel schedules as timelines: GPipe, 1F1B, interleaved 1F1B, ZB-H1, ZB-H2, DualPipe; metrics measured on
/// the timeline (makespan, busy time, bubble, activations in flight) and the closed form each schedule is known for.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "parascope/schedule.hpp"

namespace parascope {

/// Duration of ONE scheduled op, in any time unit (the results come back in the same unit). On interleaved schedules an
/// op is one chunk (1/v of a stage's layers). For gpipe/1f1b/interleaved the whole backward is one op of length b and
/// w must be 0 (run_pipeline refuses w > 0 there); for zb-h1, zb-h2 and dualpipe b is the input-gradient pass and w the
/// weight-gradient pass. comm is added between dependent ops on different stages.
struct PipelineTimes {
  double f = 1, b = 2, w = 0, comm = 0;
};

struct PipelineSpec {
  Schedule schedule = Schedule::one_f_one_b;
  int stages = 1, microbatches = 1, chunks = 1;
  bool forward_only = false;
  PipelineTimes times;
  bool record_ops = true;  ///< false: metrics only, no op list kept (the cost model's and planner's inner loop)
};

struct PipelineMetrics {
  double makespan = 0;                ///< end of the last op (the first starts at 0)
  std::vector<double> busy;           ///< per stage: sum of its op durations
  double bubble_fraction = 0;         ///< 1 − Σ busy / (p · makespan): one iteration, synchronous optimizer step
  double steady_bubble_fraction = 0;  ///< idle inside each stage's own span (first start to last end) / Σ spans
  std::vector<int> peak_activations;  ///< per stage: most (microbatch, chunk) activation sets held at once
  double chunk_model_fraction = 1;  ///< share of the model's layers one such set covers: 1/(p·v) interleaved, else 1/p
  /// Stage-to-stage sends on the critical path (the chain of waits that ends at the makespan): each costs
  /// times.comm, so critical_sends · comm is the makespan's time spent on sends. −1 where not tracked (zb-h2).
  std::int64_t critical_sends = -1;
};

struct PipelineOp {
  int stage, microbatch;
  char kind;  ///< 'F' forward, 'B' backward (input gradient; the whole backward on gpipe/1f1b/interleaved), 'W' weights
  int chunk;
  double start, end;
};

/// The bubble a schedule is known for, evaluated at the spec's p, m, v, f, b, w (comm is not part of any of them).
struct PipelineClosedForm {
  std::string formula;          ///< symbolic, e.g. "(p−1)/(m+p−1)"
  std::string substituted;      ///< the same with the numbers in, e.g. "(8−1)/(32+8−1) = 7/39"
  std::optional<double> value;  ///< absent when the formula does not apply to these settings (see condition)
  std::string measure;          ///< "bubble_fraction" or "steady_bubble_fraction": which metric it predicts
  std::string condition;        ///< when it holds exactly
  std::string source;           ///< paper and section / table / equation
};

struct PipelineResult {
  std::vector<PipelineOp> ops;  ///< empty unless spec.record_ops; per stage in execution order, stage 0 first
  PipelineMetrics metrics;
  PipelineClosedForm closed_form;
};

/// Limits (the JSON API refuses beyond them with out_of_range or too_large).
inline constexpr int kMaxPipelineStages = 1024;
inline constexpr int kMaxPipelineMicrobatches = 65536;
inline constexpr int kMaxPipelineChunks = 64;
inline constexpr std::int64_t kMaxPipelineOps = 1'000'000;

/// The defaults of the JSON API: f=1, b=2, w=0 (whole backward) or, for zb-* and dualpipe, f=1, b=1, w=1.
PipelineTimes default_times(Schedule schedule);
/// How many ops the spec produces (p · m · v · kinds), without building anything.
std::int64_t pipeline_op_count(const PipelineSpec& spec);

/// Why run_pipeline would refuse the spec (the first rule it breaks), or nothing when it is accepted: the validity
/// rule as a function a caller (the planner) asks without trying. Builds and simulates nothing. A refusal's message
/// starts with the rule up to its first colon ("dualpipe needs an even number of stages: …").
std::optional<PipelineError> pipeline_refusal(const PipelineSpec& spec);
/// Throws pipeline_refusal's PipelineError, if any.
void check_pipeline(const PipelineSpec& spec);
/// Throws what pipeline_metrics(spec) would refuse (pipeline_refusal of the spec it times: DualPipe on one stage is
/// timed as ZB-H1), building and timing nothing.
void check_pipeline_metrics(const PipelineSpec& spec);

/// run_pipeline's metrics alone, without the op list or the closed form: the cost model's inner loop. GPipe, and 1F1B
/// (also interleaved at one chunk) longer than the steady path's short copy, are not simulated: their timelines in
/// closed form (pipeline_bound.cpp, pipeline_one_f_one_b.cpp). Schedules with a steady phase (interleaved, zb-h1,
/// dualpipe; short 1F1B is timed whole) time a short copy of themselves and add the steady cycles the copy lacks once
/// its state repeats exactly (engine/src/pipeline_steady.cpp). Either way the result equals simulating every op up to
/// rounding (bit for bit where sums are exact: tests/engine/pipeline_fast_path_test.cpp). ZB-H2 skips its steady
/// cycles once its greedy simulation's state recurs shifted: bit for bit run_pipeline's numbers, whatever the times
/// (engine/src/pipeline_zb_h2_repeat.cpp). Throws PipelineError like
/// run_pipeline, except that DualPipe on one stage (the cost model's pp = 1, no pipeline) is timed as that one stage's
/// F, B, W per microbatch instead of refused.
PipelineMetrics pipeline_metrics(const PipelineSpec& spec);

/// Builds the schedule's per-stage op order, simulates it (each op starts when its stage is free and its inputs have
/// arrived) and measures the timeline. Throws PipelineError (naming the knob at fault) on an invalid spec.
PipelineResult run_pipeline(const PipelineSpec& spec);

}  // namespace parascope
