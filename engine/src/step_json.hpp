/// Reads a whole "step" (or "traffic") request: the run plus optional efficiency overrides and the MFU convention.
#pragma once

#include "parascope/cost_types.hpp"
#include "request_reader.hpp"

namespace parascope::detail {

struct StepRequest {
  TrainingRun run;
  Efficiency efficiency;
  std::string software;  ///< the software stack whose defaults `efficiency` starts from (and whose error band applies)
};

/// Reads model, hardware, cluster, parallel, optional efficiency {...} and optional attention ("full" | "causal").
StepRequest read_step_request(RequestReader& request);

/// The cost model's answer for the request; a schedule's refusal named by the request field at fault.
StepResult evaluate(const StepRequest& request);
/// Throws what evaluate would refuse for the request (the same RequestError), without timing the schedule.
void check(const StepRequest& request);

json step_to_json(const StepResult& step);
json axis_to_json(const AxisTraffic& axis);

}  // namespace parascope::detail
