/// The cost model's second phase (finish_step, step_phases.hpp) as named phases over a scheduled StepCore, each
/// computing one part of the answer: exposed DP communication, the optimizer, compute and memory-bound kernels,
/// exposed TP/EP/CP communication, the bubble and PP sends, MFU/HFU, the dashboard's utilization, memory, per-axis
/// traffic. finish_step runs them in this order; anything that shows the step (a timeline) builds on the same phases,
/// so its sums are the breakdown's.
#pragma once

#include <cstdint>

#include "memory_model.hpp"
#include "step_core.hpp"

namespace parascope::detail {

/// The parameters the slowest stage's GPU holds, and the groups that share them: the dense weights over the dp·cp
/// ranks tp apart, an expert shard over its edp = tp·cp·dp / (ep·etp) ranks.
struct HeldParams {
  ParamsOnGpu held;
  std::int64_t dp_group = 0, expert_group = 0;
};
HeldParams held_params(const TrainingRun& run, const StepCore& core);

/// The data-parallel gradient reduction and ZeRO's parameter gathers of one step, on one GPU.
struct DataParallelComm {
  double time = 0;      ///< seconds of every collective, were nothing overlapped
  double bytes = 0;     ///< bytes each GPU sends
  double count = 0;     ///< collectives
  double exposed = 0;   ///< the seconds the step waits for them (breakdown.dp_comm)
  double slowdown = 0;  ///< seconds the hidden rest takes from the kernels it runs under
};
DataParallelComm data_parallel_comm(const TrainingRun& run, const Efficiency& eff, const StepCore& core,
                                    const HeldParams& held);

/// Seconds of the optimizer's update and of a separate gradient-accumulation pass (0 where the GEMM accumulates).
struct OptimizerTimes {
  double optimizer = 0, accumulation = 0;
};
OptimizerTimes optimizer_times(const TrainingRun& run, const Efficiency& eff, const StepCore& core,
                               const HeldParams& held);

/// breakdown.compute and breakdown.memory_bound: the average chunk's kernels, the output layer, the slowdown hidden
/// data-parallel traffic causes and the gradient accumulation.
void kernel_breakdown(const TrainingRun& run, const Efficiency& eff, const StepCore& core, double dp_slowdown,
                      double accumulation, StepBreakdown& breakdown);
/// breakdown.tp_comm, ep_comm and cp_comm: the average chunk's exposed per-layer communication.
void layer_comm_breakdown(const TrainingRun& run, const StepCore& core, StepBreakdown& breakdown);
/// breakdown.other, pp_comm and bubble: the schedule's idle time, split into waiting on the slowest stage, sends, and
/// fill and drain.
void pipeline_breakdown(const TrainingRun& run, const StepCore& core, StepBreakdown& breakdown);
/// step_time: the schedule's makespan, then what follows it (exposed DP, optimizer, slowdown, accumulation).
double step_time(const StepCore& core, const StepBreakdown& breakdown, double dp_slowdown, double accumulation);
/// MFU, HFU, tokens/s, FLOPs per token and the compute split at peak, from step_time and breakdown.compute.
void flop_utilization(const TrainingRun& run, const Efficiency& eff, const StepCore& core, bool with_formula,
                      StepResult& r);
/// dashboard_utilization: the share of the step some kernel is resident, from step_time and breakdown.bubble.
void dashboard_utilization(const Efficiency& eff, StepResult& r);
/// memory, memory_capacity and fits: the most loaded stage's bytes against the GPU's.
void memory_fit(const TrainingRun& run, const Efficiency& eff, const StepCore& core, StepResult& r);
/// axes: the traffic table of the four-axis figure, what each split adds and how much of it compute hides.
void axis_traffic(const TrainingRun& run, const StepCore& core, const DataParallelComm& dp, StepResult& r);

}  // namespace parascope::detail
