// Numbers in messages, written without printf: the same text as printf's "%.0f"/"%.6g" and "%.<d>f" (number_text.hpp).
#include "../../engine/src/number_text.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <limits>
#include <random>
#include <string>

namespace parascope::detail {
namespace {

std::string printf_number(double value) {  // the rule format_number used to call snprintf for
  char buf[64];
  if (std::isfinite(value) && value == std::floor(value) && std::fabs(value) < 1e15) {
    std::snprintf(buf, sizeof buf, "%.0f", value);
  } else {
    std::snprintf(buf, sizeof buf, "%.6g", value);
  }
  return buf;
}

std::string printf_fixed(double value, int decimals) {
  char buf[400];  // 1.8e308 with 20 decimals: 330 characters
  std::snprintf(buf, sizeof buf, "%.*f", decimals, value);
  return buf;
}

TEST(NumberText, WritesWhatTheMessagesShow) {
  EXPECT_EQ(format_number(2.5), "2.5");
  EXPECT_EQ(format_number(1e21), "1e+21");
  EXPECT_EQ(format_number(0.01), "0.01");
  EXPECT_EQ(format_number(-3), "-3");
  EXPECT_EQ(format_number(1e15), "1e+15");
  EXPECT_EQ(format_number(999999.5), "1e+06");
  EXPECT_EQ(format_number(123456.5), "123456");  // half to even, on the exact value
  EXPECT_EQ(format_number(0.0001), "0.0001");
  EXPECT_EQ(format_number(0.00001), "1e-05");
  EXPECT_EQ(format_fixed(85.89934592, 1), "85.9");
  EXPECT_EQ(format_fixed(0.05, 1), "0.1");  // 0.05 is a little above 0.05 in binary
  EXPECT_EQ(format_fixed(0.25, 1), "0.2");  // an exact tie: to even
}

TEST(NumberText, EqualsPrintfOnEdgesAndRandomDoubles) {
  const double edges[] = {0,
                          -0.0,
                          5e-324,
                          2.2250738585072014e-308,
                          1.7976931348623157e308,
                          1e-320,
                          9999995,
                          99999.95,
                          1234565e10,
                          12345650000000000.0,
                          0.1,
                          1.0 / 3,
                          std::numeric_limits<double>::infinity(),
                          -std::numeric_limits<double>::infinity(),
                          std::numeric_limits<double>::quiet_NaN()};
  for (double v : edges) {
    EXPECT_EQ(format_number(v), printf_number(v)) << v;
    for (int decimals : {0, 1, 20})
      EXPECT_EQ(format_fixed(v, decimals), printf_fixed(v, decimals)) << v << " " << decimals;
  }
  std::mt19937_64 rng(12);
  for (int i = 0; i < 40000; ++i) {
    std::uint64_t bits = rng();
    double v;
    std::memcpy(&v, &bits, sizeof v);  // any double: every exponent, subnormals, NaN
    ASSERT_EQ(format_number(v), printf_number(v)) << v;
    const double nearer = std::ldexp(double(rng() >> 11), int(rng() % 100) - 80);  // magnitudes messages show
    ASSERT_EQ(format_number(nearer), printf_number(nearer)) << nearer;
    const double rounded = std::round(nearer * 1e6) / 1e6 + 5e-7;  // near ties of the sixth digit
    ASSERT_EQ(format_number(rounded), printf_number(rounded)) << rounded;
    const int decimals = int(rng() % 5);
    ASSERT_EQ(format_fixed(nearer, decimals), printf_fixed(nearer, decimals)) << nearer << " " << decimals;
    const int many = int(rng() % 21);  // any double, up to the 20 decimals format_fixed allows
    ASSERT_EQ(format_fixed(v, many), printf_fixed(v, many)) << v << " " << many;
  }
}

}  // namespace
}  // namespace parascope::detail
