/// The two powers the cost model and the MoE router take, without std::pow: in the wasm, std::pow is musl's pow with
/// about 6 KB of tables; leaving it out made the axes module 5.4 KB gzip smaller (issue 12: an embedded widget
/// ≤ 120 KB). Both stay within 1e-13 of std::pow, relative (tests/engine/powers_test.cpp): far below what a cost
/// model's inputs are known to, and the router's weights only set sampling odds. Native and wasm compute them with the
/// same instructions, so both give the same bits.
#pragma once

#include <cmath>
#include <cstdint>

namespace parascope::detail {

/// base^exponent for a whole exponent ≥ 0, by repeated squaring: relative error under exponent·2^-53 (each squaring's
/// rounding is raised to the rest of the power).
inline double whole_power(double base, std::int64_t exponent) {
  double result = 1.0;
  for (; exponent > 0; exponent >>= 1, base *= base) {
    if (exponent & 1) result *= base;
  }
  return result;
}

/// x^(−s) for x ≥ 1 and 0 ≤ s·log2(x) < 1000 (a Zipf weight: x a rank, s its skew), as 2^(−s·log2 x):
/// log2 x = e + ln(m)/ln 2 with x = m·2^e, m in [1/√2, √2), and ln m = 2·atanh(t), t = (m − 1)/(m + 1), |t| < 0.172,
/// by its series to t^23 (the next term is under 1e-18 of the sum); then 2^y = 2^n·e^(f·ln 2) with n the nearest
/// whole number to y and |f| ≤ 1/2, e^u by its Taylor series to u^16 (|u| < 0.35: the rest is under 1e-19).
inline double inverse_power(double x, double s) {
  int e = 0;
  double m = std::frexp(x, &e);  // x = m·2^e, m in [1/2, 1)
  if (m < 0.70710678118654752440) {
    m *= 2.0;
    e -= 1;
  }
  const double t = (m - 1.0) / (m + 1.0), t2 = t * t;
  double atanh_over_t = 1.0 / 23.0;
  for (int k = 21; k >= 1; k -= 2) atanh_over_t = atanh_over_t * t2 + 1.0 / k;
  constexpr double kLog2E = 1.44269504088896340736;  // 1 / ln 2
  constexpr double kLn2 = 0.69314718055994530942;
  const double y = -s * (double(e) + 2.0 * t * atanh_over_t * kLog2E);
  const double n = std::floor(y + 0.5);
  const double u = (y - n) * kLn2;
  double exp_u = 1.0;
  for (int k = 16; k >= 1; --k) exp_u = 1.0 + exp_u * u / k;
  return std::ldexp(exp_u, int(n));
}

}  // namespace parascope::detail
