/// Bytes one GPU holds during a step: weights, gradients, optimizer states (per ZeRO stage) and activations in flight.
#pragma once

#include <vector>

#include "parascope/cost_types.hpp"
#include "parascope/pipeline.hpp"

namespace parascope::detail {

/// How many layers a pipeline stage holds (over all its chunks), and how many of them are MoE layers.
struct StageLayerCounts {
  std::int64_t layers = 0, moe = 0;
};
/// Every stage's, in stage order (one pass over the assignment: O(pp·vpp)).
std::vector<StageLayerCounts> stage_layer_kinds(const TrainingRun& run);

/// Parameters one GPU of pipeline stage `stage` holds, before any ZeRO sharding, split into those shared by the dp·cp
/// ranks (dense) and the routed experts (shared by the edp = tp·cp·dp / (ep·etp) expert data-parallel ranks).
struct ParamsOnGpu {
  double dense = 0, expert = 0;
  double layers = 0;  ///< transformer layers they belong to (the stage's)
};
ParamsOnGpu params_on_stage(const TrainingRun& run, std::int64_t stage, const StageLayerCounts& layers);

/// The most loaded stage's memory, every stage counted from its real layers (the first holds the most activations
/// in flight, the last the logits). `schedule` gives the activations in flight per stage.
/// The most any stage's GPU holds in weights, gradients and optimizer states: memory_per_gpu's total without the
/// activations, from the same arithmetic, so never above it (the planner's out-of-memory bound).
double states_memory_bound(const TrainingRun& run, const Efficiency& efficiency);

MemoryPerGpu memory_per_gpu(const TrainingRun& run, const Efficiency& efficiency, const PipelineMetrics& schedule);
/// The same with the activation sets in flight per stage given as `peaks` counts at `peak` (the planner's bound passes
/// a buffer it reuses). Allocates nothing once a run's (pp, vpp) layer split has been seen on this thread.
MemoryPerGpu memory_per_gpu(const TrainingRun& run, const Efficiency& efficiency, const int* peak, std::size_t peaks);
/// The same with the model's parameter counts given (count_params(run.model): the planner counts them once per search).
MemoryPerGpu memory_per_gpu(const TrainingRun& run, const Efficiency& efficiency, const int* peak, std::size_t peaks,
                            const ParamCounts& counts);
/// The stages memory_per_gpu counts for these activation sets (the first of each kind of stage and peak, and the two
/// ends; no other can be the most loaded) and the parameters each holds: fixed by the run's model, split (dp, tp, pp,
/// cp, ep, etp), vpp, schedule and stage layer overrides and by `peak`.
struct CountedStages {
  std::vector<std::int64_t> stage;
  std::vector<StageLayerCounts> layers;
  std::vector<ParamsOnGpu> held;
};
void counted_stages(const TrainingRun& run, const int* peak, std::size_t peaks, const ParamCounts& counts,
                    CountedStages& out);
/// Activation bytes per layer of each kind, and what full recomputation rebuilds at once (memory_per_gpu's inputs
/// beside the states): fixed by the model, tp, cp, the microbatch size, recompute, sequence parallelism and the
/// efficiency (not by pp, the schedule or the ZeRO stage).
struct LayerActivations {
  double dense = 0, moe = 0, rebuilt = 0;
  double workspace = 0;  ///< one layer's backward: about its whole activation set (no recomputation), once
};
LayerActivations layer_activations(const TrainingRun& run, const Efficiency& efficiency);
/// memory_per_gpu counting only the stages `counted` names (counted_stages' answer for the same run but for its
/// recompute, sequence parallelism, ZeRO stage and precision, and the same peaks) with `act` (layer_activations' for
/// the same run but for its pipeline and ZeRO stage): the same answer, bit for bit.
MemoryPerGpu memory_per_gpu(const TrainingRun& run, const Efficiency& efficiency, const int* peak, std::size_t peaks,
                            const CountedStages& counted, const LayerActivations& act, std::size_t* most = nullptr);
/// The total of one of `counted`'s stages (index i), as the call above computes it: that call's total is the largest
/// of these (the first on a tie; `most` gives its index), so it is at least this one, bit for bit.
double counted_stage_total(const TrainingRun& run, const Efficiency& efficiency, const int* peak, std::size_t peaks,
                           const CountedStages& counted, const LayerActivations& act, std::size_t i);

/// One moment of a stage's step (memory_timeline): `sets` activation sets in flight (−1: none counted), the loss's
/// logits held (`loss`, the last stage only), a backward running (`backward`: one layer's workspace and what full
/// recomputation rebuilds). memory_per_gpu counts each stage at the schedule's most sets with both.
struct MemoryMoment {
  int sets = -1;
  bool loss = false, backward = false;
};
/// What stage_memory_at reads of a stage, computed once per stage.
struct StageMemoryInputs {
  std::int64_t stage = 0;
  StageLayerCounts layers;
  ParamsOnGpu held;
  LayerActivations act;
  double runtime = 0;  ///< bytes outside the allocator (CUDA context, NCCL buffers)
};
StageMemoryInputs stage_memory_inputs(const TrainingRun& run, const Efficiency& efficiency, std::int64_t stage);
/// The stage's memory at `moment`, by memory_per_gpu's own arithmetic: at the schedule's peak sets with loss and
/// backward, memory_per_gpu's answer for that stage, bit for bit.
MemoryPerGpu stage_memory_at(const TrainingRun& run, const Efficiency& efficiency, const StageMemoryInputs& in,
                             const MemoryMoment& moment);

}  // namespace parascope::detail
