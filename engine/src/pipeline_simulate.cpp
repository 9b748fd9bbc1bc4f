// ZB-H2's greedy simulator: which op each stage runs is decided in time order, so its programs cannot be fixed in
// advance (the fixed-program schedules are compiled and timed in pipeline_compile.cpp / pipeline_time.cpp).
#include <algorithm>
#include <deque>
#include <limits>
#include <stdexcept>
#include <string>

#include "pipeline_detail.hpp"

namespace parascope::detail {

namespace {

/// Per-stage measurements gathered while simulating; finish() turns them into PipelineMetrics.
struct Meter {
  explicit Meter(int p)
      : busy(std::size_t(p), 0.0), first(std::size_t(p), std::numeric_limits<double>::infinity()),
        last(std::size_t(p), 0.0), held(std::size_t(p), 0), peak(std::size_t(p), 0) {}

  void run(int s, double start, double end) {
    busy[std::size_t(s)] += end - start;
    first[std::size_t(s)] = std::min(first[std::size_t(s)], start);
    last[std::size_t(s)] = std::max(last[std::size_t(s)], end);
  }
  void hold(int s) { peak[std::size_t(s)] = std::max(peak[std::size_t(s)], ++held[std::size_t(s)]); }
  void release(int s) { --held[std::size_t(s)]; }

  PipelineMetrics finish(const PipelineLayout& layout) const {
    return timeline_metrics(layout.parts, busy, first, last, peak);
  }

  std::vector<double> busy, first, last;
  std::vector<int> held, peak;
};

constexpr double kNotYet = -1;  // end-time table entry of an op that has not run

}  // namespace

PipelineResult simulate_zb_h2(const PipelineSpec& spec) {
  const PipelineTimes& t = spec.times;
  const int p = spec.stages, m = spec.microbatches;
  const PipelineLayout layout = make_layout(spec);
  const std::size_t table = std::size_t(m) * std::size_t(p);
  // End-time tables [mb · p + stage], reused between calls (the cost model and the planner call this again and again).
  thread_local std::vector<double> end_f, end_b;
  end_f.assign(table, kNotYet);
  end_b.assign(table, kNotYet);
  struct Stage {
    double free_at = 0;
    int f = 0, b = 0, w = 0;  // next microbatch of each kind (all three run in microbatch order)
  };
  std::vector<Stage> stages(static_cast<std::size_t>(p));
  const int limit = 2 * p - 1;  // microbatches waiting for their W, on every stage (Qi et al. 2024, Sec. 2.2)
  Meter meter(p);
  PipelineResult result;
  // Every stage runs the same number of ops, so each one's slice of the op list is known in advance.
  const std::size_t per_stage = std::size_t(pipeline_op_count(spec)) / std::size_t(p);
  std::vector<std::size_t> written(static_cast<std::size_t>(p), 0);
  if (spec.record_ops) result.ops.resize(per_stage * std::size_t(p));

  // When the next F and B of stage s could start as far as their inputs go (kNotYet while an input is missing).
  auto f_ready = [&](int s) {
    const Stage& st = stages[std::size_t(s)];
    if (st.f >= m) return kNotYet;
    if (s == 0) return 0.0;
    const double e = end_f[std::size_t(st.f) * std::size_t(p) + std::size_t(s - 1)];
    return e == kNotYet ? kNotYet : e + t.comm;
  };
  auto b_ready = [&](int s) {
    const Stage& st = stages[std::size_t(s)];
    if (spec.forward_only || st.b >= st.f) return kNotYet;
    if (s == p - 1) return end_f[std::size_t(st.b) * std::size_t(p) + std::size_t(s)];
    const double e = end_b[std::size_t(st.b) * std::size_t(p) + std::size_t(s + 1)];
    return e == kNotYet ? kNotYet : e + t.comm;
  };
  auto f_allowed = [&](int s) {
    const Stage& st = stages[std::size_t(s)];
    return spec.forward_only || st.f - st.w < limit;
  };
  // The next time stage s has something to decide (when it is free and some op can start; infinity if none is known)
  // and what it will run then: a ready B first, then a ready F within the limit, else the oldest pending W. Both stay
  // valid until the stage is updated again: only its own ops and its neighbours' outputs change them, and each of those
  // updates it.
  const double never = std::numeric_limits<double>::infinity();
  std::vector<char> next_kind(static_cast<std::size_t>(p), 'W');
  auto next_time = [&](int s) {
    const Stage& st = stages[std::size_t(s)];
    double when = never;
    if (st.w < st.b) when = st.free_at;  // a W can always run
    const double b = b_ready(s);
    if (b != kNotYet) when = std::min(when, std::max(st.free_at, b));
    const double f = f_ready(s);
    const bool allowed = f != kNotYet && f_allowed(s);
    if (allowed) when = std::min(when, std::max(st.free_at, f));
    char kind = 'W';
    if (b != kNotYet && b <= when) {
      kind = 'B';
    } else if (allowed && f <= when) {
      kind = 'F';
    }
    next_kind[std::size_t(s)] = kind;
    return when;
  };
  // A min-tree over the stages' next times; ties go to the lower stage, so the outcome is deterministic.
  int leaves = 1;
  while (leaves < p) leaves *= 2;
  thread_local std::vector<std::pair<double, int>> tree;
  tree.assign(2 * std::size_t(leaves), {never, 0});
  // A node that keeps its value keeps every ancestor's: the walk up stops there (the same tree, fewer steps).
  auto update = [&](int s) {
    std::size_t i = std::size_t(leaves) + std::size_t(s);
    tree[i] = {next_time(s), s};
    for (i /= 2; i >= 1; i /= 2) {
      const std::pair<double, int> lower = std::min(tree[2 * i], tree[2 * i + 1]);
      if (lower == tree[i]) break;
      tree[i] = lower;
    }
  };
  for (int s = 0; s < p; ++s) update(s);

  std::int64_t done = 0;
  while (tree[1].first != never) {
    const auto [now, s] = tree[1];
    Stage& st = stages[std::size_t(s)];
    const char kind = next_kind[std::size_t(s)];  // decided by next_time at this very `now`
    int mb = 0;
    double duration = 0;
    if (kind == 'F') {
      mb = st.f++;
      duration = t.f;
    } else if (kind == 'B') {
      mb = st.b++;
      duration = t.b;
    } else {
      mb = st.w++;
      duration = t.w;
    }
    const double end = now + duration;
    st.free_at = end;
    meter.run(s, now, end);
    const std::size_t at = std::size_t(mb) * std::size_t(p) + std::size_t(s);
    if (kind == 'F') {
      end_f[at] = end;
      meter.hold(s);
    } else if (kind == 'B') {
      end_b[at] = end;
    } else {
      meter.release(s);
    }
    if (spec.record_ops) result.ops[std::size_t(s) * per_stage + written[std::size_t(s)]++] = {s, mb, kind, 0, now, end};
    ++done;
    update(s);  // and the neighbour whose input this op produced
    if (kind == 'F' && s + 1 < p) update(s + 1);
    if (kind == 'B' && s > 0) update(s - 1);
  }
  if (done != pipeline_op_count(spec)) {
    throw std::logic_error("pipeline schedule zb-h2 stalled after " + std::to_string(done) + " of " +
                           std::to_string(pipeline_op_count(spec)) + " ops");
  }
  if (table > (std::size_t(1) << 16)) {  // a big run's tables do not outlive it (the wasm heap never shrinks)
    std::vector<double>().swap(end_f);
    std::vector<double>().swap(end_b);
  }
  result.metrics = meter.finish(layout);
  return result;
}

}  // namespace parascope::detail
