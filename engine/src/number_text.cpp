// Numbers in messages (number_text.hpp).
#include "number_text.hpp"

#include <cmath>
#include <cstdio>

namespace parascope::detail {

std::string format_number(double value) {
  char buf[64];
  if (std::isfinite(value) && value == std::floor(value) && std::fabs(value) < 1e15) {
    std::snprintf(buf, sizeof buf, "%.0f", value);
  } else {
    std::snprintf(buf, sizeof buf, "%.6g", value);
  }
  return buf;
}

}  // namespace parascope::detail
