/// JSON as text: the engine's writer of trees (dump_text), and answers written straight as text, too large to build as
/// a tree first (the timeline's columns and Chrome trace: hundreds of thousands of events, ~1 KB each as nlohmann
/// objects, ~100 bytes as text). Numbers and strings come out exactly as nlohmann's dump writes them.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "json_out.hpp"

namespace parascope::detail {

class JsonText {
 public:
  /// A double as json(x).dump() writes it ("1.0", "2.5e-07"); throws out_of_range when it is not finite.
  void number(double x);
  void integer(std::int64_t n);
  /// A string, quoted and escaped as the JSON writer does.
  void string(std::string_view s);
  /// `"key":`
  void key(std::string_view k);
  void raw(std::string_view s) { out_ += s; }
  void raw(char c) { out_ += c; }
  std::string& text() { return out_; }

 private:
  std::string out_;
};

/// `header`'s text with its member `key` (null in it) written as `body`: a small tree around a large text, keys
/// kept in the writer's order.
std::string splice(const json& header, const char* key, const std::string& body);
/// The same on a header already written as text (e.g. one splice's result, to splice a second member).
std::string splice(const std::string& head, const char* key, const std::string& body);
/// `v` as json::dump() writes it (no indent, UTF-8 kept as it is), each byte sequence that is not UTF-8 written as
/// U+FFFD as dump's error_handler_t::replace writes it: the engine's writer of trees, so nlohmann's serializer (its
/// output adapters and their shared_ptr) stays out of the wasm modules that never indent.
std::string dump_text(const json& v);
/// `v` as json::dump(indent) writes it: each member and element on a line of its own, `indent` spaces deeper a level.
std::string dump_indented(const json& v, int indent);
/// `s` escaped as dump_text escapes a string (without the quotes), appended to `out`.
void append_escaped(std::string_view s, std::string& out);
/// Whether every number in `v` is finite (call() refuses an answer holding another; a text answer must too).
bool all_finite(const json& v);

/// The answer an op wrote as text (call() answers it as it is, instead of the op's returned JSON, when not empty).
std::string& text_answer();

}  // namespace parascope::detail
