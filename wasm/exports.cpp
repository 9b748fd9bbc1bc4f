// The widgets' own modules' skin, without Embind (its glue was ~3.5 KB gzip of each embed's ~5.7): C functions that
// web/lib/engine.js (plainCalls) wraps into the same call(text or UTF-8 bytes) -> text and attachment() as
// wasm/bindings.cpp's. The request's bytes are the caller's (malloc'd in the module's memory); the answer's stay here
// until the next call.
#include <emscripten/emscripten.h>

#include <string>
#include <string_view>

#include "parascope/api.hpp"

namespace {

std::string& answer() {
  static std::string text;
  return text;
}

}  // namespace

extern "C" {

/// Answers the `length` bytes of request text at `text`; returns the answer's first byte (parascope_answer_length
/// bytes, no NUL needed). Never throws (parascope::call turns every failure into an error object).
EMSCRIPTEN_KEEPALIVE const char* parascope_call(const char* text, int length) {
  answer() = parascope::call(std::string_view(text, std::size_t(length)));
  return answer().data();
}

EMSCRIPTEN_KEEPALIVE int parascope_answer_length() { return int(answer().size()); }

/// The numbers the last call attached (parascope::last_attachment): their first double and how many there are.
EMSCRIPTEN_KEEPALIVE const double* parascope_attachment() { return parascope::last_attachment().data(); }
EMSCRIPTEN_KEEPALIVE int parascope_attachment_length() { return int(parascope::last_attachment().size()); }

}  // extern "C"
