// The figures' module (parascope.wasm) answers "plan" with this refusal instead of the search: the planner has its own
// module (parascope-planner.wasm, lib/engine.js's loadPlannerEngine) and the four figures do not download its code.
// Linked before the engine library, this op_plan keeps the library's op_plan.o and plan.o out of the link (any other
// use of them would pull op_plan.o in and fail the link on a duplicate op_plan, never silently).
#include "ops.hpp"

namespace parascope::detail {

json op_plan(RequestReader&) {
  throw RequestError(code::unknown_op,
                     "the plan op is answered by the planner's engine (wasm/parascope-planner.mjs: loadPlannerEngine in "
                     "lib/engine.js), not by this one",
                     "op");
}

}  // namespace parascope::detail
