// The out-of-line halves of json_out.hpp: each field of an answer costs one call, not an inlined temporary tree.
#include "json_out.hpp"

#define PARASCOPE_OUT_OF_LINE __attribute__((noinline))

namespace parascope::detail {

namespace json_out {

PARASCOPE_OUT_OF_LINE void put_json(json& object, const char* key, json&& value) { object[key] = std::move(value); }
PARASCOPE_OUT_OF_LINE void put_double(json& object, const char* key, double value) { object[key] = value; }
PARASCOPE_OUT_OF_LINE void put_int(json& object, const char* key, std::int64_t value) { object[key] = value; }
PARASCOPE_OUT_OF_LINE void put_uint(json& object, const char* key, std::uint64_t value) { object[key] = value; }
PARASCOPE_OUT_OF_LINE void put_bool(json& object, const char* key, bool value) { object[key] = value; }
PARASCOPE_OUT_OF_LINE void put_text(json& object, const char* key, std::string_view value) {
  object[key] = std::string(value);
}
PARASCOPE_OUT_OF_LINE void put_string(json& object, const char* key, std::string&& value) {
  object[key] = std::move(value);
}
PARASCOPE_OUT_OF_LINE void put_null(json& object, const char* key) { object[key] = nullptr; }

}  // namespace json_out

PARASCOPE_OUT_OF_LINE json& put_object(json& object, const char* key) { return object[key] = json::object(); }
PARASCOPE_OUT_OF_LINE json& put_array(json& object, const char* key) { return object[key] = json::array(); }
PARASCOPE_OUT_OF_LINE json& push_object(json& array) {
  array.push_back(json::object());
  return array.back();
}

}  // namespace parascope::detail
