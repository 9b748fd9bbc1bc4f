// Field-by-field validation of JSON requests: types, ranges, allowed names and unknown keys.
#include "request_reader.hpp"

#include <cmath>
#include <cstdio>
#include <utility>

namespace parascope::detail {

void refuse(const char* code, std::initializer_list<Piece> message, std::string_view field) {
  throw RequestError(code, join_pieces(message), std::string(field));
}

namespace {

std::string type_name(const json& v) {
  if (v.is_number()) return "a number";
  if (v.is_string()) return "a string";
  if (v.is_boolean()) return "a boolean";
  if (v.is_object()) return "an object";
  if (v.is_array()) return "an array";
  return "null";
}

std::string join(const std::vector<std::string_view>& names) {
  std::string out;
  for (const auto& n : names) {
    if (!out.empty()) out += ", ";
    out += '"';
    out += n;
    out += '"';
  }
  return out;
}

}  // namespace

RequestReader::RequestReader(const json& object, std::string path) : object_(object), path_(std::move(path)) {
  if (!object_.is_object()) {
    refuse(code::wrong_type,
           {(path_.empty() ? std::string("the request") : path_), " must be a JSON object; got ", type_name(object_)},
           path_);
  }
}

bool RequestReader::has(const char* key) const { return object_.contains(key); }

std::string RequestReader::path_of(const char* key) const { return path_.empty() ? key : path_ + "." + key; }

void RequestReader::accept(const char* key) { known_.insert(key); }

const json* RequestReader::find(const char* key) {
  known_.insert(key);
  auto it = object_.find(key);
  return it == object_.end() ? nullptr : &*it;
}

const json& RequestReader::value(const char* key) {
  const json* v = find(key);
  if (!v) refuse(code::missing_field, {path_of(key), " is required"}, path_of(key));
  return *v;
}

void RequestReader::ignore(const char* key) { known_.insert(key); }

double RequestReader::finite_number(const char* key, const json& v) const {
  if (!v.is_number()) {
    refuse(code::wrong_type, {path_of(key), " must be a number; got ", type_name(v)}, path_of(key));
  }
  double d = v.get<double>();
  if (!std::isfinite(d)) {
    refuse(code::not_finite, {path_of(key), " must be finite"}, path_of(key));
  }
  return d;
}

std::int64_t RequestReader::integer(const char* key, std::int64_t min, std::int64_t max) {
  const json& v = value(key);
  // The range in words is written only into a refusal (never built for a value that passes).
  const auto refuse_range = [&](const char* code, const char* what, Piece got) {
    refuse(code, {path_of(key), what, "from ", double(min), " to ", double(max), "; got ", got}, path_of(key));
  };
  if (v.is_number_integer() || v.is_number_unsigned()) {
    if (v.is_number_unsigned() && v.get<std::uint64_t>() > std::uint64_t(max)) {
      refuse_range(code::out_of_range, " must be an integer ", std::to_string(v.get<std::uint64_t>()));
    }
    std::int64_t i = v.get<std::int64_t>();
    if (i < min || i > max) refuse_range(code::out_of_range, " must be an integer ", i);
    return i;
  }
  double d = finite_number(key, v);
  if (d != std::floor(d)) refuse_range(code::not_integer, " must be a whole number ", d);
  if (d < double(min) || d > double(max)) refuse_range(code::out_of_range, " must be an integer ", d);
  return std::int64_t(d);
}

std::int64_t RequestReader::integer_or(const char* key, std::int64_t fallback, std::int64_t min, std::int64_t max) {
  known_.insert(key);
  return has(key) ? integer(key, min, max) : fallback;
}

double RequestReader::number(const char* key, double min, double max, bool min_exclusive) {
  double d = finite_number(key, value(key));
  bool low = min_exclusive ? d <= min : d < min;
  if (low || d > max) {
    std::string range = min_exclusive ? "greater than " + format_number(min) + " and at most " + format_number(max)
                                      : "from " + format_number(min) + " to " + format_number(max);
    refuse(code::out_of_range, {path_of(key), " must be ", range, "; got ", double(d)}, path_of(key));
  }
  return d;
}

double RequestReader::number_or(const char* key, double fallback, double min, double max, bool min_exclusive) {
  known_.insert(key);
  return has(key) ? number(key, min, max, min_exclusive) : fallback;
}

bool RequestReader::boolean_or(const char* key, bool fallback) {
  const json* v = find(key);
  if (!v) return fallback;
  if (!v->is_boolean()) {
    refuse(code::wrong_type, {path_of(key), " must be true or false; got ", type_name(*v)}, path_of(key));
  }
  return v->get<bool>();
}

// A list written at the call reads as the engine's lists do: one reader and one message writer for both, not two
// (0.2 KB gzip of each wasm module).
std::string RequestReader::choice(const char* key, std::initializer_list<const char*> allowed) {
  return choice(key, std::vector<std::string_view>(allowed.begin(), allowed.end()));
}

std::string RequestReader::choice_or(const char* key, const char* fallback,
                                     const std::vector<std::string_view>& allowed) {
  known_.insert(key);
  return has(key) ? choice(key, allowed) : std::string(fallback);
}

std::string RequestReader::choice(const char* key, const std::vector<std::string_view>& allowed) {
  const json& v = value(key);
  if (!v.is_string()) {
    refuse(code::wrong_type, {path_of(key), " must be one of ", join(allowed), "; got ", type_name(v)}, path_of(key));
  }
  std::string s = v.get<std::string>();
  for (const auto& a : allowed) {
    if (s == a) return s;
  }
  refuse(code::invalid_value, {path_of(key), " must be one of ", join(allowed), "; got \"", s, "\""}, path_of(key));
}

std::string RequestReader::choice_or(const char* key, const char* fallback,
                                     std::initializer_list<const char*> allowed) {
  return choice_or(key, fallback, std::vector<std::string_view>(allowed.begin(), allowed.end()));
}

std::string RequestReader::text_or(const char* key, const std::string& fallback) {
  const json* v = find(key);
  if (!v) return fallback;
  if (!v->is_string()) {
    refuse(code::wrong_type, {path_of(key), " must be a string; got ", type_name(*v)}, path_of(key));
  }
  return v->get<std::string>();
}

RequestReader RequestReader::object(const char* key) { return RequestReader(value(key), path_of(key)); }

void RequestReader::finish() const {
  for (auto it = object_.begin(); it != object_.end(); ++it) {
    if (known_.count(it.key())) continue;
    // Plain string joins: an ostringstream here would pull libc++'s iostream and locale code (~73 KB) into the wasm.
    std::string allowed;
    for (const auto& k : known_) {
      if (!allowed.empty()) allowed += ", ";
      allowed += k;
    }
    refuse(code::unknown_field,
           {"unknown field ", path_of(it.key().c_str()), "; ", (path_.empty() ? std::string("this operation") : path_),
            " takes: ", allowed},
           path_of(it.key().c_str()));
  }
}

}  // namespace parascope::detail
