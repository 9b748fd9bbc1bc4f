// The Embind skin over the engine, in both wasm modules: call(request JSON string) -> response JSON string, which never
// throws; attachment(): a view of the numbers the last call attached (copy it out at once). The planner's module adds
// PlanSearch (wasm/plan_bindings.cpp).
#include <emscripten/bind.h>
#include <emscripten/val.h>

#include <string>

#include "parascope/api.hpp"

namespace {

std::string call(const std::string& request) { return parascope::call(request); }

emscripten::val attachment() {
  const auto& numbers = parascope::last_attachment();
  return emscripten::val(emscripten::typed_memory_view(numbers.size(), numbers.data()));
}

}  // namespace

EMSCRIPTEN_BINDINGS(parascope) {
  emscripten::function("call", &call);
  emscripten::function("attachment", &attachment);
}
