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

void Piece::append_to(std::string& out) const {
  switch (kind_) {
    case Kind::text: out += text_; break;
    case Kind::whole: out += std::to_string(whole_); break;
    case Kind::number: out += format_number(number_); break;
  }
}

std::string join_pieces(std::initializer_list<Piece> pieces) {
  std::string out;
  for (const Piece& p : pieces) p.append_to(out);
  return out;
}

}  // namespace parascope::detail
