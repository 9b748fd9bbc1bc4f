// The "step_check" operation: whether "step" would answer a run, without timing it: the same reading, the same rules,
// the same refusals, and {} where step would give its whole answer. For a figure that asks which splits it may offer.
#include "ops.hpp"
#include "step_json.hpp"

namespace parascope::detail {

json op_step_check(RequestReader& request) {
  const StepRequest s = read_step_request(request);
  request.finish();
  check(s);
  return json::object();
}

}  // namespace parascope::detail
