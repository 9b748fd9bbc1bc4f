// ZB-H2's steady-cycle shortcut against simulating every op, bit for bit; and the exact clock it rests on.
//
// zb_h2_metrics against simulate_zb_h2 over seeded random stages, microbatches and times; SumClock's comparisons of
// sums, which a common shift cannot change.
#include <gtest/gtest.h>

#include <random>
#include <string>

#include "../../engine/src/pipeline_detail.hpp"
#include "../../engine/src/pipeline_sum_time.hpp"
#include "parascope/pipeline.hpp"
#include "pipeline_identical.hpp"

namespace {

using parascope::PipelineMetrics;
using parascope::PipelineSpec;
using parascope::PipelineTimes;
using parascope::Schedule;
using parascope::detail::SumClock;
using parascope::detail::SumTime;

std::string name(const PipelineSpec& s) { return parascope::testing::spec_name(s); }

using parascope::testing::expect_identical;

/// Op times that hit the edges: equal ones, uneven ones, w from zero through tiny to far longer than f and b, sends
/// from none to longer than an op, short binary fractions (every sum exact) and arbitrary reals.
PipelineTimes draw_times(std::mt19937& rng) {
  auto real = [&](double lo, double hi) { return std::uniform_real_distribution<double>(lo, hi)(rng); };
  auto pick = [&](int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng); };
  PipelineTimes t;
  t.f = pick(0, 3) == 0 ? pick(1, 64) / 16.0 : real(0.01, 3);
  const int b_kind = pick(0, 3);
  t.b = b_kind == 0 ? t.f : b_kind == 1 ? 2 * t.f : b_kind == 2 ? real(0.01, 3) : t.f * real(0.9, 3.1);
  const double ws[] = {0, 1e-9, 1e-6 * t.f, 0.01 * t.b, t.f, t.b, real(0, 2), 30 * t.f, 100 * t.b};
  t.w = ws[pick(0, 8)];
  const double sends[] = {0, 0, 1e-6, 0.001 * t.f, real(0, 0.3), real(0.5, 4), t.f};
  t.comm = sends[pick(0, 6)];
  return t;
}

/// Stages and microbatches across the cases the shortcut must get right: fewer microbatches than stages, as many,
/// one more or less, not a multiple of anything, just past the warm-up, and long runs it skips most of.
void draw_shape(std::mt19937& rng, PipelineSpec& spec) {
  auto pick = [&](int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng); };
  const int p = pick(0, 7) == 0 ? pick(17, 48) : pick(1, 16);
  const int kinds[] = {
      pick(1, p), p, p + 1, std::max(1, p - 1), 2 * p - 1, 2 * p, pick(1, 8 * p + 9), pick(6 * p, 40 * p + 7)};
  spec.stages = p;
  spec.microbatches = std::min(kinds[pick(0, 7)], 333333 / p);  // ≤ 10^6 ops
}

TEST(PipelineZbH2Repeat, EqualsSimulatingEveryOpBitForBitOverRandomSchedules) {
  std::mt19937 rng(20261203);
  int checked = 0, skipped_most = 0, fewer_than_stages = 0;
  for (int trial = 0; trial < 2500; ++trial) {
    PipelineSpec spec;
    spec.schedule = Schedule::zb_h2;
    spec.record_ops = false;
    draw_shape(rng, spec);
    spec.times = draw_times(rng);
    ASSERT_FALSE(parascope::pipeline_refusal(spec).has_value()) << name(spec);
    std::int64_t skipped = 0;
    const PipelineMetrics fast = parascope::detail::zb_h2_metrics(spec, &skipped);
    expect_identical(fast, parascope::detail::simulate_zb_h2(spec).metrics, name(spec));
    ++checked;
    if (skipped * 2 > parascope::pipeline_op_count(spec)) ++skipped_most;
    if (spec.microbatches < spec.stages) ++fewer_than_stages;
  }
  EXPECT_EQ(checked, 2500);
  // The shortcut is taken, not only the whole run timed (287 of the draw: the rest are short, or settle slowly, as
  // with sends longer than an op or a W of 10⁻⁹ whose drift delays the repeat, and are timed whole).
  EXPECT_GT(skipped_most, 250);
  EXPECT_GT(fewer_than_stages, 200);  // and runs that never reach a steady phase are in the draw
}

