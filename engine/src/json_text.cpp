// JSON text: trees written as nlohmann's dump writes them, and answers written without a tree, in the same bytes.
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
      out_ += '"';  // the rare string to escape
      append_escaped(s, out_);
      out_ += '"';
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
  return splice(dump_text(header), key, body);
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

namespace {

/// An ASCII character as dump escapes it: the short escapes, \u00xx (lower-case hex) below 0x20, else itself.
void append_ascii(char c, std::string& out) {
  switch (c) {
    case '\b':
      out += "\\b";
      return;
    case '\t':
      out += "\\t";
      return;
    case '\n':
      out += "\\n";
      return;
    case '\f':
      out += "\\f";
      return;
    case '\r':
      out += "\\r";
      return;
    case '"':
      out += "\\\"";
      return;
    case '\\':
      out += "\\\\";
      return;
    default:
      if (static_cast<unsigned char>(c) < 0x20) {
        out += "\\u00";
        out += "0123456789abcdef"[c >> 4];
        out += "0123456789abcdef"[c & 15];
      } else {
        out += c;
      }
  }
}

void append_tree(const json& v, std::string& out) {
  switch (v.type()) {
    case json::value_t::object: {
      out += '{';
      bool first = true;
      for (const auto& [key, value] : v.get_ref<const json::object_t&>()) {
        if (!first) out += ',';
        first = false;
        out += '"';
        append_escaped(key, out);
        out += "\":";
        append_tree(value, out);
      }
      out += '}';
      return;
    }
    case json::value_t::array: {
      out += '[';
      bool first = true;
      for (const json& value : v.get_ref<const json::array_t&>()) {
        if (!first) out += ',';
        first = false;
        append_tree(value, out);
      }
      out += ']';
      return;
    }
    case json::value_t::string:
      out += '"';
      append_escaped(v.get_ref<const std::string&>(), out);
      out += '"';
      return;
    case json::value_t::boolean:
      out += v.get<bool>() ? "true" : "false";
      return;
    case json::value_t::number_integer:
      out += std::to_string(v.get<std::int64_t>());
      return;
    case json::value_t::number_unsigned:
      out += std::to_string(v.get<std::uint64_t>());
      return;
    case json::value_t::number_float: {
      const double x = v.get<double>();
      if (!std::isfinite(x)) {
        out += "null";
        return;
      }
      char buf[64];
      out.append(buf, nlohmann::detail::to_chars(buf, buf + sizeof buf, x));
      return;
    }
    case json::value_t::discarded:
      out += "<discarded>";
      return;
    default:
      out += "null";
      return;  // null (no answer holds a binary value)
  }
}

void append_indented(const json& v, int indent, int depth, std::string& out) {
  if (!v.is_structured() || v.empty()) {  // scalars, {} and [] as on one line
    append_tree(v, out);
    return;
  }
  const bool object = v.is_object();
  out += object ? "{\n" : "[\n";
  for (auto it = v.begin(); it != v.end(); ++it) {
    if (it != v.begin()) out += ",\n";
    out.append(std::size_t(indent) * std::size_t(depth + 1), ' ');
    if (object) {
      out += '"';
      append_escaped(it.key(), out);
      out += "\": ";
    }
    append_indented(*it, indent, depth + 1, out);
  }
  out += '\n';
  out.append(std::size_t(indent) * std::size_t(depth), ' ');
  out += object ? '}' : ']';
}

}  // namespace

// nlohmann's serializer::dump_escaped (nlohmann/detail/output/serializer.hpp, 3.11.2) with ensure_ascii false and
// error_handler_t::replace: it validates with Hoehrmann's UTF-8 automaton, which takes only well-formed sequences (the
// second byte's range depends on the first: E0 A0..BF, ED 80..9F, F0 90..BF, F4 80..8F). At a byte no such sequence
// can take, the bytes since the last whole character become one U+FFFD, and that byte is read again unless it began
// the sequence; a sequence cut short by the end becomes one U+FFFD too. tests/engine/dump_text_test.cpp compares.
void append_escaped(std::string_view s, std::string& out) {
  std::size_t whole = out.size();  // out's length after the last whole character
  int need = 0;                    // continuation bytes still to come
  unsigned char low = 0x80;
  unsigned char high = 0xBF;  // the next continuation byte's range
  for (std::size_t i = 0; i < s.size(); ++i) {
    const auto c = static_cast<unsigned char>(s[i]);
    if (need == 0 && c < 0x80) {
      append_ascii(s[i], out);
      whole = out.size();
      continue;
    }
    if (need == 0) {
      need = c >= 0xC2 && c <= 0xDF ? 1 : c >= 0xE0 && c <= 0xEF ? 2 : c >= 0xF0 && c <= 0xF4 ? 3 : 0;
      low = c == 0xE0 ? 0xA0 : c == 0xF0 ? 0x90 : 0x80;
      high = c == 0xED ? 0x9F : c == 0xF4 ? 0x8F : 0xBF;
      if (need == 0) {  // no sequence starts with this byte
        out += "\xEF\xBF\xBD";
        whole = out.size();
        continue;
      }
    } else if (c < low || c > high) {
      out.resize(whole);
      out += "\xEF\xBF\xBD";
      whole = out.size();
      need = 0;
      --i;  // read again, as the start of what follows
      continue;
    } else {
      low = 0x80;
      high = 0xBF;
      --need;
    }
    out += s[i];
    if (need == 0) whole = out.size();
  }
  if (need != 0) {
    out.resize(whole);
    out += "\xEF\xBF\xBD";
  }
}

std::string dump_text(const json& v) {
  std::string out;
  append_tree(v, out);
  return out;
}

std::string dump_indented(const json& v, int indent) {
  std::string out;
  append_indented(v, indent, 0, out);
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
