/// A YAML document read into JSON: the subset Megatron-Bridge's recipe and override files and nanotron's configs use
/// (block maps, block lists of scalars or maps, one-line flow lists of scalars, plain and quoted scalars, comments);
/// anything else is refused naming its line.
#pragma once

#include <nlohmann/json.hpp>
#include <string>

namespace parascope::detail {

/// Maps become objects; `line_of` (optional) gets each leaf's 1-based line under its dotted key ("model.num_layers");
/// a list is one leaf. Refuses (RequestError invalid_value, field "text"), naming the line: tabs in indentation, a key
/// given twice, anchors, aliases, tags, multi-line strings, flow maps other than {}, several documents, and YAML 1.1's
/// yes/no/on/off (write true or false).
nlohmann::json read_yaml(const std::string& text, nlohmann::json* line_of = nullptr);

}  // namespace parascope::detail
