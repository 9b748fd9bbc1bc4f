// The Embind skin over the engine: one function, call(request JSON string) -> response JSON string. Never throws.
#include <emscripten/bind.h>

#include <string>

#include "parascope/api.hpp"

namespace {

std::string call(const std::string& request) { return parascope::call(request); }

}  // namespace

EMSCRIPTEN_BINDINGS(parascope) { emscripten::function("call", &call); }
