/// ZB-H2's clock: every time as the counts of forwards, backwards, weight passes and sends it adds up, beside its
/// value.
#pragma once

#include <array>
#include <cmath>
#include <cstdint>

#include "parascope/pipeline.hpp"

namespace parascope::detail {

/// A time the greedy simulator forms: 0, an op's end (its start plus one duration) or an input's arrival (an end plus
/// one send), so always a sum of whole op durations and sends, Σ nᵢ·dᵢ. `value` is that sum as it was added up, one
/// term at a time: within γ₂ₖ·Σ nᵢdᵢ of it for k ≤ 10⁶ terms (Higham 2002, Accuracy and Stability of Numerical
/// Algorithms, Sec. 4.2, eq. 4.4: recursive summation of nonnegative terms; γₙ = nu/(1 − nu), u = 2⁻⁵³), so
/// within 2.3·10⁻¹⁰ of it relatively. SumClock::value_of(n) is the one value reported.
struct SumTime {
  std::array<std::int32_t, 4> n{};  ///< how many f, b, w and comm the sum holds (SumClock merges equal ones)
  double value = 0;
};

/// Values and comparisons of SumTimes for one spec's durations. A comparison is a function of the difference of the
/// counts alone, so two pairs of times that differ by the same sum compare alike (rounding never breaks that), which
/// makes a run shifted by whole cycles decide exactly as the cycles before it; and it is the times' true order
/// wherever that is not within rounding of a tie.
class SumClock {
 public:
  /// Equal durations share one count (the first of them) and a zero duration is not counted: the same sum then has
  /// one set of counts however it was formed (with f = b = w, "F then B" and "B then F" are the same two counts), so a
  /// run whose times repeat has counts that repeat too.
  explicit SumClock(const PipelineTimes& t) : d_{t.f, t.b, t.w, t.comm} {
    for (int i = 0; i < 4; ++i) {
      slot_[i] = d_[i] == 0 ? -1 : i;
      for (int j = 0; j < i && slot_[i] == i; ++j) slot_[i] = d_[j] == d_[i] ? j : i;
    }
  }

  /// Σ nᵢ·dᵢ, always summed in this one order: a function of the counts alone.
  double value_of(const std::array<std::int32_t, 4>& n) const {
    return ((double(n[0]) * d_[0] + double(n[1]) * d_[1]) + double(n[2]) * d_[2]) + double(n[3]) * d_[3];
  }
  /// `t` plus one duration (0 f, 1 b, 2 w) or one send (3). Every count gets 0 or 1 added (no count when the slot is
  /// −1): the same sum as incrementing the one count, formed without a 4-byte store that the next 16-byte read of the
  /// counts would wait for (a store-forwarding stall on the simulator's critical path).
  SumTime plus(SumTime t, int what) const {
    const int slot = slot_[what];
    for (int i = 0; i < 4; ++i) t.n[std::size_t(i)] += i == slot ? 1 : 0;
    t.value += d_[what];
    return t;
  }
  /// −1, 0 or 1 as a is before, with or after b: the sign of value_of(a.n − b.n). Where the values are far apart
  /// their order is that sign, read without the sum: each value is within 2.3·10⁻¹⁰ of its exact sum (SumTime) and
  /// value_of of the difference within γ₄·(Σ aᵢdᵢ + Σ bᵢdᵢ) of the exact difference (Higham 2002, Sec. 3.1, eq. 3.5,
  /// a dot product of 4 terms), so a gap over 10⁻⁹ of a.value + b.value is the exact sums' order and the difference's
  /// computed sign alike.
  int compare(const SumTime& a, const SumTime& b) const {
    if (const int quick = quick_order(a.value, b.value)) return quick;
    const double diff = value_of({a.n[0] - b.n[0], a.n[1] - b.n[1], a.n[2] - b.n[2], a.n[3] - b.n[3]});
    return diff < 0 ? -1 : diff > 0 ? 1 : 0;
  }
  /// compare's answer from two values alone where they are far apart (−1 or 1), else 0: the counts decide.
  static int quick_order(double a, double b) {
    const double gap = a - b;
    return std::abs(gap) > 1e-9 * (a + b) ? (gap < 0 ? -1 : 1) : 0;
  }
  /// The later of two times (the first on a tie).
  const SumTime& later(const SumTime& a, const SumTime& b) const { return compare(b, a) > 0 ? b : a; }

 private:
  double d_[4];
  int slot_[4];  ///< which count a duration adds to (−1: none, it is zero)
};

}  // namespace parascope::detail
