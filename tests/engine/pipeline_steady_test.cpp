// The steady-phase shortcut of pipeline_metrics() against the full simulation: same makespan, busy time, bubbles,
// activations and critical sends over thousands of schedules, and it really does skip cycles on long ones.
#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <string>
#include <vector>

#include "../../engine/src/pipeline_compiled.hpp"
#include "../../engine/src/pipeline_detail.hpp"
#include "parascope/pipeline.hpp"
#include "pipeline_random_spec.hpp"

namespace {

using parascope::PipelineMetrics;
using parascope::PipelineSpec;
using parascope::PipelineTimes;
using parascope::Schedule;

struct Shape {
  Schedule schedule;
  int chunks;
};

const Shape kShapes[] = {{Schedule::one_f_one_b, 1}, {Schedule::interleaved, 2}, {Schedule::interleaved, 3},
                         {Schedule::interleaved, 4}, {Schedule::zb_h1, 1},       {Schedule::dualpipe, 1}};

// Ratios a cost model produces (b ≈ 2f, sends short) and ones it rarely does (sends longer than an op, odd ratios).
std::vector<PipelineTimes> times_for(Schedule s) {
  const bool split = s == Schedule::zb_h1 || s == Schedule::dualpipe;
  if (split) {
    return {{1, 1, 1, 0}, {1, 1, 1, 0.05}, {1, 1.3, 0.7, 0.2}, {0.37, 0.52, 0.29, 0.9}, {1, 1, 0.2, 3.1}};
  }
  return {{1, 2, 0, 0}, {1, 2, 0, 0.05}, {1, 2.2, 0, 0.31}, {0.37, 0.81, 0, 1.7}, {1, 1, 0, 4.3}};
}

bool allowed(const Shape& shape, int p, int m) {
  if (shape.schedule == Schedule::interleaved) return m <= p || m % p == 0;
  if (shape.schedule == Schedule::dualpipe) return p % 2 == 0 && m % 2 == 0 && m >= 2 * p;
  return true;
}

std::string name(const PipelineSpec& s) {
  return std::string(parascope::schedule_id(s.schedule)) + " p=" + std::to_string(s.stages) +
         " m=" + std::to_string(s.microbatches) + " v=" + std::to_string(s.chunks) + " f=" + std::to_string(s.times.f) +
         " b=" + std::to_string(s.times.b) + " w=" + std::to_string(s.times.w) +
         " comm=" + std::to_string(s.times.comm);
}

void expect_same(const PipelineMetrics& fast, const PipelineMetrics& full, const std::string& what) {
  ASSERT_NEAR(fast.makespan, full.makespan, 1e-9 * full.makespan) << what;
  ASSERT_EQ(fast.busy.size(), full.busy.size()) << what;
  for (std::size_t s = 0; s < full.busy.size(); ++s)
    ASSERT_NEAR(fast.busy[s], full.busy[s], 1e-9 * full.busy[s]) << what;
  ASSERT_NEAR(fast.bubble_fraction, full.bubble_fraction, 1e-9) << what;
  ASSERT_NEAR(fast.steady_bubble_fraction, full.steady_bubble_fraction, 1e-9) << what;
  ASSERT_EQ(fast.peak_activations, full.peak_activations) << what;
  ASSERT_EQ(fast.critical_sends, full.critical_sends) << what;
  ASSERT_DOUBLE_EQ(fast.chunk_model_fraction, full.chunk_model_fraction) << what;
}

TEST(PipelineSteady, EqualsTheFullSimulationOverManySchedules) {
  int checked = 0, skipped_cycles = 0;
  for (const Shape& shape : kShapes) {
    for (const int p : {1, 2, 3, 4, 6, 8, 16}) {
      for (const int m : {1, 2, 3, 5, 8, 12, 16, 24, 31, 32, 48, 64, 96, 128, 200, 256}) {
        if (!allowed(shape, p, m)) continue;
        for (const PipelineTimes& t : times_for(shape.schedule)) {
          PipelineSpec spec;
          spec.schedule = shape.schedule;
          spec.stages = p;
          spec.microbatches = m;
          spec.chunks = shape.chunks;
          spec.times = t;
          spec.record_ops = false;
          parascope::detail::SteadyPathInfo info;
          const auto fast = parascope::detail::steady_pipeline_metrics(spec, &info);
          if (!fast) continue;  // pipeline_metrics falls back to the full simulation then
          expect_same(*fast, parascope::run_pipeline(spec).metrics, name(spec));
          ++checked;
          if (info.added_cycles > 0) ++skipped_cycles;
        }
      }
    }
  }
  EXPECT_GT(checked, 2000);
  EXPECT_GT(skipped_cycles, 1000);  // the shortcut is really taken, not just the whole schedule timed
}

TEST(PipelineSteady, LongSchedulesSkipMostCyclesAtCostModelRatios) {
  struct Case {
    Schedule schedule;
    int p, m, v;
  } cases[] = {{Schedule::one_f_one_b, 8, 512, 1}, {Schedule::one_f_one_b, 64, 512, 1},
               {Schedule::interleaved, 8, 512, 4}, {Schedule::zb_h1, 16, 512, 1},
               {Schedule::dualpipe, 16, 512, 1},   {Schedule::one_f_one_b, 1, 4096, 1}};
  for (const Case& c : cases) {
    for (const double comm : {0.0, 0.02, 0.4}) {
      PipelineSpec spec;
      spec.schedule = c.schedule;
      spec.stages = c.p;
      spec.microbatches = c.m;
      spec.chunks = c.v;
      spec.times = parascope::default_times(c.schedule);
      spec.times.comm = comm;
      spec.record_ops = false;
      parascope::detail::SteadyPathInfo info;
      const auto fast = parascope::detail::steady_pipeline_metrics(spec, &info);
      ASSERT_TRUE(fast.has_value()) << name(spec);
      EXPECT_GT(info.added_cycles, 0) << name(spec);
      EXPECT_LT(info.timed_microbatches, c.m / 2) << name(spec);
      expect_same(*fast, parascope::run_pipeline(spec).metrics, name(spec));
    }
  }
}

TEST(PipelineSteady, SchedulesWithoutASteadyPhaseAreLeftToTheSimulation) {
  PipelineSpec spec;
  spec.stages = 4;
  spec.microbatches = 64;
  spec.record_ops = false;
  for (const Schedule s : {Schedule::gpipe, Schedule::zb_h2}) {
    spec.schedule = s;
    spec.times = parascope::default_times(s);
    EXPECT_FALSE(parascope::detail::steady_pipeline_metrics(spec).has_value());
  }
  spec.schedule = Schedule::one_f_one_b;
  spec.times = parascope::default_times(spec.schedule);
  spec.forward_only = true;
  EXPECT_FALSE(parascope::detail::steady_pipeline_metrics(spec).has_value());
}

// The planner prunes with two floors known before timing (pipeline_bound.cpp): the makespan floor must never exceed
// the simulated makespan, and the activation sets held must be the timeline's own (ZB-H2: never more than them).
// pipeline_metrics (GPipe's closed form, the steady path) equals the simulation. Seeded random schedules over every
// schedule, many p, m, v and time ratios, sends from none to longer than an op.
TEST(PipelineBound, FloorsNeverExceedTheSimulationOverRandomSchedules) {
  std::mt19937 rng(20261201);
  auto pick = [&](int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng); };
  auto real = [&](double lo, double hi) { return std::uniform_real_distribution<double>(lo, hi)(rng); };
  const Schedule all[] = {Schedule::gpipe, Schedule::one_f_one_b, Schedule::interleaved,
                          Schedule::zb_h1, Schedule::zb_h2,       Schedule::dualpipe};
  int checked = 0, tight = 0;
  for (int trial = 0; trial < 3000; ++trial) {
    PipelineSpec spec;
    spec.schedule = all[trial % 6];
    spec.stages = pick(1, trial % 5 == 0 ? 32 : 10);
    spec.microbatches = pick(1, trial % 7 == 0 ? 160 : 40);
    spec.chunks = spec.schedule == Schedule::interleaved ? pick(1, 5) : 1;
    parascope::testing::make_schedule_valid(spec);
    const bool split = parascope::schedule_info(spec.schedule).splits_backward;
    const int ratio = trial % 4;  // equal ops, cost-model-like, random, sends longer than an op
    spec.times.f = ratio == 0 ? 1 : real(0.2, 2);
    spec.times.b = ratio == 0 ? 1 : ratio == 1 ? 2 * spec.times.f * real(0.9, 1.1) : real(0.1, 3);
    spec.times.w = !split ? 0 : ratio == 0 ? 1 : real(0, 1.5);
    spec.times.comm = ratio == 0 ? 0 : ratio == 3 ? real(1, 4) : real(0, 0.2);
    spec.record_ops = false;
    ASSERT_FALSE(parascope::pipeline_refusal(spec).has_value()) << name(spec);
    const PipelineMetrics full = parascope::run_pipeline(spec).metrics;
    expect_same(parascope::pipeline_metrics(spec), full, name(spec));  // GPipe's closed form, the steady path
    const double floor = parascope::detail::makespan_floor(spec);
    ASSERT_LE(floor, full.makespan * (1 + 1e-12)) << name(spec);
    if (floor >= full.makespan * (1 - 1e-9)) ++tight;
    const std::vector<int> held = parascope::detail::peak_activations_floor(spec);
    ASSERT_EQ(held.size(), full.peak_activations.size()) << name(spec);
    for (std::size_t s = 0; s < held.size(); ++s) {
      if (spec.schedule == Schedule::zb_h2 && s > 0) {
        ASSERT_LE(held[s], full.peak_activations[s]) << name(spec) << " stage " << s;
      } else {
        ASSERT_EQ(held[s], full.peak_activations[s]) << name(spec) << " stage " << s;
      }
    }
    ++checked;
  }
  EXPECT_EQ(checked, 3000);
  EXPECT_GT(tight, 200);  // the floor is the makespan itself in many cases (e.g. 1F1B and GPipe without sends)
}

// DualPipe's activation floor is the closed form PP + 1 (DeepSeek-V3 report, Table 2) on every stage of every shape it
// accepts: the simulated timeline's own peaks, over every even p to 32 and m from 2p to 2p + 40.
TEST(PipelineBound, DualPipeHoldsPPlusOneActivationSetsOnEveryStage) {
  int checked = 0;
  for (int p = 2; p <= 32; p += 2) {
    for (int m = 2 * p; m <= 2 * p + 40; m += 2) {
      PipelineSpec spec;
      spec.schedule = Schedule::dualpipe;
      spec.stages = p;
      spec.microbatches = m;
      spec.times = parascope::default_times(spec.schedule);
      spec.record_ops = false;
      const std::vector<int> simulated = parascope::run_pipeline(spec).metrics.peak_activations;
      ASSERT_EQ(simulated, std::vector<int>(std::size_t(p), p + 1)) << name(spec);
      ASSERT_EQ(parascope::detail::peak_activations_floor(spec), simulated) << name(spec);
      ++checked;
    }
  }
  EXPECT_EQ(checked, 16 * 21);
}

}  // namespace
