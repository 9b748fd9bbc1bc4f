/// The engine's one entry point: a JSON request with an "op" in, a JSON response out. Never throws.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace parascope {

/// The largest request text call() reads, in bytes; longer requests are refused with too_large. Readers (the CLI,
/// the wasm boundary) stop at this many bytes plus one instead of holding a larger input.
inline constexpr std::size_t kMaxRequestBytes = std::size_t{1} << 20;

/// Answers one request. Bad input yields {"error": {"code", "message", "field"}}; this function never throws.
std::string call(std::string_view request_text);

/// Numbers the last call() on this thread attached beside its JSON (empty when it attached none). The fast path for
/// in-process callers such as the wasm module: e.g. "pipeline" with "ops_format": "binary" puts its op columns here
/// instead of formatting tens of thousands of numbers as text. The response says how the numbers are laid out.
const std::vector<double>& last_attachment();

/// True when a response text (from call) is an error object.
bool is_error_response(std::string_view response_text);

}  // namespace parascope
