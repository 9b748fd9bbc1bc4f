/// What the cost model's first phase (step_core, step_phases.hpp) keeps for the second: one layer's communication,
/// the average and the slowest stage's op times, the stage-to-stage send, the pipeline schedule at those op times, the
/// FLOPs per token. The phases of both halves read it (step_finish.hpp).
#pragma once

#include <cstdint>
#include <vector>

#include "layer_times.hpp"
#include "memory_model.hpp"
#include "parascope/pipeline.hpp"
#include "step_phases.hpp"

namespace parascope::detail {

/// The pipeline engine's schedule with these op times: the real step (with sends) and how long its bubble and its
/// sends take. Sends on the critical path × send time is what the schedule spends on sends (the simulator counts
/// them); it equals "with sends minus without" whenever a send is short next to an op (tests/engine/pipeline_test.cpp).
/// ZB-H2's greedy simulator does not count them: there the schedule runs a second time without sends.
/// Without `with_sends` that second run is skipped and `sends` is NaN (the planner reads neither pp_comm nor bubble).
struct Scheduled {
  PipelineMetrics metrics;
  double sends = 0;  ///< seconds of the makespan spent on stage-to-stage sends
};

/// What the split and the schedule fix, before the ZeRO stage: evaluate_step's first half (see step_phases.hpp).
struct StepCore {
  StepResult r;                          ///< parallel, microbatches and pipeline_makespan set
  double mb = 0;                         ///< microbatches per pipeline per step
  LayerComm comm;                        ///< one layer's full communication per microbatch
  LogitsWork logits;                     ///< the output layer's work (last stage)
  double logits_math = 0;                ///< its GEMM seconds, forward and backward
  ChunkTimes avg;                        ///< the average chunk's seconds per microbatch
  double avg_f = 0, avg_b = 0;           ///< its forward and backward, the output layer spread over the chunks
  std::int64_t slowest_stage = 0;        ///< the stage with the most forward + backward seconds
  double max_f = 0, max_b = 0;           ///< the longest forward and backward of a chunk: the schedule's op times
  std::vector<StageLayerCounts> stages;  ///< every stage's layers and MoE layers
  double p2p = 0, p2p_bytes = 0;         ///< one stage-to-stage send: seconds and bytes
  double w_part = 0;                     ///< the weight-gradient part split off the backward (zero-bubble, DualPipe)
  bool scheduled_done = false;           ///< `scheduled` and `busy` set
  Scheduled scheduled;                   ///< the pipeline schedule at these op times
  double busy = 0;                       ///< the busiest stage's seconds of work in it
  FlopsPerToken flops;                   ///< the model's and the hardware's FLOPs per token (no formula text)
};

/// Fills `core` with the first phase's arithmetic, the schedule not yet timed.
/// With `memo` each kind of layer's times come from it (layer_part.hpp): the same core as without.
void build_core(const TrainingRun& run, const Efficiency& eff, StepCore& core, LayerMemo* memo = nullptr);
/// The pipeline the core's schedule times: the run's schedule, stages, microbatches and chunks at the slowest stage's
/// op times (its forward, its backward less the weight-gradient part split off, that part, one stage-to-stage send).
PipelineSpec core_spec(const TrainingRun& run, const StepCore& core);
/// The core's pipeline schedule: the step's one costly part. With `memo` a timing of the same inputs is reused.
void schedule_core(const TrainingRun& run, StepCore& core, bool with_sends = true, PipelineMemo* memo = nullptr);

}  // namespace parascope::detail
