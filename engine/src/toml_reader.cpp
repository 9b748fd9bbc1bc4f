// TOML (v1.0.0, toml.io/en/v1.0.0) -> JSON for the subset in toml_reader.hpp: one line at a time, arrays may span
// lines.
#include "toml_reader.hpp"

#include <cctype>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <vector>

#include "request_reader.hpp"

namespace parascope::detail {

namespace {

using nlohmann::json;

class Toml {
 public:
  explicit Toml(const std::string& t) : t_(t) {}

  json run(json* lines) {
    json doc = json::object();
    json* table = &doc;
    std::string prefix;
    while (skip_blank_lines()) {
      if (t_[i_] == '[') {
        ++i_;
        if (peek('[')) fail("arrays of tables ([[...]]) are not read");
        const std::vector<std::string> path = key();
        if (!peek(']')) fail("a table header ends with ]");
        table = &doc;
        prefix.clear();
        for (const std::string& k : path) {
          table = &descend(*table, k);
          prefix += k + ".";
        }
      } else {
        const std::vector<std::string> path = key();
        if (!peek('=')) fail("a key is followed by =");
        json* at = table;
        std::string dotted = prefix;
        for (std::size_t k = 0; k + 1 < path.size(); ++k) {
          at = &descend(*at, path[k]);
          dotted += path[k] + ".";
        }
        if (at->contains(path.back())) fail("the key " + dotted + path.back() + " is given twice");
        const std::size_t line = line_;
        (*at)[path.back()] = value();
        if (lines) (*lines)[dotted + path.back()] = line;
      }
      end_of_line();
    }
    return doc;
  }

 private:
  [[noreturn]] void fail(const std::string& why) {
    refuse(code::invalid_value, {"the TOML is malformed at line ", line_, ": ", why}, "text");
  }
  json& descend(json& at, const std::string& k) {
    if (!at.contains(k)) at[k] = json::object();
    if (!at[k].is_object()) fail("the key " + k + " is a value and a table");
    return at[k];
  }
  void spaces() {
    while (i_ < t_.size() && (t_[i_] == ' ' || t_[i_] == '\t')) ++i_;
  }
  bool peek(char c) {
    spaces();
    if (i_ < t_.size() && t_[i_] == c) return ++i_, true;
    return false;
  }
  /// Skips blank and comment lines; false at the end of the text.
  bool skip_blank_lines() {
    for (;;) {
      spaces();
      if (i_ < t_.size() && t_[i_] == '#')
        while (i_ < t_.size() && t_[i_] != '\n') ++i_;
      if (i_ < t_.size() && t_[i_] == '\r') ++i_;
      if (i_ >= t_.size()) return false;
      if (t_[i_] != '\n') return true;
      ++i_;
      ++line_;
    }
  }
  void end_of_line() {
    spaces();
    if (i_ < t_.size() && t_[i_] == '#')
      while (i_ < t_.size() && t_[i_] != '\n') ++i_;
    if (i_ < t_.size() && t_[i_] == '\r') ++i_;
    if (i_ < t_.size() && t_[i_] != '\n') fail("unexpected text after the value");
  }
  std::vector<std::string> key() {
    std::vector<std::string> path;
    do {
      spaces();
      if (i_ < t_.size() && (t_[i_] == '"' || t_[i_] == '\'')) {
        path.push_back(string());
        continue;
      }
      const std::size_t start = i_;
      while (i_ < t_.size() && (std::isalnum(static_cast<unsigned char>(t_[i_])) || t_[i_] == '_' || t_[i_] == '-'))
        ++i_;
      if (i_ == start) fail("a key is expected");
      path.push_back(t_.substr(start, i_ - start));
    } while (peek('.'));
    return path;
  }
  std::string string() {
    const char quote = t_[i_++];
    std::string out;
    while (i_ < t_.size() && t_[i_] != quote) {
      if (t_[i_] == '\n') fail("a string ends on its line");
      if (quote == '"' && t_[i_] == '\\') {
        if (++i_ >= t_.size()) break;
        const char e = t_[i_];
        const std::string from = "btnfr\"\\", to = "\b\t\n\f\r\"\\";
        if (from.find(e) == std::string::npos) fail("an escape TOML does not define (or \\u, not read)");
        out += to[from.find(e)];
        ++i_;
        continue;
      }
      out += t_[i_++];
    }
    if (i_ >= t_.size()) fail("a string is never closed");
    ++i_;
    if (out.empty() && i_ < t_.size() && t_[i_] == quote) fail("multi-line strings are not read");
    return out;
  }
  json value() {
    spaces();
    if (i_ >= t_.size() || t_[i_] == '\n') fail("a value is expected");
    const char c = t_[i_];
    if (c == '"' || c == '\'') return string();
    if (c == '[') return array();
    if (c == '{') fail("inline tables are not read");
    const std::size_t start = i_;
    while (i_ < t_.size() && std::string(" \t\r\n,]#").find(t_[i_]) == std::string::npos) ++i_;
    return scalar(t_.substr(start, i_ - start));
  }
  json scalar(std::string w) {
    if (w == "true") return true;
    if (w == "false") return false;
    std::string digits;
    for (char c : w) {
      if (c != '_') digits += c;
    }
    char* end = nullptr;
    errno = 0;
    const bool is_float = digits.find_first_of(".eE") != std::string::npos || digits == "inf" || digits == "nan";
    if (!is_float) {
      const long long n = std::strtoll(digits.c_str(), &end, 10);
      if (!digits.empty() && *end == '\0' && errno != ERANGE) return n;
    } else {
      const double x = std::strtod(digits.c_str(), &end);
      if (!digits.empty() && *end == '\0' && std::isfinite(x)) return x;
    }
    fail("\"" + w + "\" is not a string, number, boolean or array (dates are not read)");
  }
  json array() {
    ++i_;
    json a = json::array();
    for (;;) {
      skip_blank_lines();
      if (peek(']')) return a;
      a.push_back(value());
      skip_blank_lines();
      if (peek(']')) return a;
      if (!peek(',')) fail("array items are separated by commas");
    }
  }

  const std::string& t_;
  std::size_t i_ = 0, line_ = 1;
};

}  // namespace

json read_toml(const std::string& text, json* line_of) {
  if (line_of) *line_of = json::object();
  return Toml(text).run(line_of);
}

}  // namespace parascope::detail
