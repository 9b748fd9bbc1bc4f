// YAML (1.2, yaml.org/spec/1.2.2) -> JSON for the subset in yaml_reader.hpp: the text cut into indented lines, then
// read block by block; numbers as OmegaConf reads them (3e-4 is a float, as its resolver takes it).
#include "yaml_reader.hpp"

#include <cctype>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <vector>

#include "request_reader.hpp"

namespace parascope::detail {

namespace {

using nlohmann::json;

struct Line {
  std::size_t number = 1, indent = 0;
  std::string text;  ///< without indentation, comment and trailing blanks
};

[[noreturn]] void fail(std::size_t line, const std::string& why) {
  refuse(code::invalid_value, {"the YAML is malformed at line ", line, ": ", why}, "text");
}

/// Where the comment starts (a # at the start or after a blank, outside quotes), or the text's size.
std::size_t comment_at(const std::string& t) {
  char quote = 0;
  for (std::size_t i = 0; i < t.size(); ++i) {
    if (quote) {
      if (t[i] == quote) quote = 0;
    } else if ((t[i] == '"' || t[i] == '\'') && (i == 0 || std::string(" [,:").find(t[i - 1]) != std::string::npos)) {
      quote = t[i];
    } else if (t[i] == '#' && (i == 0 || t[i - 1] == ' ' || t[i - 1] == '\t')) {
      return i;
    }
  }
  return t.size();
}

std::string trimmed(const std::string& t) {
  std::size_t a = 0, b = t.size();
  while (a < b && (t[a] == ' ' || t[a] == '\t')) ++a;
  while (b > a && (t[b - 1] == ' ' || t[b - 1] == '\t' || t[b - 1] == '\r')) --b;
  return t.substr(a, b - a);
}

/// The lines that hold something, in order.
std::vector<Line> lines_of(const std::string& text) {
  std::vector<Line> out;
  std::size_t number = 0, from = 0;
  while (from <= text.size()) {
    std::size_t end = text.find('\n', from);
    if (end == std::string::npos) end = text.size();
    const std::string raw = text.substr(from, end - from);
    from = end + 1;
    ++number;
    Line l{number, 0, ""};
    while (l.indent < raw.size() && raw[l.indent] == ' ') ++l.indent;
    if (l.indent < raw.size() && raw[l.indent] == '\t')
      fail(number, "a tab in the indentation (YAML indents with spaces)");
    const std::string rest = raw.substr(l.indent);
    l.text = trimmed(rest.substr(0, comment_at(rest)));
    if (l.text.empty()) continue;
    if (l.text == "---" && out.empty()) continue;
    if (l.text == "---" || l.text == "...") fail(number, "several documents in one file are not read");
    if (l.text[0] == '%') fail(number, "directives (%...) are not read");
    out.push_back(l);
  }
  return out;
}

bool is_item(const Line& l) { return l.text == "-" || l.text.rfind("- ", 0) == 0; }

/// The position of the colon that ends a plain key ("key: value" or "key:"), or npos.
std::size_t key_colon(const std::string& t) {
  for (std::size_t i = 0; i < t.size(); ++i) {
    if (t[i] == ':' && (i + 1 == t.size() || t[i + 1] == ' ')) return i;
  }
  return std::string::npos;
}

json number_or_text(const std::string& w) {
  std::size_t i = (w[0] == '-' || w[0] == '+') ? 1 : 0;
  const std::size_t digits_from = i;
  while (i < w.size() && std::isdigit(static_cast<unsigned char>(w[i]))) ++i;
  const bool whole = i == w.size() && i > digits_from;
  const bool numeric =
      w.find_first_not_of("+-.0123456789eE") == std::string::npos && w.find_first_of("0123456789") != std::string::npos;
  char* end = nullptr;
  errno = 0;
  if (whole) {
    const long long n = std::strtoll(w.c_str(), &end, 10);
    if (*end == '\0' && errno != ERANGE) return n;
  } else if (numeric) {
    const double x = std::strtod(w.c_str(), &end);
    if (*end == '\0' && std::isfinite(x)) return x;
  }
  return w;
}

json plain(const std::string& w, std::size_t line) {
  if (w == "~" || w == "null" || w == "Null" || w == "NULL") return nullptr;
  if (w == "true" || w == "True" || w == "TRUE") return true;
  if (w == "false" || w == "False" || w == "FALSE") return false;
  for (const char* b : {"yes", "Yes", "YES", "no", "No", "NO", "on", "On", "ON", "off", "Off", "OFF"}) {
    if (w == b) fail(line, "\"" + w + "\" is a boolean in YAML 1.1 and a string in 1.2: write true or false");
  }
  if (w == ".inf" || w == "-.inf" || w == ".nan" || w == ".NaN") fail(line, "infinities and NaN are not read");
  const char first = w[0];
  if (first == '&' || first == '*') fail(line, "anchors and aliases (&, *) are not read");
  if (first == '!') fail(line, "tags (!...) are not read");
  if (first == '|' || first == '>') fail(line, "multi-line strings (| and >) are not read");
  if (first == '@' || first == '`') fail(line, "a plain value cannot start with " + std::string(1, first));
  if (first == '{') fail(line, "flow maps ({...}) other than {} are not read: write the map as a block");
  if (first == '[' || first == ']' || first == '}' || w.rfind("- ", 0) == 0) fail(line, "\"" + w + "\" is not a value");
  if (key_colon(w) != std::string::npos) fail(line, "a value holds \": \" (quote it)");
  return number_or_text(w);
}

/// A quoted scalar that is the whole of `w`.
json quoted(const std::string& w, std::size_t line) {
  const char q = w[0];
  std::string out;
  std::size_t i = 1;
  for (; i < w.size(); ++i) {
    if (q == '\'' && w[i] == '\'' && i + 1 < w.size() && w[i + 1] == '\'') {
      out += '\'';
      ++i;
    } else if (w[i] == q) {
      break;
    } else if (q == '"' && w[i] == '\\' && i + 1 < w.size()) {
      const char e = w[++i];
      if (e != '"' && e != '\\' && e != 'n' && e != 't' && e != '/')
        fail(line, "an escape other than \\\" \\\\ \\n \\t \\/");
      out += e == 'n' ? '\n' : e == 't' ? '\t' : e;
    } else {
      out += w[i];
    }
  }
  if (i >= w.size()) fail(line, "a quote is not closed on its line (multi-line strings are not read)");
  if (i + 1 != w.size()) fail(line, "text after a quoted value");
  return out;
}

json scalar(const std::string& w, std::size_t line) {
  return w[0] == '"' || w[0] == '\'' ? quoted(w, line) : plain(w, line);
}

/// A one-line flow list of scalars: [a, 'b', 3].
json flow_list(const std::string& w, std::size_t line) {
  if (w.back() != ']') fail(line, "a flow list ([...]) ends on its line with ]");
  json out = json::array();
  const std::string inner = trimmed(w.substr(1, w.size() - 2));
  if (inner.empty()) return out;
  char quote = 0;
  std::size_t from = 0;
  for (std::size_t i = 0; i <= inner.size(); ++i) {
    if (i < inner.size() && quote) {
      if (inner[i] == quote) quote = 0;
    } else if (i < inner.size() && (inner[i] == '"' || inner[i] == '\'')) {
      quote = inner[i];
    } else if (i < inner.size() && (inner[i] == '[' || inner[i] == '{')) {
      fail(line, "nested flow collections are not read");
    } else if (i == inner.size() || inner[i] == ',') {
      const std::string item = trimmed(inner.substr(from, i - from));
      if (item.empty()) fail(line, "an empty item in a flow list");
      out.push_back(scalar(item, line));
      from = i + 1;
    }
  }
  return out;
}

json value(const std::string& w, std::size_t line) {
  if (w == "{}") return json::object();
  if (w[0] == '[') return flow_list(w, line);
  return scalar(w, line);
}

class Reader {
 public:
  Reader(std::vector<Line> lines, json* line_of) : l_(std::move(lines)), line_of_(line_of) {}

