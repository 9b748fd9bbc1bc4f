// pipeline_metrics' fast paths (1F1B's and GPipe's closed forms, the steady-phase shortcut) against simulating every
// op: bit for bit where every sum is exact, within rounding elsewhere, over seeded random schedules, sizes and times.
#include <gtest/gtest.h>

#include <random>
#include <string>

#include "../../engine/src/pipeline_detail.hpp"
#include "parascope/pipeline.hpp"
#include "pipeline_identical.hpp"
#include "pipeline_random_spec.hpp"

namespace {

using parascope::PipelineMetrics;
using parascope::PipelineSpec;
using parascope::Schedule;

std::string name(const PipelineSpec& s) { return parascope::testing::spec_name(s); }

using parascope::testing::expect_identical;

/// The same within the rounding of sums of up to ~10^5 durations taken in different orders.
void expect_close(const PipelineMetrics& fast, const PipelineMetrics& full, const std::string& what) {
  ASSERT_NEAR(fast.makespan, full.makespan, 1e-10 * full.makespan) << what;
  ASSERT_EQ(fast.busy.size(), full.busy.size()) << what;
  for (std::size_t s = 0; s < full.busy.size(); ++s) ASSERT_NEAR(fast.busy[s], full.busy[s], 1e-10 * full.busy[s]);
  ASSERT_NEAR(fast.bubble_fraction, full.bubble_fraction, 1e-9) << what;
  ASSERT_NEAR(fast.steady_bubble_fraction, full.steady_bubble_fraction, 1e-9) << what;
  ASSERT_EQ(fast.peak_activations, full.peak_activations) << what;
  ASSERT_EQ(fast.critical_sends, full.critical_sends) << what;
  ASSERT_EQ(fast.chunk_model_fraction, full.chunk_model_fraction) << what;
}

struct Drawn {
  PipelineSpec spec;
  bool exact;  ///< times are short binary fractions: every sum of them in any order is exact
};

/// A random valid spec: any schedule, p up to 64, m up to 512, v up to 4, times with or without sends. Half of them
/// draw times as multiples of 1/16 up to 8 (with ≤ 10^6 ops every sum needs < 40 bits: exact in any order).
Drawn draw(std::mt19937& rng, int trial) {
  auto pick = [&](int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng); };
  auto real = [&](double lo, double hi) { return std::uniform_real_distribution<double>(lo, hi)(rng); };
  const Schedule all[] = {Schedule::gpipe, Schedule::one_f_one_b, Schedule::interleaved,
                          Schedule::zb_h1, Schedule::zb_h2,       Schedule::dualpipe};
  Drawn d{};
  PipelineSpec& spec = d.spec;
  spec.schedule = all[pick(0, 5)];
  const int size = pick(0, 9);  // mostly small (the full simulation is the slow side), now and then deep and long
  spec.stages = size == 0 ? pick(17, 64) : pick(1, 16);
  spec.microbatches = size <= 1 ? pick(1, 512) : pick(1, 3 * spec.stages + 4);
  spec.chunks = spec.schedule == Schedule::interleaved ? pick(1, 4) : 1;
  parascope::testing::make_schedule_valid(spec);
  const bool split = parascope::schedule_info(spec.schedule).splits_backward;
  d.exact = trial % 2 == 0;
  const bool sends = pick(0, 3) != 0;
  if (d.exact) {
    auto sixteenths = [&](int lo, int hi) { return pick(lo, hi) / 16.0; };
    spec.times.f = sixteenths(1, 128);
    spec.times.b = sixteenths(1, 128);
    spec.times.w = split ? sixteenths(0, 128) : 0;
    spec.times.comm = sends ? sixteenths(1, pick(0, 1) ? 8 : 64) : 0;
  } else {
    spec.times.f = real(0.05, 3);
    spec.times.b = pick(0, 1) ? 2 * spec.times.f * real(0.9, 1.1) : real(0.05, 3);
    spec.times.w = split ? real(0, 2) : 0;
    spec.times.comm = sends ? (pick(0, 1) ? real(0.001, 0.2) : real(0.2, 4)) : 0;
  }
  spec.record_ops = false;
  return d;
}

