/// Numbers in messages: the one formatting rule every refusal uses (no JSON here, so the domain can use it too).
#pragma once

#include <string>

namespace parascope::detail {

/// Formats a number for an error message: integers without a fraction, others with up to 6 significant digits.
std::string format_number(double value);

}  // namespace parascope::detail
