// The "traffic" operation: per parallel axis, what it splits, the collective it adds, bytes, link, time and how much
// compute hides. The same cost model as "step" (evaluate_step), so the two can never disagree.
#include "ops.hpp"
#include "step_json.hpp"

namespace parascope::detail {

json op_traffic(RequestReader& request) {
  const StepRequest s = read_step_request(request);
  request.finish();
  const StepResult step = evaluate(s);
  json axes = json::array();
  for (const AxisTraffic& a : step.axes) axes.push_back(axis_to_json(a));
  return {{"axes", std::move(axes)}, {"step_time", step.step_time}};
}

}  // namespace parascope::detail