// The planner's shapes: deep pipelines, long runs, the cost model's ratios (b ≈ 2.8 f, w ≈ f/3, sends 0.5 % of f).
TEST(PipelineZbH2Repeat, LongRunsAtCostModelRatiosTimeFewOfTheirOps) {
  for (const int p : {8, 16, 32, 64}) {
    for (const int m : {6 * p + 1, 24 * p, 120 * p + 7}) {
      PipelineSpec spec;
      spec.schedule = Schedule::zb_h2;
      spec.stages = p;
      spec.microbatches = std::min(m, 333333 / p);
      spec.times = {0.1049, 0.2942, 0.0312, 0.000564};
      spec.record_ops = false;
      std::int64_t skipped = 0;
      const PipelineMetrics fast = parascope::detail::zb_h2_metrics(spec, &skipped);
      expect_identical(fast, parascope::detail::simulate_zb_h2(spec).metrics, name(spec));
      const std::int64_t timed = parascope::pipeline_op_count(spec) - skipped;
      EXPECT_LT(timed, 16 * std::int64_t(p) * p) << name(spec);  // the warm-up, settling and drain: ~12 p² ops
    }
  }
}

TEST(PipelineZbH2Repeat, PipelineMetricsTakesTheShortcutAndRunPipelineTimesEveryOp) {
  PipelineSpec spec;
  spec.schedule = Schedule::zb_h2;
  spec.stages = 4;
  spec.microbatches = 500;
  spec.times = {0.3, 0.7, 0.1, 0.05};
  spec.record_ops = true;
  const parascope::PipelineResult whole = parascope::run_pipeline(spec);
  ASSERT_EQ(whole.ops.size(), std::size_t(3 * 4 * 500));
  expect_identical(parascope::pipeline_metrics(spec), whole.metrics, name(spec));
}

SumTime sum(const SumClock& clock, int f, int b, int w, int c) {
  SumTime t;
  t.n = {f, b, w, c};
  t.value = clock.value_of(t.n);
  return t;
}

// What lets whole cycles be skipped: a comparison reads the difference of the counts, so adding one sum to both sides
// never changes it, however the values round; and it is the true order where the values are apart.
TEST(SumClock, ComparisonsAreUnchangedByAShiftAndFollowTheTrueOrder) {
  std::mt19937 rng(11);
  auto pick = [&](int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng); };
  for (int trial = 0; trial < 20000; ++trial) {
    const SumClock clock({0.1 + pick(0, 999) / 997.0, 0.3 / (1 + pick(0, 9)), pick(0, 3) == 0 ? 0.0 : 0.0317,
                          pick(0, 1) ? 0.0 : 1e-4 * pick(1, 50)});
    const SumTime a = sum(clock, pick(0, 5000), pick(0, 5000), pick(0, 5000), pick(0, 5000));
    const int near = pick(0, 1);  // b a few ops away from a (ties and near ties), or anywhere
    const SumTime b = near ? sum(clock, a.n[0] + pick(-2, 2), a.n[1] + pick(-2, 2), a.n[2] + pick(-2, 2), a.n[3])
                           : sum(clock, pick(0, 5000), pick(0, 5000), pick(0, 5000), pick(0, 5000));
    const int order = clock.compare(a, b);
    ASSERT_EQ(clock.compare(b, a), -order);
    const int k = pick(1, 400000);
    const SumTime a2 = sum(clock, a.n[0] + 3 * k, a.n[1] + 2 * k, a.n[2] + k, a.n[3] + k);
    const SumTime b2 = sum(clock, b.n[0] + 3 * k, b.n[1] + 2 * k, b.n[2] + k, b.n[3] + k);
    ASSERT_EQ(clock.compare(a2, b2), order) << trial;
    const long double exact = static_cast<long double>(a.value) - static_cast<long double>(b.value);
    if (std::abs(double(exact)) > 1e-6 * (a.value + b.value)) ASSERT_EQ(order, exact < 0 ? -1 : 1) << trial;
  }
}

}  // namespace