  json document() {
    if (l_.empty()) return nullptr;
    if (l_[0].indent != 0) fail(l_[0].number, "the document's first line is indented");
    json doc = is_item(l_[0]) ? list(0, "") : map(0, "");
    if (i_ < l_.size()) fail(l_[i_].number, "indentation that matches no enclosing block");
    return doc;
  }

 private:
  json map(std::size_t indent, const std::string& prefix) {
    json obj = json::object();
    while (i_ < l_.size() && l_[i_].indent == indent) {
      const Line& at = l_[i_];
      if (is_item(at)) fail(at.number, "a list item among a map's keys");
      const std::size_t colon = key_colon(at.text);
      if (colon == std::string::npos) fail(at.number, "a line that is neither `key: value` nor `- item`");
      const std::string key = trimmed(at.text.substr(0, colon)), rest = trimmed(at.text.substr(colon + 1));
      if (key.empty() || key[0] == '"' || key[0] == '\'' || key[0] == '?' || key.find('.') != std::string::npos) {
        fail(at.number, "keys are plain words (no quotes, dots or ?)");
      }
      if (obj.contains(key)) fail(at.number, "the key " + prefix + key + " is given twice");
      ++i_;
      const bool deeper = i_ < l_.size() && l_[i_].indent > indent;
      if (!rest.empty()) {
        obj[key] = value(rest, at.number);
        if (deeper) fail(l_[i_].number, "an indented block under a key that has a value");
        leaf(prefix + key, at.number);
      } else if (deeper) {
        obj[key] = is_item(l_[i_]) ? list(l_[i_].indent, prefix + key) : map(l_[i_].indent, prefix + key + ".");
      } else if (i_ < l_.size() && l_[i_].indent == indent && is_item(l_[i_])) {
        obj[key] = list(indent, prefix + key);
      } else {
        obj[key] = nullptr;
        leaf(prefix + key, at.number);
      }
    }
    return obj;
  }

