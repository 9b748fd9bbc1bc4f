/// One GPU's memory through one step: the pipeline schedule's ops on its stage as a time axis, and at each moment the
/// memory model's own bytes (memory_model.hpp, stage_memory_at): its peak is memory_per_gpu's answer for that stage.
#pragma once

#include <cstdint>
#include <vector>

#include "memory_model.hpp"
#include "parascope/cost_types.hpp"

namespace parascope::detail {

/// One stretch of the step in which the stage's memory stays put: an op ('F', 'B', 'W'), idle ('I'), the gradients'
/// reduction and the rest after the pipeline ('G'), the optimizer step ('O').
struct MemorySegment {
  double start = 0, end = 0;  ///< seconds from the step's start
  char kind = 'I';
  int microbatch = -1, chunk = -1;  ///< the op's (−1: none)
  MemoryPerGpu memory;              ///< bytes at that moment (memory.activations with the sets in flight)
  int sets = 0;                     ///< activation sets in flight
};

/// One microbatch's activations for one chunk: from its forward's start to the end of the op that frees them (its
/// backward, or its weight-gradient pass where the backward is split).
struct ActivationSpan {
  int microbatch = 0, chunk = 0;
  double from = 0, to = 0;
};

struct MemoryTimeline {
  std::int64_t stage = 0, most_loaded_stage = 0;
  std::vector<MemorySegment> segments;
  std::vector<ActivationSpan> spans;
  double set_bytes = 0;     ///< one activation set: the chunk's layers for one microbatch
  std::size_t peak = 0;     ///< the segment with the most bytes (the first on a tie)
  double step_time = 0;     ///< seconds: the time axis ends there
  double pipeline_end = 0;  ///< seconds: where the pipeline's last op ends
};

/// The timeline of `stage` (−1: the most loaded, memory_per_gpu's) for a validated run whose step is `step`
/// (evaluate_step's answer for the same run and efficiency).
MemoryTimeline memory_timeline(const TrainingRun& run, const Efficiency& efficiency, const StepResult& step,
                               std::int64_t stage);

}  // namespace parascope::detail
