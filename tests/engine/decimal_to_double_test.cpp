// decimal_to_double and decimal_to_float (the wasm's strtod and strtof) against the C library's, bit for bit and to the
// same end of text.
#include "../../engine/src/decimal_to_double.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <string>

namespace {

std::uint64_t bits(double d) {
  std::uint64_t b;
  std::memcpy(&b, &d, sizeof b);
  return b;
}

void same_as_libc(const std::string& text) {
  char* libc_end = nullptr;
  char* our_end = nullptr;
  const double want = std::strtod(text.c_str(), &libc_end);
  const double got = parascope::detail::decimal_to_double(text.c_str(), &our_end);
  ASSERT_EQ(bits(got), bits(want)) << text << ": " << got << " vs " << want;
  ASSERT_EQ(our_end - text.c_str(), libc_end - text.c_str()) << text;
  const float want_float = std::strtof(text.c_str(), &libc_end);
  const float got_float = parascope::detail::decimal_to_float(text.c_str(), &our_end);
  std::uint32_t want_bits, got_bits;
  std::memcpy(&want_bits, &want_float, sizeof want_bits);
  std::memcpy(&got_bits, &got_float, sizeof got_bits);
  ASSERT_EQ(got_bits, want_bits) << text << " (float): " << got_float << " vs " << want_float;
  ASSERT_EQ(our_end - text.c_str(), libc_end - text.c_str()) << text << " (float)";
}

TEST(DecimalToDouble, EdgeCasesAsLibc) {
  for (const char* text : {"0",
                           "-0",
                           "+0",
                           "0.0",
                           "00012",
                           "1",
                           "-1",
                           "0.1",
                           "0.3",
                           "1e23",
                           "8.5e22",
                           "9007199254740993",
                           "9007199254740995",
                           "18446744073709551616",
                           "123456789012345678901234567890",
                           "0.30000000000000004",
                           "2.2250738585072011e-308",
                           "2.2250738585072012e-308",
                           "2.2250738585072014e-308",
                           "4.9406564584124654e-324",
                           "2.4703282292062327e-324",
                           "2.4703282292062328e-324",
                           "2.4703282292062327208828439643411068618252990130716238221279284125033775364e-324",
                           "1e-324",
                           "3e-324",
                           "1.7976931348623157e308",
                           "1.7976931348623158e308",
                           "1.7976931348623159e308",
                           "1e308",
                           "1e309",
                           "1e-400",
                           "1e400",
                           "1e999999999999",
                           "1e-999999999999",
                           "0e999999999",
                           ".5",
                           "1.",
                           "-.5e-3",
                           "1e",
                           "1e+",
                           "1e-",
                           "1E5",
                           "1.5e+3x",
                           "  12",
                           "\t\n-7.25",
                           "",
                           "abc",
                           "e5",
                           ".",
                           "-",
                           "+.",
                           "-.e1",
                           "1..2",
                           "0.000014",
                           "25000000000",
                           "3.4028235e38",
                           "3.4028236e38",
                           "1.4e-45",
                           "7e-46",
                           "7.1e-46",
                           "1.17549435e-38",
                           "16777217",
                           "16777219",
                           "0.1f",
                           "2.5e11",
                           "1.2",
                           "1.25",
                           "0.55",
                           "0.869",
                           "3.0e-5",
                           "6.02214076e23"}) {
    same_as_libc(text);
  }
}

TEST(DecimalToDouble, LongDigitStringsAsLibc) {
  // Beyond the 800 digits kept: what is cut still decides the rounding (a sticky digit).
  std::string halfway = "9007199254740993";  // 2^53 + 1: exactly between two doubles, rounds to even
  same_as_libc(halfway);
  same_as_libc(halfway + std::string(900, '0'));
  same_as_libc(halfway + std::string(900, '0') + "1");
  same_as_libc("0." + std::string(1000, '0') + "1");
  same_as_libc(std::string(1200, '9'));
  same_as_libc("1" + std::string(400, '0') + "e-100");
  same_as_libc("0." + std::string(2000, '3'));
}

/// `exact` (a midpoint written in full, "d.ddd…e±X") as libc reads it, and the same text one unit up or down in its
/// last nonzero digit: the three cases of round-half-to-even.
void same_as_libc_around(const std::string& exact) {
  same_as_libc(exact);
  std::size_t last = exact.find('e') - 1;
  while (exact[last] == '0') --last;  // the last nonzero digit of the exact expansion
  std::string up = exact, down = exact;
  if (up[last] < '9') {
    ++up[last];
    same_as_libc(up);
  }
  --down[last];
  same_as_libc(down);
}

TEST(DecimalToDouble, HalfwayPointsAsLibc) {
  // The exact midpoint of two neighbouring doubles (in long double, wider on x86), written out in full, and the same
  // text nudged one unit up or down in its last digit: the three cases of round-half-to-even.
  if (sizeof(long double) <= sizeof(double)) GTEST_SKIP() << "no wider long double";
  std::mt19937_64 rng(12);
  std::uniform_int_distribution<std::uint64_t> any_bits(1, 0x7fefffffffffffffull);
  char text[2000];
  for (int i = 0; i < 2000; ++i) {
    double x;
    const std::uint64_t b = any_bits(rng);
    std::memcpy(&x, &b, sizeof x);
    if (!(std::fabs(x) >= 2.3e-308)) continue;  // normal only: the long double midpoint is exact there
    const long double mid = (static_cast<long double>(x) + std::nextafter(x, INFINITY)) / 2;
    std::snprintf(text, sizeof text, "%.780Le", mid);
    same_as_libc_around(text);
  }
}

TEST(DecimalToDouble, FloatHalfwayPointsAsLibc) {
  // The same for floats: a float midpoint is an exact double.
  std::mt19937 rng(5);
  std::uniform_int_distribution<std::uint32_t> any_bits(1, 0x7f7fffffu);
  char text[400];
  for (int i = 0; i < 2000; ++i) {
    float x;
    const std::uint32_t b = any_bits(rng);
    std::memcpy(&x, &b, sizeof x);
    const double mid = (static_cast<double>(x) + std::nextafter(x, INFINITY)) / 2;
    std::snprintf(text, sizeof text, "%.160e", mid);
    same_as_libc_around(text);
  }
}

TEST(DecimalToDouble, RandomTextAsLibc) {
  std::mt19937_64 rng(7);
  const auto pick = [&rng](int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng); };
  for (int i = 0; i < 50000; ++i) {
    std::string s;
    if (pick(0, 3) == 0) s += '-';
    const int n = pick(1, i % 10 == 0 ? 60 : 20);
    const int point = pick(-1, n);
    for (int k = 0; k < n; ++k) {
      if (k == point) s += '.';
      s += char('0' + pick(0, 9));
    }
    if (pick(0, 2) != 0) s += "e" + std::to_string(i % 2 ? pick(-345, 330) : pick(-50, 42));
    same_as_libc(s);
  }
}

}  // namespace