TEST(PipelineFastPath, EqualsTheFullSimulationOverRandomSchedules) {
  std::mt19937 rng(20261201);
  int exact = 0, deep = 0;
  for (int trial = 0; trial < 1500; ++trial) {
    const Drawn d = draw(rng, trial);
    const PipelineSpec& spec = d.spec;
    ASSERT_FALSE(parascope::pipeline_refusal(spec).has_value()) << name(spec);
    const PipelineMetrics fast = parascope::pipeline_metrics(spec);
    PipelineSpec whole = spec;
    whole.record_ops = false;
    const PipelineMetrics full = parascope::run_pipeline(whole).metrics;
    if (d.exact) {
      expect_identical(fast, full, name(spec));
      ++exact;
    } else if (spec.times.comm > 0) {
      expect_close(fast, full, name(spec));
    } else {
      // Without sends many chains into the makespan have the same length in exact arithmetic (they differ only in
      // which stage they cross at), and which of them the rounding of each path's sum makes longest decides the sends
      // counted, on any path: the 1F1B closed form counts the fewest (exact arithmetic and the tie rule), the steady
      // shortcut and the simulation whatever their rounding picks. Sends × send time is 0 then, which is all the cost
      // model reads. The times themselves must agree.
      PipelineMetrics same_sends = fast;
      same_sends.critical_sends = full.critical_sends;
      expect_close(same_sends, full, name(spec));
    }
    if (spec.stages > 16) ++deep;
  }
  EXPECT_GT(exact, 700);
  EXPECT_GT(deep, 100);
}

// The closed form at the cost model's deep pipelines, against every op simulated, bit for bit (short binary fractions).
TEST(PipelineFastPath, OneFOneBClosedFormAtDeepPipelines) {
  for (const int p : {8, 16, 32, 64, 128}) {
    for (const int m : {1, p - 1, p, p + 1, 2 * p - 1, 512, 4 * p + 3}) {
      for (const double comm : {0.0, 0.0625, 0.5, 3.0}) {
        for (const Schedule s : {Schedule::one_f_one_b, Schedule::interleaved}) {
          PipelineSpec spec;
          spec.schedule = s;
          spec.stages = p;
          spec.microbatches = m;
          spec.times = {1.25, 2.5, 0, comm};
          spec.record_ops = false;
          if (s == Schedule::interleaved && m > p && m % p != 0) continue;
          expect_identical(parascope::pipeline_metrics(spec), parascope::run_pipeline(spec).metrics, name(spec));
        }
      }
    }
  }
}

// The closed form itself at every short shape too (pipeline_metrics times those op by op), bit for bit.
TEST(PipelineFastPath, OneFOneBClosedFormAtEveryShortShape) {
  std::mt19937 rng(7);
  auto sixteenths = [&](int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng) / 16.0; };
  for (int p = 1; p <= 12; ++p) {
    for (int m = 1; m <= 3 * p + 9; ++m) {
      PipelineSpec spec;
      spec.stages = p;
      spec.microbatches = m;
      spec.times = {sixteenths(1, 64), sixteenths(1, 64), 0, m % 3 == 0 ? 0 : sixteenths(1, 64)};
      spec.record_ops = false;
      expect_identical(parascope::detail::one_f_one_b_metrics(spec), parascope::run_pipeline(spec).metrics, name(spec));
    }
  }
}

TEST(PipelineFastPath, OneFOneBCriticalSends) {
  // Without sends: down and back once. With them: 2(p − 1) + 2 per later microbatch but one in every p.
  EXPECT_EQ(parascope::detail::one_f_one_b_critical_sends(4, 13, 0.0), 6);
  EXPECT_EQ(parascope::detail::one_f_one_b_critical_sends(4, 1, 0.1), 6);
  EXPECT_EQ(parascope::detail::one_f_one_b_critical_sends(4, 2, 0.1), 6);
  EXPECT_EQ(parascope::detail::one_f_one_b_critical_sends(4, 5, 0.1), 12);
  EXPECT_EQ(parascope::detail::one_f_one_b_critical_sends(4, 6, 0.1), 12);
  EXPECT_EQ(parascope::detail::one_f_one_b_critical_sends(4, 13, 0.1), 24);
  EXPECT_EQ(parascope::detail::one_f_one_b_critical_sends(1, 100, 0.1), 0);
}

}  // namespace
