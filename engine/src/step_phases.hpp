/// The cost model in two phases, for the planner's inner loop: what a run's split and schedule fix (kernels,
/// communication per layer, the pipeline schedule), then what its ZeRO stage changes (data-parallel traffic, the
/// optimizer, memory). evaluate_step is exactly these two in a row, so the planner's numbers are step's numbers.
#pragma once

#include <memory>

#include "parascope/cost_types.hpp"
#include "parascope/pipeline.hpp"

namespace parascope::detail {

struct StepCore;
struct StepCoreDeleter {
  void operator()(StepCore* core) const;
};
using StepCorePtr = std::unique_ptr<StepCore, StepCoreDeleter>;

/// Pipeline timings kept by their exact inputs, to share across the configurations of one search that give the
/// pipeline the same op times (e.g. selective and no recompute; FP8 and BF16 where the ops come out equal).
struct PipelineMemo;
struct PipelineMemoDeleter {
  void operator()(PipelineMemo* memo) const;
};
using PipelineMemoPtr = std::unique_ptr<PipelineMemo, PipelineMemoDeleter>;
PipelineMemoPtr make_pipeline_memo();

/// Each layer kind's times, kept by the run fields that fix them, to share across the schedules and interleaving
/// degrees one search times for a split and a microbatch size (a core built with it equals one built without).
struct LayerMemo;
struct LayerMemoDeleter {
  void operator()(LayerMemo* memo) const;
};
using LayerMemoPtr = std::unique_ptr<LayerMemo, LayerMemoDeleter>;
LayerMemoPtr make_layer_memo();

/// The first phase. Nothing in it reads parallel.zero or parallel.reshard_after_forward. Without `with_schedule` the
/// pipeline schedule (its costly part) waits for schedule_step_core, so that a caller can first ask the bound below.
StepCorePtr step_core(const TrainingRun& run, const Efficiency& efficiency, bool with_schedule = true,
                      LayerMemo* memo = nullptr);
/// step_core(run, efficiency, false, memo) into `core`'s storage when it holds one (the planner builds hundreds of
/// thousands in turn): the same core as a new one.
void rebuild_step_core(StepCorePtr& core, const TrainingRun& run, const Efficiency& efficiency, LayerMemo* memo);
/// `with_sends` false skips what only breakdown.pp_comm and breakdown.bubble read (ZB-H2's second run, without sends):
/// finish_step then leaves those two (and dashboard_utilization) NaN; every other number is the same. With `memo`
/// a timing with the same inputs is reused rather than run again (the same numbers: the same spec is timed).
void schedule_step_core(const TrainingRun& run, StepCore& core, bool with_sends = true, PipelineMemo* memo = nullptr);

/// Whether the core's pipeline schedule is timed (schedule_step_core then does nothing).
bool step_core_scheduled(const StepCore& core);

/// Throws the PipelineError schedule_step_core would (the schedule's rules at the core's op times), timing nothing.
void check_step_core(const TrainingRun& run, const StepCore& core);

/// The pipeline a run's parallel block describes (schedule, stages, microbatches per replica, chunks), op times unset.
PipelineSpec pipeline_spec_of(const ParallelConfig& p);

/// A lower bound of the pipeline's makespan, hence of step_time (the rest of the step adds to it), known before the
/// schedule is timed: the busiest stage's ops back to back.
double makespan_lower_bound(const TrainingRun& run, const StepCore& core);

/// The second phase (the core scheduled), for `run`: step_core's run with at most parallel.zero and
/// reshard_after_forward changed. `with_axes` false leaves out the per-axis traffic table and the FLOP formula's text
/// (the planner reads numbers only).
StepResult finish_step(const TrainingRun& run, const Efficiency& efficiency, const StepCore& core, bool with_axes);

}  // namespace parascope::detail
