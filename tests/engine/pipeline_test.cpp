// Pipeline schedules: every timeline is checked op by op (dependencies, one op at a time, each op once), then its
// measured bubble and activations are compared with the closed forms the papers give.
#include "parascope/pipeline.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <tuple>

#include "parascope/api.hpp"
#include "parascope/error.hpp"
#include "pipeline_request.hpp"

namespace {

using nlohmann::json;
using parascope::PipelineOp;
using parascope::PipelineResult;
using parascope::PipelineSpec;
using parascope::PipelineTimes;
using parascope::Schedule;

PipelineSpec spec_of(Schedule s, int p, int m, int v = 1, PipelineTimes t = {}, bool forward_only = false) {
  PipelineSpec spec;
  spec.schedule = s;
  spec.stages = p;
  spec.microbatches = m;
  spec.chunks = v;
  spec.times = t;
  spec.forward_only = forward_only;
  return spec;
}

const PipelineTimes kUniformSplit{1, 1, 1, 0};  // f = b = w

bool splits(Schedule s) { return s == Schedule::zb_h1 || s == Schedule::zb_h2 || s == Schedule::dualpipe; }

/// Which model part an op runs, written out independently of the engine: Megatron's interleaved layout puts part
/// c·p + s in chunk c of stage s; DualPipe's second half of the microbatches runs part k on stage p−1−k (chunk 1).
int part_of(const PipelineSpec& spec, const PipelineOp& op) {
  if (spec.schedule == Schedule::dualpipe) {
    const int direction = op.microbatch >= spec.microbatches / 2 ? 1 : 0;
    EXPECT_EQ(op.chunk, direction);
    return direction == 0 ? op.stage : spec.stages - 1 - op.stage;
  }
  return op.chunk * spec.stages + op.stage;
}

/// Checks the timeline from first principles. Returns the number of violations (each also reported).
int check_timeline(const PipelineSpec& spec, const PipelineResult& r) {
  const int p = spec.stages, m = spec.microbatches;
  const int parts = p * (spec.schedule == Schedule::interleaved ? spec.chunks : 1);
  const double eps = 1e-9, comm = spec.times.comm;
  int bad = 0;
  std::map<std::tuple<char, int, int>, const PipelineOp*> ops;  // (kind, microbatch, part)
  for (const PipelineOp& op : r.ops) {
    const auto key = std::make_tuple(op.kind, op.microbatch, part_of(spec, op));
    if (!ops.emplace(key, &op).second) {
      ADD_FAILURE() << "op " << op.kind << " mb " << op.microbatch << " appears twice";
      ++bad;
    }
    const double want = op.kind == 'F' ? spec.times.f : op.kind == 'B' ? spec.times.b : spec.times.w;
    if (std::abs(op.end - op.start - want) > eps) ++bad;
  }
  const int kinds = spec.forward_only ? 1 : splits(spec.schedule) ? 3 : 2;
  EXPECT_EQ(ops.size(), std::size_t(parts) * std::size_t(m) * std::size_t(kinds));
  auto find = [&](char kind, int mb, int part) -> const PipelineOp* {
    auto it = ops.find({kind, mb, part});
    return it == ops.end() ? nullptr : it->second;
  };
  // F of part k after F of part k−1; B of part k after B of part k+1, and after F of the last part; W after its B.
  for (const auto& [key, op] : ops) {
    const auto [kind, mb, part] = key;
    const PipelineOp* before = nullptr;
    if (kind == 'F' && part > 0) before = find('F', mb, part - 1);
    if (kind == 'B') before = part + 1 < parts ? find('B', mb, part + 1) : find('F', mb, part);
    if (kind == 'W') before = find('B', mb, part);
    const bool needs = (kind == 'F' && part > 0) || kind != 'F';
    if (needs && !before) {
      ADD_FAILURE() << kind << " mb " << mb << " part " << part << " has no predecessor";
      ++bad;
      continue;
    }
    if (before && op->start + eps < before->end + (before->stage != op->stage ? comm : 0)) {
      ADD_FAILURE() << kind << " mb " << mb << " part " << part << " starts at " << op->start << " before its input ("
                    << before->kind << " ends " << before->end << ")";
      ++bad;
    }
  }
  // The list comes per stage in execution order, stage 0 first.
  for (std::size_t i = 1; i < r.ops.size(); ++i) {
    const PipelineOp &a = r.ops[i - 1], &b = r.ops[i];
    if (b.stage < a.stage || (b.stage == a.stage && b.start + eps < a.end)) {
      ADD_FAILURE() << "op " << i << " is out of order";
      ++bad;
      break;
    }
  }
  // One op at a time per stage.
  std::vector<std::vector<const PipelineOp*>> by_stage(static_cast<std::size_t>(p));
  for (const PipelineOp& op : r.ops) by_stage[std::size_t(op.stage)].push_back(&op);
  for (auto& row : by_stage) {
    std::sort(row.begin(), row.end(),
              [](auto* a, auto* b) { return std::tie(a->start, a->end) < std::tie(b->start, b->end); });
    for (std::size_t i = 1; i < row.size(); ++i) {
      if (row[i]->start + eps < row[i - 1]->end) {
        ADD_FAILURE() << "stage " << row[i]->stage << " runs two ops at once at " << row[i]->start;
        ++bad;
      }
    }
  }
  return bad;
}

double idle_per_stage(const PipelineResult& r, int s) { return r.metrics.makespan - r.metrics.busy[std::size_t(s)]; }

TEST(Pipeline, EveryScheduleProducesAValidTimelineOverAGridOfSizesAndTimes) {
  const std::vector<PipelineTimes> whole = {{1, 2, 0, 0}, {1.5, 2.5, 0, 0.25}};
  const std::vector<PipelineTimes> split = {{1, 1, 1, 0}, {1, 1.5, 0.5, 0.25}, {2, 1, 0, 0}};
  int checked = 0;
  for (int p = 1; p <= 8; ++p) {
    for (int m = 1; m <= 20; ++m) {
      for (bool fwd : {false, true}) {
        for (const auto& t : whole) {
          for (Schedule s : {Schedule::gpipe, Schedule::one_f_one_b}) {
            if (fwd && s != Schedule::gpipe) continue;  // the forward half alone: gpipe and interleaved only
            const auto spec = spec_of(s, p, m, 1, t, fwd);
            EXPECT_EQ(check_timeline(spec, parascope::run_pipeline(spec)), 0) << "p " << p << " m " << m;
            ++checked;
          }
          for (int v = 1; v <= 4; ++v) {
            if (m > p && m % p != 0 && v > 1) continue;  // refused (see the error tests)
            const auto spec = spec_of(Schedule::interleaved, p, m, v, t, fwd);
            EXPECT_EQ(check_timeline(spec, parascope::run_pipeline(spec)), 0) << "p " << p << " m " << m << " v " << v;
            ++checked;
          }
        }
        for (const auto& t : split) {
          for (Schedule s : {Schedule::zb_h1, Schedule::zb_h2, Schedule::dualpipe}) {
            if (fwd) continue;  // refused: these schedules are drawn with their backward passes
            if (s == Schedule::dualpipe && (p % 2 || m % 2 || m < 2 * p)) continue;
            const auto spec = spec_of(s, p, m, 1, t, fwd);
            EXPECT_EQ(check_timeline(spec, parascope::run_pipeline(spec)), 0)
                << parascope::schedule_id(s) << " p " << p << " m " << m;
            ++checked;
          }
        }
      }
    }
  }
  EXPECT_GT(checked, 3000);
}

TEST(Pipeline, InterleavedRunsEveryAcceptedSizeTheWidgetCanAskFor) {
  // The widget reaches p ≤ 32, m ≤ 128, v ≤ 8; interleaved accepts m < p (one short group) and multiples of p.
  int checked = 0;
  for (int p : {3, 7, 16, 24, 32}) {
    for (int m = 1; m <= 128; ++m) {
      if (m > p && m % p != 0) continue;
      for (int v : {2, 5, 8}) {
        const auto spec = spec_of(Schedule::interleaved, p, m, v);
        const auto r = parascope::run_pipeline(spec);
        EXPECT_EQ(r.ops.size(), std::size_t(p) * std::size_t(m) * std::size_t(v) * 2);
        if (m % 5 == 1) EXPECT_EQ(check_timeline(spec, r), 0) << p << " " << m << " " << v;
        ++checked;
      }
    }
  }
  EXPECT_GT(checked, 300);
}

TEST(Pipeline, GpipeAnd1f1bBubbleIsPMinus1OverMPlusPMinus1) {
  // GPipe (Huang et al. 2019), Sec. 2.3; Narayanan et al. 2021 (Megatron-LM), Sec. 2.2.1: (p−1)/(m+p−1).
  for (Schedule s : {Schedule::gpipe, Schedule::one_f_one_b}) {
    for (auto [p, m] : {std::pair{2, 1}, {4, 8}, {8, 32}, {16, 16}, {5, 3}}) {
      for (PipelineTimes t : {PipelineTimes{1, 2, 0, 0}, PipelineTimes{1, 1, 0, 0}, PipelineTimes{3, 5, 0, 0}}) {
        const auto r = parascope::run_pipeline(spec_of(s, p, m, 1, t));
        EXPECT_NEAR(r.metrics.bubble_fraction, double(p - 1) / (m + p - 1), 1e-12) << p << " " << m;
        EXPECT_NEAR(r.metrics.makespan, (m + p - 1) * (t.f + t.b), 1e-9);
      }
    }
  }
}

TEST(Pipeline, TheForwardHalfAloneHasTheSameBubble) {
  // The article's picture: forwards only. Fill and drain still take (p−1) slots: (p−1)/(m+p−1).
  for (auto [p, m] : {std::pair{4, 4}, {8, 32}, {32, 128}}) {
    const auto r = parascope::run_pipeline(spec_of(Schedule::gpipe, p, m, 1, {1, 2, 0, 0}, true));
    EXPECT_NEAR(r.metrics.bubble_fraction, double(p - 1) / (m + p - 1), 1e-12);
    EXPECT_DOUBLE_EQ(r.metrics.makespan, m + p - 1);
  }
}

TEST(Pipeline, InterleavingDividesTheBubbleByTheNumberOfChunks) {
  // Narayanan et al. 2021, Sec. 2.2.2: bubble / ideal = (1/v)·(p−1)/m when m is a multiple of p.
  for (auto [p, m] : {std::pair{4, 8}, {8, 16}, {8, 64}, {4, 4}}) {
    for (int v : {2, 3, 4}) {
      for (PipelineTimes t : {PipelineTimes{1, 2, 0, 0}, PipelineTimes{1, 1, 0, 0}}) {
        const auto r = parascope::run_pipeline(spec_of(Schedule::interleaved, p, m, v, t));
        const double ideal = double(m) * v * (t.f + t.b);
        EXPECT_NEAR(r.metrics.makespan / ideal - 1, double(p - 1) / (v * m), 1e-12) << p << " " << m << " " << v;
        ASSERT_TRUE(r.closed_form.value.has_value());
        EXPECT_NEAR(r.metrics.bubble_fraction, *r.closed_form.value, 1e-12);
      }
    }
  }
}

TEST(Pipeline, ZbH1HasAThirdOf1f1bsBubbleAtEqualTimes) {
  // Qi et al. 2024, Sec. 2.1: ZB-H1 idles (p−1)(T_F+T_B−T_W) per stage where 1F1B idles (p−1)(T_F+T_B+T_W); at
  // f = b = w that is one third. 1F1B runs the whole backward as one op: its b is ZB's b + w.
  for (auto [p, m] : {std::pair{4, 8}, {8, 24}, {16, 64}}) {
    const auto zb = parascope::run_pipeline(spec_of(Schedule::zb_h1, p, m, 1, kUniformSplit));
    const auto base = parascope::run_pipeline(spec_of(Schedule::one_f_one_b, p, m, 1, {1, 2, 0, 0}));
    for (int s = 0; s < p; ++s) {
      EXPECT_NEAR(idle_per_stage(zb, s), (p - 1) * 1.0, 1e-9);
      EXPECT_NEAR(idle_per_stage(zb, s) / idle_per_stage(base, s), 1.0 / 3.0, 1e-9);
    }
  }
  // Unequal times: still (p−1)(f+b−w).
  const auto r = parascope::run_pipeline(spec_of(Schedule::zb_h1, 8, 32, 1, {1, 1.5, 0.5, 0}));
  EXPECT_NEAR(idle_per_stage(r, 0), 7 * (1 + 1.5 - 0.5), 1e-9);
}

TEST(Pipeline, ZbH2HasNoIdleTimeInsideAnyStagesSpanOnceMIsAtLeast2PMinus1) {
  // Qi et al. 2024, Sec. 2.2, Fig. 4: a parallelogram; the slanted ends are filled by the neighbouring iterations.
  for (int p : {2, 4, 8, 16}) {
    for (int m : {2 * p - 1, 2 * p, 4 * p}) {
      const auto r = parascope::run_pipeline(spec_of(Schedule::zb_h2, p, m, 1, kUniformSplit));
      EXPECT_NEAR(r.metrics.steady_bubble_fraction, 0, 1e-12) << p << " " << m;
      EXPECT_GT(r.metrics.bubble_fraction, 0);  // the synchronous measure still sees the slanted ends
      for (int peak : r.metrics.peak_activations) EXPECT_EQ(peak, 2 * p - 1);
    }
    const auto short_run = parascope::run_pipeline(spec_of(Schedule::zb_h2, p, 2 * p - 2, 1, kUniformSplit));
    EXPECT_GT(short_run.metrics.steady_bubble_fraction, 0) << "m = 2p−2 cannot fill stage 0's warm-up";
  }
}

TEST(Pipeline, DualPipeMatchesDeepSeekV3Table2) {
  // DeepSeek-V3 report, Sec. 3.2.1, Table 2: bubble (PP/2−1)(F&B + B − 3W) with B the whole backward; activations
  // PP+1 (in chunk units, a chunk being 1/p of the model, so the whole stage's share). F&B run back to back here.
  for (PipelineTimes t : {kUniformSplit, PipelineTimes{1, 1, 0.5, 0}, PipelineTimes{2, 2, 1, 0}}) {
    for (int p : {2, 4, 8, 16, 32}) {
      for (int m : {2 * p, 4 * p, 6 * p}) {
        const auto r = parascope::run_pipeline(spec_of(Schedule::dualpipe, p, m, 1, t));
        const double fb = t.f + t.b + t.w, whole_b = t.b + t.w;
        for (int s = 0; s < p; ++s) {
          EXPECT_NEAR(idle_per_stage(r, s), (p / 2 - 1) * (fb + whole_b - 3 * t.w), 1e-9) << p << " " << m;
          EXPECT_EQ(r.metrics.peak_activations[std::size_t(s)], p + 1);
        }
        ASSERT_TRUE(r.closed_form.value.has_value());
        EXPECT_NEAR(r.metrics.bubble_fraction, *r.closed_form.value, 1e-12);
      }
    }
  }
}

TEST(Pipeline, GpipeHoldsEveryMicrobatchAnd1f1bHoldsPMinusS) {
  for (auto [p, m] : {std::pair{4, 8}, {8, 3}, {8, 32}}) {
    const auto g = parascope::run_pipeline(spec_of(Schedule::gpipe, p, m));
    const auto o = parascope::run_pipeline(spec_of(Schedule::one_f_one_b, p, m));
    for (int s = 0; s < p; ++s) {
      EXPECT_EQ(g.metrics.peak_activations[std::size_t(s)], m);
      EXPECT_EQ(o.metrics.peak_activations[std::size_t(s)], std::min(p - s, m));  // Narayanan et al. 2021, Sec. 2.2.1
    }
  }
}

TEST(Pipeline, OneStageNeverIdles) {  // (DualPipe needs an even number of stages)
  for (Schedule s : {Schedule::gpipe, Schedule::one_f_one_b, Schedule::interleaved, Schedule::zb_h1, Schedule::zb_h2}) {
    PipelineSpec spec = spec_of(s, 1, 7, s == Schedule::interleaved ? 3 : 1, parascope::default_times(s));
    const auto r = parascope::run_pipeline(spec);
    EXPECT_DOUBLE_EQ(r.metrics.bubble_fraction, 0) << parascope::schedule_id(s);
    EXPECT_DOUBLE_EQ(r.metrics.steady_bubble_fraction, 0);
  }
}

TEST(Pipeline, MetricsWithoutTheOpListAreTheSame) {
  for (Schedule s : {Schedule::gpipe, Schedule::one_f_one_b, Schedule::interleaved, Schedule::zb_h1, Schedule::zb_h2,
                     Schedule::dualpipe}) {
    PipelineSpec spec = spec_of(s, 8, 32, s == Schedule::interleaved ? 2 : 1, parascope::default_times(s));
    spec.times.comm = 0.1;
    const auto with = parascope::run_pipeline(spec);
    spec.record_ops = false;
    const auto without = parascope::run_pipeline(spec);
    EXPECT_TRUE(without.ops.empty());
    EXPECT_EQ(with.metrics.makespan, without.metrics.makespan);
    EXPECT_EQ(with.metrics.busy, without.metrics.busy);
    EXPECT_EQ(with.metrics.peak_activations, without.metrics.peak_activations);
    EXPECT_EQ(with.metrics.steady_bubble_fraction, without.metrics.steady_bubble_fraction);
  }
}

TEST(Pipeline, ScheduleNamesRoundTrip) {
  for (const char* id : {"gpipe", "1f1b", "interleaved", "zb-h1", "zb-h2", "dualpipe"}) {
    auto s = parascope::parse_schedule(id);
    ASSERT_TRUE(s.has_value()) << id;
    EXPECT_EQ(parascope::schedule_id(*s), id);
  }
  EXPECT_FALSE(parascope::parse_schedule("pipedream").has_value());
}

// ---- the JSON API --------------------------------------------------------------------------------------------------

using parascope::testing::ask_pipeline;
const auto& ask = ask_pipeline;
const auto& error_of = parascope::testing::pipeline_error_of;

TEST(PipelineApi, AnswersOpsAndMetricsWithTheDocumentedNames) {
  json r = ask({{"schedule", "1f1b"}, {"stages", 2}, {"microbatches", 2}});
  ASSERT_FALSE(r.contains("error")) << r.dump();
  ASSERT_EQ(r["ops"].size(), 8u);
  for (const char* key : {"stage", "microbatch", "kind", "chunk", "start", "end"})
    EXPECT_TRUE(r["ops"][0].contains(key));
  for (const char* key : {"makespan", "busy", "bubble_fraction", "steady_bubble_fraction", "peak_activations",
                          "closed_form", "efficiency", "dashboard_utilization"}) {
    EXPECT_TRUE(r.contains(key)) << key;
  }
  EXPECT_EQ(r["closed_form"]["measure"], "bubble_fraction");
  EXPECT_EQ(r["times"], json({{"f", 1.0}, {"b", 2.0}, {"w", 0.0}, {"comm", 0.0}}));
  json zb = ask({{"schedule", "zb-h1"}, {"stages", 2}, {"microbatches", 2}});
  EXPECT_EQ(zb["times"], json({{"f", 1.0}, {"b", 1.0}, {"w", 1.0}, {"comm", 0.0}}));
}

/// "1,,2.5" -> {1, NaN, 2.5}: an empty entry (a start that follows on from the previous op) reads as NaN.
std::vector<double> split_numbers(const std::string& text, std::size_t count) {
  std::vector<double> out;
  std::size_t at = 0;
  while (out.size() < count) {
    std::size_t comma = text.find(',', at);
    if (comma == std::string::npos) comma = text.size();
    out.push_back(comma == at ? std::nan("") : std::stod(text.substr(at, comma - at)));
    at = comma + 1;
  }
  return out;
}

TEST(PipelineApi, PackedOpsAreTheSameOpsAsObjects) {
  for (json base :
       {json{{"schedule", "interleaved"}, {"stages", 4}, {"microbatches", 8}, {"chunks", 2}},
        json{{"schedule", "dualpipe"}, {"stages", 4}, {"microbatches", 8}, {"times", {{"f", 1.5}, {"comm", 0.1}}}}}) {
    json objects = ask(base);
    base["ops_format"] = "packed";
    json packed = ask(base);
    const json& c = packed["ops"];
    const std::string kind = c["kind"];
    const std::size_t n = kind.size();
    const auto microbatch = split_numbers(c["microbatch"], n), chunk = split_numbers(c["chunk"], n);
    auto start = split_numbers(c["start"], n);
    ASSERT_EQ(kind.size(), objects["ops"].size());
    ASSERT_EQ(start.size(), kind.size());
    std::vector<int> stage_of_op;
    for (std::size_t s = 0; s < c["per_stage"].size(); ++s) {
      stage_of_op.insert(stage_of_op.end(), c["per_stage"][s].get<std::size_t>(), int(s));
    }
    ASSERT_EQ(stage_of_op.size(), kind.size());
    const json& t = packed["times"];
    double previous_end = 0;
    for (std::size_t i = 0; i < kind.size(); ++i) {
      const json& o = objects["ops"][i];
      if (i == 0 || stage_of_op[i] != stage_of_op[i - 1]) previous_end = 0;
      if (std::isnan(start[i])) start[i] = previous_end;  // empty: right after the stage's previous op
      EXPECT_EQ(stage_of_op[i], o["stage"]);
      EXPECT_EQ(microbatch[i], o["microbatch"].get<double>());
      EXPECT_EQ(std::string(1, kind[i]), o["kind"]);
      EXPECT_EQ(chunk[i], o["chunk"].get<double>());
      EXPECT_EQ(start[i], o["start"].get<double>());
      const double duration = (kind[i] == 'F' ? t["f"] : kind[i] == 'B' ? t["b"] : t["w"]).get<double>();
      EXPECT_EQ(start[i] + duration, o["end"].get<double>());
      previous_end = start[i] + duration;
    }
  }
  json none = ask({{"schedule", "1f1b"}, {"stages", 4}, {"microbatches", 8}, {"include_ops", false}});
  EXPECT_FALSE(none.contains("ops"));
}

TEST(PipelineApi, RefusesBadCountsNamingTheField) {
  EXPECT_EQ(error_of({{"schedule", "1f1b"}, {"stages", 0}, {"microbatches", 4}})["field"], "stages");
  EXPECT_EQ(error_of({{"schedule", "1f1b"}, {"stages", 4}, {"microbatches", 2.5}})["code"], "not_integer");
  EXPECT_EQ(error_of({{"schedule", "1f1b"}, {"stages", 4}, {"microbatches", 100000}})["code"], "out_of_range");
  EXPECT_EQ(error_of({{"schedule", "interleaved"}, {"stages", 4}, {"microbatches", 8}, {"chunks", 65}})["field"],
            "chunks");
  EXPECT_EQ(error_of({{"schedule", "pipedream"}, {"stages", 4}, {"microbatches", 8}})["code"], "invalid_value");
  EXPECT_EQ(error_of({{"stages", 4}, {"microbatches", 8}})["code"], "missing_field");
  EXPECT_EQ(error_of({{"schedule", "1f1b"}, {"stages", 4}, {"microbatches", 8}, {"times", {{"f", 0}}}})["field"],
            "times.f");
  EXPECT_EQ(error_of({{"schedule", "1f1b"}, {"stages", 4}, {"microbatches", 8}, {"times", {{"x", 1}}}})["code"],
            "unknown_field");
}

TEST(PipelineApi, RefusesSettingsThatDoNotGoTogetherAndSaysWhy) {
  json e = error_of({{"schedule", "interleaved"}, {"stages", 8}, {"microbatches", 12}, {"chunks", 2}});
  EXPECT_EQ(e["code"], "inconsistent");
  EXPECT_EQ(e["field"], "microbatches");
  EXPECT_NE(e["message"].get<std::string>().find("multiple of stages"), std::string::npos);
  EXPECT_EQ(error_of({{"schedule", "1f1b"}, {"stages", 4}, {"microbatches", 8}, {"chunks", 2}})["field"], "chunks");
  EXPECT_EQ(error_of({{"schedule", "dualpipe"}, {"stages", 3}, {"microbatches", 8}})["field"], "stages");
  EXPECT_EQ(error_of({{"schedule", "dualpipe"}, {"stages", 4}, {"microbatches", 9}})["field"], "microbatches");
  EXPECT_EQ(error_of({{"schedule", "dualpipe"}, {"stages", 4}, {"microbatches", 6}})["field"], "microbatches");
  EXPECT_EQ(error_of({{"schedule", "1f1b"}, {"stages", 4}, {"microbatches", 8}, {"times", {{"w", 1}}}})["field"],
            "times.w");
}

TEST(PipelineApi, RefusesAMillionOpsQuicklyWithTooLarge) {
  const auto t0 = std::chrono::steady_clock::now();
  json e = error_of({{"schedule", "interleaved"}, {"stages", 1024}, {"microbatches", 65536}, {"chunks", 64}});
  EXPECT_EQ(e["code"], "too_large");
  EXPECT_LT(std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count(), 0.5);  // nothing was built
  EXPECT_THROW(parascope::run_pipeline(spec_of(Schedule::zb_h2, 1000, 400, 1, kUniformSplit)), parascope::RequestError);
}

}  // namespace

