// The step-time model, whole: its first phase (step_core.cpp: kernel times per layer, communication per axis, the
// pipeline schedule) then its second (step_finish.cpp: data-parallel reduction, optimizer, step time, MFU, HFU,
// memory).
#include "parascope/cost.hpp"

#include "step_core.hpp"

namespace parascope {

StepResult evaluate_step(const TrainingRun& run, const Efficiency& eff) {
  detail::StepCore core;
  detail::build_core(run, eff, core);
  detail::schedule_core(run, core);
  return detail::finish_step(run, eff, core, true);
}

void check_step(const TrainingRun& run, const Efficiency& eff) {
  detail::StepCore core;
  detail::build_core(run, eff, core);
  detail::check_step_core(run, core);
}

}  // namespace parascope
