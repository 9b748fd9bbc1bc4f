/// The one error type of the engine: a bad request, reported as {"error": {"code", "message", "field"}}.
#pragma once

#include <stdexcept>
#include <string>

namespace parascope {

/// Stable error codes: part of the API contract (docs/api.md lists them).
namespace code {
inline constexpr const char* invalid_json = "invalid_json";              ///< the request text is not JSON
inline constexpr const char* invalid_request = "invalid_request";        ///< the request is not a JSON object
inline constexpr const char* missing_field = "missing_field";            ///< a required field is absent
inline constexpr const char* wrong_type = "wrong_type";                  ///< a field has the wrong JSON type
inline constexpr const char* not_integer = "not_integer";                ///< a count has a fractional part
inline constexpr const char* not_finite = "not_finite";                  ///< NaN or infinity
inline constexpr const char* out_of_range = "out_of_range";              ///< below the minimum or above the maximum
inline constexpr const char* invalid_value = "invalid_value";            ///< not one of the allowed names
inline constexpr const char* unknown_op = "unknown_op";                  ///< no such operation
inline constexpr const char* unknown_field = "unknown_field";            ///< a field the operation does not take
inline constexpr const char* unknown_preset = "unknown_preset";          ///< no preset with that id
inline constexpr const char* conflicting_fields = "conflicting_fields";  ///< fields that exclude each other
inline constexpr const char* inconsistent = "inconsistent";              ///< fields valid alone, wrong together
inline constexpr const char* too_large = "too_large";                    ///< the answer would be too big to compute
inline constexpr const char* internal_error = "internal_error";          ///< a bug: please report it
}  // namespace code

/// A request the engine refuses. `field` is a dotted path ("parallel.tp") or empty when no single field is to blame.
struct RequestError : std::runtime_error {
  RequestError(std::string code_, std::string message_, std::string field_ = {})
      : std::runtime_error(message_), code(std::move(code_)), message(std::move(message_)), field(std::move(field_)) {}
  std::string code;
  std::string message;
  std::string field;
};

}  // namespace parascope