namespace {

TEST(PipelineDashboard, ReadsFullUnlessTheBubbleWaitsOnTheHost) {
  const nlohmann::json resident = nlohmann::json::parse(
      parascope::call(R"({"op":"pipeline","schedule":"gpipe","stages":4,"microbatches":8,"include_ops":false})"));
  EXPECT_EQ(resident["dashboard_utilization"].get<double>(), 1.0);
  const nlohmann::json host = nlohmann::json::parse(parascope::call(
      R"({"op":"pipeline","schedule":"gpipe","stages":4,"microbatches":8,"include_ops":false,"bubble_kernel_resident":false})"));
  EXPECT_DOUBLE_EQ(host["dashboard_utilization"].get<double>(), 1.0 - host["bubble_fraction"].get<double>());
  EXPECT_DOUBLE_EQ(host["dashboard_utilization"].get<double>(), host["efficiency"].get<double>());
}

}  // namespace

namespace {

TEST(PipelineCriticalSends, TimesTheSendTimeTheyEqualTheMakespanTheSendsAddWhenSendsAreShort) {
  // The cost model reads the time a schedule spends on sends from one run: sends on the critical path × comm. With
  // sends at most a tenth of a forward pass this is exactly the makespan with sends minus the makespan without.
  int checked = 0;
  for (Schedule schedule :
       {Schedule::gpipe, Schedule::one_f_one_b, Schedule::interleaved, Schedule::zb_h1, Schedule::dualpipe}) {
    for (int p : {2, 3, 4, 8}) {
      for (int m : {1, 2, 4, 8, 16, 17, 32}) {
        for (int v : {1, 2, 3}) {
          for (double comm : {0.01, 0.05, 0.1}) {
            if (v > 1 && schedule != Schedule::interleaved) continue;
            PipelineSpec spec =
                spec_of(schedule, p, m, v,
                        splits(schedule) ? PipelineTimes{1, 0.65, 0.65, comm} : PipelineTimes{1, 1.3, 0, comm});
            spec.record_ops = false;
            PipelineSpec silent = spec;
            silent.times.comm = 0;
            try {
              const auto with = parascope::run_pipeline(spec).metrics;
              const auto without = parascope::run_pipeline(silent).metrics;
              EXPECT_NEAR(double(with.critical_sends) * comm, with.makespan - without.makespan, 1e-9)
                  << parascope::schedule_id(schedule) << " p=" << p << " m=" << m << " v=" << v << " comm=" << comm;
              ++checked;
            } catch (const parascope::RequestError&) {
              // a combination the schedule refuses (e.g. DualPipe with odd p, interleaved m not a multiple of p)
            }
          }
        }
      }
    }
  }
  EXPECT_GT(checked, 400);
}

TEST(PipelineCriticalSends, ZbH2DoesNotCountThem) {
  const PipelineSpec spec = spec_of(Schedule::zb_h2, 4, 8, 1, {1, 1, 1, 0.1});
  EXPECT_EQ(parascope::run_pipeline(spec).metrics.critical_sends, -1);
}

}  // namespace
