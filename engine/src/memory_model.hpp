/// Bytes one GPU holds during a step: weights, gradients, optimizer states (per ZeRO stage) and activations in flight.
#pragma once

#include "parascope/cost.hpp"
#include "parascope/pipeline.hpp"

namespace parascope::detail {

/// Parameters one GPU holds on its most loaded pipeline stage, before any ZeRO sharding, split into those shared by
/// the dp·cp ranks (dense) and the experts (shared by dp·cp / ep ranks).
struct ParamsOnGpu {
  double dense = 0, expert = 0;
};
ParamsOnGpu params_on_gpu(const TrainingRun& run);

/// The most loaded stage's memory (first or last: the first holds the most activations in flight, the last the
/// logits). `schedule` gives the activations in flight per stage.
MemoryPerGpu memory_per_gpu(const TrainingRun& run, const Efficiency& efficiency, const PipelineMetrics& schedule);

}  // namespace parascope::detail
