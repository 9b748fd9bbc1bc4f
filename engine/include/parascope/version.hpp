/// The engine's name and semantic version.
#pragma once

namespace parascope {

inline constexpr const char* kName = "parascope";
const char* version();

}  // namespace parascope
