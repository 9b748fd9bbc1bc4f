/// Answers built field by field: put(obj, "key", value) is one small out-of-line call per field (a wasm a third smaller
/// than nlohmann initializer lists, whose temporaries and cleanups were inlined into every writer). The same text:
/// objects keep their keys sorted however they are filled, and each value keeps the JSON type it had.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>

namespace parascope::detail {

using json = nlohmann::json;

namespace json_out {
void put_json(json& object, const char* key, json&& value);
void put_double(json& object, const char* key, double value);
void put_int(json& object, const char* key, std::int64_t value);
void put_uint(json& object, const char* key, std::uint64_t value);
void put_bool(json& object, const char* key, bool value);
void put_text(json& object, const char* key, std::string_view value);
void put_string(json& object, const char* key, std::string&& value);
void put_null(json& object, const char* key);
}  // namespace json_out

/// object[key] = value (a null `object` becomes an object): numbers, booleans, strings, null or any json.
template <class T>
inline void put(json& object, const char* key, T&& value) {
  using V = std::decay_t<T>;
  static_assert(!std::is_same_v<V, char>, "a char would be written as a number: pass std::string(1, c)");
  if constexpr (std::is_same_v<V, bool>) {
    json_out::put_bool(object, key, value);
  } else if constexpr (std::is_floating_point_v<V>) {
    json_out::put_double(object, key, double(value));
  } else if constexpr (std::is_integral_v<V> && std::is_signed_v<V>) {
    json_out::put_int(object, key, std::int64_t(value));
  } else if constexpr (std::is_integral_v<V>) {
    json_out::put_uint(object, key, std::uint64_t(value));
  } else if constexpr (std::is_same_v<V, std::nullptr_t>) {
    json_out::put_null(object, key);
  } else if constexpr (std::is_same_v<V, std::string> && !std::is_lvalue_reference_v<T>) {
    json_out::put_string(object, key, std::move(value));
  } else if constexpr (std::is_convertible_v<const V&, std::string_view>) {
    json_out::put_text(object, key, value);
  } else {
    json_out::put_json(object, key, json(std::forward<T>(value)));
  }
}

/// object[key] = {} (an empty object, filled by the caller through the reference returned).
json& put_object(json& object, const char* key);
/// object[key] = [] (an empty array).
json& put_array(json& object, const char* key);
/// Appends an empty object to `array` and returns it.
json& push_object(json& array);

}  // namespace parascope::detail
