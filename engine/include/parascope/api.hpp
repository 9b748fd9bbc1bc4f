/// The engine's one entry point: a JSON request with an "op" in, a JSON response out. Never throws.
#pragma once

#include <string>
#include <string_view>

namespace parascope {

/// Answers one request. Bad input yields {"error": {"code", "message", "field"}}; this function never throws.
std::string call(std::string_view request_text);

/// True when a response text (from call) is an error object.
bool is_error_response(std::string_view response_text);

}  // namespace parascope
