// The planner's module only (parascope-planner.wasm): PlanSearch, a "plan" request advanced a slice at a time
// (advance(n) and result() return JSON text, never throw; JS must delete()).
#include <emscripten/bind.h>

#include <algorithm>
#include <cstdint>
#include <string>

#include "parascope/api.hpp"

namespace {

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

EMSCRIPTEN_BINDINGS(parascope_plan) {
  emscripten::class_<PlanSearch>("PlanSearch")
      .constructor<const std::string&>()
      .function("advance", &PlanSearch::advance)
      .function("result", &PlanSearch::result);
}
