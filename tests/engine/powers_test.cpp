// The engine's own powers (engine/src/powers.hpp) against std::pow: within a few units in the last place.
#include "../../engine/src/powers.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <random>

namespace {

using parascope::detail::inverse_power;
using parascope::detail::whole_power;

double relative_error(double got, double want) { return std::fabs(got - want) / std::fabs(want); }

TEST(Powers, WholePowerMatchesPow) {
  EXPECT_EQ(whole_power(0.75, 0), 1.0);
  EXPECT_EQ(whole_power(2.0, 10), 1024.0);
  EXPECT_EQ(whole_power(-3.0, 3), -27.0);
  // Each squaring's rounding is raised to the rest of the power: the error grows as k·2^-53 at worst.
  double worst = 0;  // relative error over k
  for (double nodes : {2.0, 3.0, 4.0, 7.0, 8.0, 16.0, 32.0, 100.0, 1024.0}) {
    for (std::int64_t k = 1; k <= 4096; k += (k < 64 ? 1 : 37)) {
      const double base = 1.0 - 1.0 / nodes;
      worst = std::max(worst, relative_error(whole_power(base, k), std::pow(base, double(k))) / double(k));
    }
  }
  EXPECT_LT(worst, 1.2e-16);
}

TEST(Powers, InversePowerMatchesPow) {
  EXPECT_EQ(inverse_power(1.0, 3.5), 1.0);
  EXPECT_DOUBLE_EQ(inverse_power(2.0, 1.0), 0.5);
  EXPECT_DOUBLE_EQ(inverse_power(10.0, 2.0), 0.01);
  double worst = 0;
  for (double skew : {1e-6, 0.01, 0.1, 0.5, 1.0, 1.2, 2.0, 3.7, 10.0}) {
    for (double rank = 1; rank <= 1 << 20; rank = rank < 300 ? rank + 1 : std::floor(rank * 1.37)) {
      worst = std::max(worst, relative_error(inverse_power(rank, skew), std::pow(rank, -skew)));
    }
  }
  std::mt19937_64 rng(7);
  std::uniform_real_distribution<double> skews(0.0, 10.0);
  std::uniform_int_distribution<int> ranks(1, 1 << 22);
  for (int i = 0; i < 100000; ++i) {
    const double rank = ranks(rng), skew = skews(rng);
    worst = std::max(worst, relative_error(inverse_power(rank, skew), std::pow(rank, -skew)));
  }
  // The exponent y = −skew·log2(rank) reaches −220: its own rounding (a few 1e-14 absolute) is the error's floor.
  EXPECT_LT(worst, 2e-13);
}

}  // namespace
