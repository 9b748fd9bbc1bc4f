/// Reads and validates the fields of one JSON request object; every refusal is a RequestError naming the field.
#pragma once

#include <cstdint>
#include <initializer_list>
#include <nlohmann/json.hpp>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "number_text.hpp"
#include "parascope/error.hpp"

namespace parascope::detail {

using json = nlohmann::json;

/// Throws RequestError(code, the pieces joined (number_text.hpp), field): one out-of-line call per refusal.
[[noreturn]] void refuse(const char* code, std::initializer_list<Piece> message, std::string_view field);

/// Wraps one JSON object. Each accessor marks its key as read; finish() refuses any key that was never read.
class RequestReader {
 public:
  /// `path` is the dotted location of this object in the request ("" for the root).
  RequestReader(const json& object, std::string path);

  bool has(const char* key) const;
  /// The dotted path of a key in this object, for error messages.
  std::string path_of(const char* key) const;

  /// A required integer in [min, max]. Accepts 8 and 8.0; refuses 8.5, NaN, infinity, strings.
  std::int64_t integer(const char* key, std::int64_t min, std::int64_t max);
  std::int64_t integer_or(const char* key, std::int64_t fallback, std::int64_t min, std::int64_t max);

  /// A required finite number in [min, max] (or (min, max] when min_exclusive).
  double number(const char* key, double min, double max, bool min_exclusive = false);
  double number_or(const char* key, double fallback, double min, double max, bool min_exclusive = false);

  bool boolean_or(const char* key, bool fallback);

  /// A required string that must be one of `allowed`.
  std::string choice(const char* key, std::initializer_list<const char*> allowed);
  std::string choice_or(const char* key, const char* fallback, std::initializer_list<const char*> allowed);
  /// The same, with the allowed names from a list the engine keeps (the schedule registry's ids).
  std::string choice(const char* key, const std::vector<std::string_view>& allowed);
  std::string choice_or(const char* key, const char* fallback, const std::vector<std::string_view>& allowed);

  /// Any string (for names and notes), or the fallback.
  std::string text_or(const char* key, const std::string& fallback);

  /// The raw value (marked as read); throws missing_field when absent.
  const json& value(const char* key);
  /// Marks a key as read without using it (metadata the engine accepts and ignores).
  void ignore(const char* key);

  /// A nested object, read by a reader of its own (whose finish() the caller must call).
  RequestReader object(const char* key);

  /// Refuses keys that no accessor read, naming the first one and listing what this object takes.
  void finish() const;

  /// Marks `key` read and lists it among the fields this object takes.
  void accept(const char* key);

 private:
  const json* find(const char* key);
  double finite_number(const char* key, const json& v) const;

  const json& object_;
  std::string path_;
  std::set<std::string> known_;
};

}  // namespace parascope::detail