  /// A block list of scalars or of maps, one leaf named `dotted` at its first item's line.
  json list(std::size_t indent, const std::string& dotted) {
    json out = json::array();
    leaf(dotted, l_[i_].number);
    while (i_ < l_.size() && l_[i_].indent == indent && is_item(l_[i_])) {
      Line& at = l_[i_];
      const std::string item = trimmed(at.text.substr(1));
      if (item.empty()) fail(at.number, "a list item with nothing after its dash");
      if (item[0] != '"' && item[0] != '\'' && key_colon(item) != std::string::npos) {
        // A map as the item (nanotron's data_stages: "- name: ..."): its first key sits at the item's column and
        // the rest below it; its keys are no leaves of their own (the list is one).
        at.indent += at.text.size() - item.size();
        at.text = item;
        ++quiet_;
        out.push_back(map(at.indent, dotted + "."));
        --quiet_;
        continue;
      }
      out.push_back(value(item, at.number));
      ++i_;
      if (i_ < l_.size() && l_[i_].indent > indent) fail(l_[i_].number, "an indented block under a list item");
    }
    return out;
  }

  void leaf(const std::string& dotted, std::size_t line) {
    if (line_of_ && !dotted.empty() && quiet_ == 0) (*line_of_)[dotted] = line;
  }

  std::vector<Line> l_;
  json* line_of_;
  std::size_t i_ = 0;
  int quiet_ = 0;  ///< inside a list's map items: their keys are part of the list's leaf
};

}  // namespace

json read_yaml(const std::string& text, json* line_of) {
  if (line_of) *line_of = json::object();
  return Reader(lines_of(text), line_of).document();
}

}  // namespace parascope::detail
