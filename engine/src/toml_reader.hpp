/// A TOML document read into JSON: the subset torchtitan's job configs use (tables, dotted keys, basic and literal
/// strings, integers, floats, booleans, arrays); a malformed document is refused naming its line.
#pragma once

#include <nlohmann/json.hpp>
#include <string>

namespace parascope::detail {

/// Tables become objects; `line_of` (optional) gets each leaf's 1-based line under its dotted key ("training.seq_len").
/// Refuses (RequestError invalid_value, field "text") a malformed line, a key given twice, or TOML it does not read
/// (inline tables, dates, multi-line strings), naming the line.
nlohmann::json read_toml(const std::string& text, nlohmann::json* line_of = nullptr);

}  // namespace parascope::detail
