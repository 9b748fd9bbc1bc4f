/// JSON data files compiled into the engine (engine/data/*.json, embedded at build time by embed_data.cmake).
#pragma once

#include <string_view>

namespace parascope::detail {

/// The text of engine/data/<name>.json, or an empty view when there is no such file.
std::string_view embedded_data(std::string_view name);

}  // namespace parascope::detail
