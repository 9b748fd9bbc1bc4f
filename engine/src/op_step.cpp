// The "step" operation: a 4-D training configuration -> step time, breakdown, MFU/HFU, memory per GPU.
#include "ops.hpp"
#include "step_json.hpp"

namespace parascope::detail {

json op_step(RequestReader& request) {
  const StepRequest s = read_step_request(request);
  request.finish();
  return step_to_json(evaluate_step(s.run, s.efficiency));
}

}  // namespace parascope::detail
