// The "traffic" operation: per parallel axis, what it splits, the collective it adds, bytes, link, time and how much
// compute hides. The same cost model as "step" (evaluate_step), so the two can never disagree.
#include "json_out.hpp"
#include "ops.hpp"
#include "step_json.hpp"

namespace parascope::detail {

json op_traffic(RequestReader& request) {
  const StepRequest s = read_step_request(request);
  request.finish();
  const StepResult step = evaluate(s);
  json out;
  json& axes = put_array(out, "axes");
  for (const AxisTraffic& a : step.axes) axes.push_back(axis_to_json(a));
  put(out, "step_time", step.step_time);
  return out;
}

}  // namespace parascope::detail
