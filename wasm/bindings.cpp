// The Embind skin over the engine: call(request JSON string) -> response JSON string, which never throws;
// attachment(): a view of the numbers the last call attached (copy it out at once with .slice()); and PlanSearch, a
// "plan" request advanced a slice at a time (advance(n) and result() return JSON text, never throw; JS must delete()).
#include <emscripten/bind.h>
#include <emscripten/val.h>

#include <algorithm>
#include <string>

#include "parascope/api.hpp"

namespace {

std::string call(const std::string& request) { return parascope::call(request); }

emscripten::val attachment() {
  const auto& numbers = parascope::last_attachment();
  return emscripten::val(emscripten::typed_memory_view(numbers.size(), numbers.data()));
}

/// parascope::PlanSession with the types Embind passes (a JS number for the slice size).
class PlanSearch {
 public:
  explicit PlanSearch(const std::string& request) : session_(request) {}
  std::string advance(double max_configs) {
    return session_.advance(max_configs >= 1 ? std::int64_t(std::min(max_configs, 1e15)) : 0);
  }
  std::string result() { return session_.result(); }

 private:
  parascope::PlanSession session_;
};

}  // namespace

EMSCRIPTEN_BINDINGS(parascope) {
  emscripten::function("call", &call);
  emscripten::function("attachment", &attachment);
  emscripten::class_<PlanSearch>("PlanSearch")
      .constructor<const std::string&>()
      .function("advance", &PlanSearch::advance)
      .function("result", &PlanSearch::result);
}
