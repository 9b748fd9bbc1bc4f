/// Request text (or the compiled-in data) to a JSON value: json::parse's answer, with one parser compiled, not two.
#pragma once

#include <nlohmann/json.hpp>
#include <string_view>

namespace parascope::detail {

/// `text` parsed as one JSON value, exactly as json::parse(text) does (its parse_error / out_of_range exceptions and
/// messages), through the one SAX parser json::parse builds values with: json::parse also compiles a second parser
/// for a callback it is never given here (~12 KB of wasm).
nlohmann::json parse_json(std::string_view text);

}  // namespace parascope::detail
