// JSON text written without a tree: numbers through the JSON writer's own conversion, strings escaped as it does.
#include "json_text.hpp"

#include <charconv>
#include <cmath>

#include "parascope/error.hpp"

namespace parascope::detail {

void JsonText::number(double x) {
  if (!std::isfinite(x)) {
    throw RequestError(code::out_of_range,
                       "the answer holds a number that overflows a double: the request's numbers are too far apart in "
                       "scale to compute it",
                       "");
  }
  char buf[64];
  char* end = nlohmann::detail::to_chars(buf, buf + sizeof buf, x);  // what json(x).dump() writes
  out_.append(buf, end);
}

void JsonText::integer(std::int64_t n) {
  char buf[24];
  const auto r = std::to_chars(buf, buf + sizeof buf, n);
  out_.append(buf, r.ptr);
}

void JsonText::string(std::string_view s) {
  for (char c : s) {
    if (c == '"' || c == '\\' || static_cast<unsigned char>(c) < 0x20) {
      out_ += json(std::string(s)).dump();  // the rare string to escape: the writer's own rules
      return;
    }
  }
  out_ += '"';
  out_ += s;
  out_ += '"';
}

void JsonText::key(std::string_view k) {
  string(k);
  out_ += ':';
}

std::string splice(const json& header, const char* key, const std::string& body) {
  return splice(header.dump(), key, body);
}

std::string splice(const std::string& head, const char* key, const std::string& body) {
  const std::string marker = "\"" + std::string(key) + "\":null";
  const std::size_t at = head.find(marker) + marker.size() - 4;  // the null
  std::string out;
  out.reserve(head.size() + body.size());
  out.append(head, 0, at);
  out += body;
  out.append(head, at + 4, std::string::npos);
  return out;
}

bool all_finite(const json& v) {
  if (v.is_number_float()) return std::isfinite(v.get<double>());
  if (v.is_structured()) {
    for (const json& child : v) {
      if (!all_finite(child)) return false;
    }
  }
  return true;
}

std::string& text_answer() {
  thread_local std::string answer;
  return answer;
}

}  // namespace parascope::detail
