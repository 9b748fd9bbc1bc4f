// The planner's question asked of published sweeps: where a source measured several configurations of one model on
// one cluster, how much slower is the one the engine predicts fastest than the one that measured fastest?
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <string>
#include <vector>

#include "parascope/api.hpp"
#include "published_runs.hpp"

namespace {

using json = nlohmann::json;
using parascope::test::PublishedRun;

/// One run of a sweep: the engine's MFU for it and its measured MFU (the engine's FLOPs over the measured time).
struct Point {
  const PublishedRun* run;
  double predicted = 0, measured = 0;
};

Point point(const PublishedRun& run) {
  const json r = json::parse(parascope::call(run.request.dump()));
  EXPECT_FALSE(r.contains("error")) << run.label << ": " << r.dump();
  if (r.contains("error")) return {&run};
  const double gpus = run.request["cluster"]["gpus"];
  const double ratio = run.tokens_per_second > 0 ? run.tokens_per_second / (r["tokens_per_second"].get<double>() / gpus)
                                                 : r["step_time"].get<double>() / run.step_time;
  return {&run, r["mfu"], r["mfu"].get<double>() * ratio};
}

/// Runs of one publication on the same model, hardware, GPU count and software: the configurations it compared.
std::map<std::string, std::vector<Point>> sweeps() {
  static const std::vector<PublishedRun> runs = parascope::test::published_runs();
  std::map<std::string, std::vector<Point>> out;
  for (const PublishedRun& run : runs) {
    if (run.tokens_per_second <= 0 && run.step_time <= 0) continue;
    const json& q = run.request;
    const std::string key = run.source + " | " + q["model"].dump() + " | " + q["hardware"].dump() + " | " +
                            q["cluster"]["gpus"].dump() + " | " + run.software;
    out[key].push_back(point(run));
  }
  return out;
}

/// Sweeps whose pick is more than 12 % slower than their measured best, by the measured best's label: all BLOOM's
/// chronicle (02-26 to 02-28), where Megatron-DeepSpeed measured faster at larger microbatches and at TP 4 than the
/// engine predicts. Listed rather than hidden under a looser bar: a sweep that leaves or joins the list fails the test.
const std::set<std::string>& known_regrets() {
  static const std::set<std::string> regrets{
      // 02-28: MBS 2 picked, MBS 4 measured 13 % faster (120.96 s against 139.72 s).
      "h 12288, 100 layers, NHEADS 64, 384 A100 80GB, DP 8 TP 8 PP 6 MBS 4, GBS 2048",
      // 02-26: TP 8 / PP 6 picked, TP 4 / PP 12 measured 23 % faster (103.82 s against 129.61 s).
      "h 13312, 84 layers, NHEADS 64, 384 A100 80GB, DP 8 TP 4 PP 12 MBS 2, GBS 2048",
      // 02-26: MBS 1 picked, which measured 148.24 s against MBS 2's 103.51 s: 43 % more time for the same work.
      "h 13824, 78 layers, NHEADS 64, 384 A100 80GB, DP 8 TP 4 PP 12 MBS 2, GBS 2048",
  };
  return regrets;
}

// Issue 24: "the planner's pick checked against the measured best". Today 35 sweeps: the engine's pick is the
// measured best in 26; beyond the known regrets above its worst is 10.1 % (BLOOM's microbatch 2 picked ahead of 4).
TEST(PickRegret, TheFastestPredictedOfEachPublishedSweepIsNearItsMeasuredBest) {
  std::vector<double> regrets;
  std::set<std::string> beyond;
  for (const auto& [key, points] : sweeps()) {
    if (points.size() < 2) continue;
    const auto by = [](double Point::*field) {
      return [field](const Point& a, const Point& b) { return a.*field < b.*field; };
    };
    const Point& pick = *std::max_element(points.begin(), points.end(), by(&Point::predicted));
    const Point& best = *std::max_element(points.begin(), points.end(), by(&Point::measured));
    const double regret = 1 - pick.measured / best.measured;
    regrets.push_back(regret);
    if (regret > 0.12) beyond.insert(best.run->label);
    if (regret > 0) {
      std::printf("  %.1f %% slower than measured best: %s (picked %s)\n", 100 * regret, best.run->label.c_str(),
                  pick.run->label.c_str());
    }
  }
  ASSERT_GE(regrets.size(), 10u) << "the published runs hold at least ten sweeps";
  std::sort(regrets.begin(), regrets.end());
  const double median = regrets[regrets.size() / 2];
  std::printf("  %zu sweeps: median regret %.1f %%, worst %.1f %%; %zu beyond 12 %%\n", regrets.size(), 100 * median,
              100 * regrets.back(), beyond.size());
  EXPECT_LE(median, 0.02);
  EXPECT_EQ(beyond, known_regrets()) << "sweeps more than 12 % from their measured best changed: update the list";
}

}  // namespace
