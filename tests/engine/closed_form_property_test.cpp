// Closed forms that never lie: over seeded random pipelines of every schedule, with random op and send times, a
// closed form's value, when quoted, equals the simulated metric it names; when not quoted its condition is stated.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <nlohmann/json.hpp>
#include <random>
#include <string>

#include "pipeline_request.hpp"

namespace {

using nlohmann::json;

const char* const kSchedules[] = {"gpipe", "1f1b", "interleaved", "zb-h1", "zb-h2", "dualpipe"};

/// A time drawn to hit the conditions' edges: equal to another time, zero, tiny, or anything in between.
double draw_time(std::mt19937& rng, double other) {
  const double picks[] = {1e-6, 1e-3, 0.25, 0.5, 1, 2, 3, 10};
  switch (std::uniform_int_distribution<int>(0, 4)(rng)) {
    case 0:
    case 1:
      return other;
    case 2:
      return picks[std::uniform_int_distribution<int>(0, 7)(rng)];
    default:
      return std::uniform_real_distribution<double>(0.01, 5)(rng);
  }
}

/// A random request the schedule accepts (or one it refuses, which the test skips).
json random_request(std::mt19937& rng, const std::string& schedule) {
  auto pick = [&](int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng); };
  int p = pick(1, 12), m = pick(1, 48), v = 1;
  const bool split = schedule == "zb-h1" || schedule == "zb-h2" || schedule == "dualpipe";
  if (schedule == "interleaved") {
    v = pick(1, 4);
    if (m > p) m -= m % p;
  }
  if (schedule == "dualpipe") {
    p += p % 2;
    m = std::max(m + m % 2, 2 * p);
  }
  const double f = draw_time(rng, 1);
  const double b = draw_time(rng, f);
  json times = {{"f", f}, {"b", b}};
  if (split) times["w"] = pick(0, 4) == 0 ? 0.0 : draw_time(rng, b);
  if (pick(0, 4) == 0) times["comm"] = draw_time(rng, f);
  const bool forward = (schedule == "gpipe" || schedule == "interleaved") && pick(0, 5) == 0;
  return {{"schedule", schedule},    {"stages", p},         {"microbatches", m}, {"chunks", v}, {"times", times},
          {"forward_only", forward}, {"include_ops", false}};
}

TEST(ClosedFormProperty, AQuotedValueEqualsTheSimulatedMeasureForEverySchedule) {
  std::mt19937 rng(26);
  std::map<std::string, int> quoted, unquoted;
  for (int i = 0; i < 6000; ++i) {
    const std::string schedule = kSchedules[i % 6];
    const json request = random_request(rng, schedule);
    const json r = parascope::testing::ask_pipeline(request);
    if (r.contains("error")) continue;
    const json& cf = r["closed_form"];
    EXPECT_FALSE(cf["condition"].get<std::string>().empty()) << request.dump();
    if (cf["value"].is_null()) {
      ++unquoted[schedule];
      EXPECT_EQ(cf["substituted"], "") << "numbers worked outside the condition: " << request.dump();
      continue;
    }
    ++quoted[schedule];
    const double simulated = r[cf["measure"].get<std::string>()].get<double>();
    const double value = cf["value"].get<double>();
    EXPECT_NEAR(value, simulated, 1e-9 * std::max(1.0, std::fabs(simulated)))
        << request.dump() << "\nclosed form: " << cf.dump();
  }
  for (const char* schedule : kSchedules) {
    EXPECT_GT(quoted[schedule], 50) << schedule << " (" << quoted[schedule] << " quoted, " << unquoted[schedule]
                                    << " not)"
                                    << ": too few quoted to test the form";
    EXPECT_GT(unquoted[schedule], 50) << schedule << ": the condition never fails in the draw";
  }
}

TEST(ClosedFormProperty, TheIssuesCounterexamplesAreNotQuoted) {
  // Issue 26: dualpipe 8 × 64 at f = b = 3, w = 10 quoted −3/1021 against 0.0173 simulated; zb-h1 4 × 8 at f = 1,
  // b = 10^−6, w = 1 quoted 1.9·10^−7 against 0.158.
  for (const json& request : {json{{"schedule", "dualpipe"},
                                   {"stages", 8},
                                   {"microbatches", 64},
                                   {"times", {{"f", 3}, {"b", 3}, {"w", 10}}},
                                   {"include_ops", false}},
                              json{{"schedule", "zb-h1"},
                                   {"stages", 4},
                                   {"microbatches", 8},
                                   {"times", {{"f", 1}, {"b", 1e-6}, {"w", 1}}},
                                   {"include_ops", false}}}) {
    const json r = parascope::testing::ask_pipeline(request);
    EXPECT_TRUE(r["closed_form"]["value"].is_null()) << r["closed_form"].dump();
  }
}

}  // namespace
