/// Test helper for the seeded random-schedule tests: bends a randomly drawn pipeline spec into one the schedule
/// accepts.
#pragma once

#include <algorithm>

#include "parascope/pipeline.hpp"

namespace parascope::testing {

/// Interleaving takes microbatches in multiples of the stages (once there are more microbatches than stages);
/// DualPipe takes an even number of stages and at least two microbatches per stage, an even count.
inline void make_schedule_valid(PipelineSpec& spec) {
  if (spec.schedule == Schedule::interleaved && spec.microbatches > spec.stages) {
    spec.microbatches -= spec.microbatches % spec.stages;
  }
  if (spec.schedule == Schedule::dualpipe) {
    spec.stages += spec.stages % 2;
    spec.microbatches = std::max(spec.microbatches + spec.microbatches % 2, 2 * spec.stages);
  }
}

}  // namespace parascope::testing
