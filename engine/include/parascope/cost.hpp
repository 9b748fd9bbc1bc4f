/// The cost model: one training run (model, hardware, cluster, 4-D split) -> step time, broken into compute,
/// memory-bound kernels, exposed communication per axis, pipeline bubble and optimizer; MFU, HFU, memory per GPU.
/// Its value types (Efficiency, StepResult, ...) are in parascope/cost_types.hpp.
#pragma once

#include "parascope/cost_types.hpp"
#include "parascope/parallel.hpp"

namespace parascope {

/// Evaluates one step. Assumes a validated run (detail::read_run checks products and divisibility).
StepResult evaluate_step(const TrainingRun& run, const Efficiency& efficiency);
/// Throws the PipelineError evaluate_step would throw for this run, without timing the schedule (evaluate_step's
/// costly part): the op times are computed (the schedule's rules bound them), the pipeline is checked, not simulated.
void check_step(const TrainingRun& run, const Efficiency& efficiency);

}  // namespace parascope
