/// Request text (or the compiled-in data) to a JSON value: json::parse's answer, from our own reader (json_read.cpp).
#pragma once

#include <nlohmann/json.hpp>
#include <string_view>

namespace parascope::detail {

/// `text` parsed as one JSON value, exactly as json::parse(text) does: the same value (number kinds included) and
/// the same parse_error / out_of_range exceptions, messages and byte offsets (tests/engine/json_read_test.cpp
/// compares the two on every fixture request and on generated text). Our own reader because nlohmann's lexer and
/// parser were ~4 KB gzip of every widget module's wasm (tests/bench/wasm-bytes-notes.md).
nlohmann::json parse_json(std::string_view text);

}  // namespace parascope::detail
