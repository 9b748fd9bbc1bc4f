/// Decimal text to the nearest double (round half to even), in double and integer arithmetic only. The wasm's strtod
/// (decimal_to_double.cpp): musl's scans in long double, whose soft-float routines cost every module ~4 KB gzip.
#pragma once

namespace parascope::detail {

/// strtod for decimal text: [white space][+|-]digits[.digits][(e|E)[+|-]digits] (at least one digit before or after
/// the point), correctly rounded as strtod rounds; ±HUGE_VAL beyond the largest double, ±0 below half the smallest.
/// No hexadecimal, "inf" or "nan" (JSON has none): such text, like any without a digit, converts to 0 with *end = text.
double decimal_to_double(const char* text, char** end);

/// strtof for the same text: the float nearest the decimal value itself (never rounded twice through a double).
float decimal_to_float(const char* text, char** end);

}  // namespace parascope::detail
