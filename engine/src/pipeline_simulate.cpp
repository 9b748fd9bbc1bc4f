// The two pipeline simulators: fixed per-stage programs (as-soon-as-possible, in dependency order) and ZB-H2's greedy
// choice in time order. Both measure busy time, spans and activations in flight as they go.
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
  explicit Meter(int p) : busy(std::size_t(p), 0.0), first(std::size_t(p), -1.0), last(std::size_t(p), 0.0),
                          held(std::size_t(p), 0), peak(std::size_t(p), 0) {}

  void run(int s, double start, double end) {
    busy[std::size_t(s)] += end - start;
    if (first[std::size_t(s)] < 0) first[std::size_t(s)] = start;
    last[std::size_t(s)] = std::max(last[std::size_t(s)], end);
  }
  void hold(int s) { peak[std::size_t(s)] = std::max(peak[std::size_t(s)], ++held[std::size_t(s)]); }
  void release(int s) { --held[std::size_t(s)]; }

  PipelineMetrics finish(const PipelineLayout& layout) const {
    PipelineMetrics out;
    double useful = 0, spans = 0;
    for (std::size_t s = 0; s < busy.size(); ++s) {
      out.makespan = std::max(out.makespan, last[s]);
      useful += busy[s];
      if (first[s] >= 0) spans += last[s] - first[s];
    }
    out.busy = busy;
    const double capacity = double(layout.p) * out.makespan;
    out.bubble_fraction = capacity > 0 ? 1 - useful / capacity : 0;
    out.steady_bubble_fraction = spans > 0 ? 1 - useful / spans : 0;
    out.peak_activations = peak;
    out.chunk_model_fraction = 1.0 / double(layout.parts);
    return out;
  }

  std::vector<double> busy, first, last;
  std::vector<int> held, peak;
};

constexpr double kNotYet = -1;  // end-time table entry of an op that has not run

}  // namespace

PipelineResult simulate_orders(const PipelineSpec& spec, const PipelineLayout& layout, const StageOrders& orders) {
  const PipelineTimes& t = spec.times;
  const int p = layout.p, parts = layout.parts;
  const bool split = splits_backward(spec.schedule);
  const std::size_t table = std::size_t(layout.m) * std::size_t(parts);
  // When each op's output is available to its consumers (kNotYet until it has been sent), by microbatch and part.
  std::vector<double> end_f(table, kNotYet), end_b(spec.forward_only ? 0 : table, kNotYet);
  // Beside each output: how many stage-to-stage sends lie on the chain of waits that set when it became available.
  // Each op inherits the count of whatever it waited for last (its input, plus one if that crossed stages, or its
  // stage's previous op); the last op's count × comm is the time the makespan spends on sends (critical_sends).
  std::vector<std::int32_t> sends_f(table, 0), sends_b(spec.forward_only ? 0 : table, 0);
  std::vector<std::int32_t> stage_sends(std::size_t(p), 0);
  std::vector<std::int64_t> cursor(orders.begin.begin(), orders.begin.end() - 1);
  std::vector<double> free_at(std::size_t(p), 0.0);
  // Stage of each part, per direction (a table: the modulo in stage_of is the costliest step of the inner loop).
  std::vector<int> stage_table(std::size_t(parts) * (layout.dual ? 2 : 1));
  for (std::size_t i = 0; i < stage_table.size(); ++i) {
    stage_table[i] = layout.stage_of(int(i) % parts, i < std::size_t(parts) ? 0 : layout.m - 1);
  }
  auto stage_at = [&](int part, int mb) {
    return stage_table[std::size_t(layout.direction(mb)) * std::size_t(parts) + std::size_t(part)];
  };
  Meter meter(p);
  PipelineResult result;
  if (spec.record_ops) result.ops.resize(orders.ops.size());  // op c of the programs lands at ops[c]: stage-major

  // A stage runs its program until an op's input is missing; the op that produces that input wakes it up again.
  std::vector<int> stack;
  std::vector<char> queued(std::size_t(p), 1);
  for (int s = p - 1; s >= 0; --s) stack.push_back(s);
  auto wake = [&](int s) {
    if (!queued[std::size_t(s)]) {
      queued[std::size_t(s)] = 1;
      stack.push_back(s);
    }
  };
  // The earliest start of ops[c] on stage s as far as its input is concerned, or kNotYet while the input is missing.
  // `sends` receives the send count of the input's chain (including the hop to s).
  auto input_ready = [&](int s, std::int64_t c, std::int32_t& sends) -> double {
    const StageOp& op = orders.ops[std::size_t(c)];
    const int mb = op.microbatch, part = layout.part_of(s, op.chunk, mb);
    const std::size_t at = std::size_t(mb) * std::size_t(parts) + std::size_t(part);
    sends = 0;
    if (op.kind == 'F') {  // after the forward of the previous part
      if (part == 0) return 0;
      const double e = end_f[at - 1];
      const bool cross = stage_at(part - 1, mb) != s;
      sends = sends_f[at - 1] + (cross ? 1 : 0);
      return e == kNotYet ? kNotYet : e + (cross ? t.comm : 0);
    }
    if (op.kind == 'B') {  // after the backward of the next part, or the last part's own forward
      if (part + 1 == parts) {
        sends = sends_f[at];
        return end_f[at];
      }
      const double e = end_b[at + 1];
      const bool cross = stage_at(part + 1, mb) != s;
      sends = sends_b[at + 1] + (cross ? 1 : 0);
      return e == kNotYet ? kNotYet : e + (cross ? t.comm : 0);
    }
    return 0;  // W follows its own B on the same stage, which the program order already guarantees
  };
  struct Release {  // an output held back until ops[at_cursor] ends
    std::int64_t at_cursor;
    double* slot;
    std::int32_t* sends;
    int notify;
  };
  std::vector<std::vector<Release>> held(static_cast<std::size_t>(p));

  while (!stack.empty()) {
    const int s = stack.back();
    stack.pop_back();
    queued[std::size_t(s)] = 0;
    std::int64_t& c = cursor[std::size_t(s)];
    for (; c < orders.begin[std::size_t(s) + 1]; ++c) {
      const StageOp& op = orders.ops[std::size_t(c)];
      std::int32_t sends = 0;
      double ready = input_ready(s, c, sends);
      if (ready == kNotYet) break;
      bool waiting = false;  // a fused call starts only when every member's input is there
      for (std::int64_t k = 1; k <= op.fuse && !waiting; ++k) {
        std::int32_t member_sends = 0;
        const double r = input_ready(s, c + k, member_sends);
        waiting = r == kNotYet;
        if (r > ready) sends = member_sends;
        ready = std::max(ready, r);
      }
      if (waiting) break;
      // Waiting for the stage rather than the input (a tie counts as the stage: free sends would not start it sooner).
      if (free_at[std::size_t(s)] >= ready) sends = stage_sends[std::size_t(s)];
      ready = std::max(ready, free_at[std::size_t(s)]);
      stage_sends[std::size_t(s)] = sends;
      const int mb = op.microbatch, part = layout.part_of(s, op.chunk, mb);
      const std::size_t at = std::size_t(mb) * std::size_t(parts) + std::size_t(part);
      const double duration = op.kind == 'F' ? t.f : op.kind == 'B' ? t.b : t.w;
      const double end = ready + duration;
      free_at[std::size_t(s)] = end;
      meter.run(s, ready, end);
      if (op.kind == 'F') {
        meter.hold(s);
      } else if (op.kind == 'W' || !split) {
        meter.release(s);
      }
      if (spec.record_ops) result.ops[std::size_t(c)] = {s, mb, op.kind, int(op.chunk), ready, end};
      auto& mine = held[std::size_t(s)];
      if (op.kind != 'W') {
        double* slot = op.kind == 'F' ? &end_f[at] : &end_b[at];
        std::int32_t* slot_sends = op.kind == 'F' ? &sends_f[at] : &sends_b[at];
        const int notify = op.kind == 'F' ? (part + 1 < parts ? stage_at(part + 1, mb) : s)
                                          : (part > 0 ? stage_at(part - 1, mb) : s);
        if (op.release == 0) {
          *slot = end;
          *slot_sends = sends;
          if (notify != s) wake(notify);
        } else {
          mine.push_back({c + op.release, slot, slot_sends, notify});
        }
      }
      for (std::size_t i = 0; i < mine.size();) {  // outputs held back until this op's end
        if (mine[i].at_cursor != c) {
          ++i;
          continue;
        }
        *mine[i].slot = end;
        *mine[i].sends = sends;
        if (mine[i].notify != s) wake(mine[i].notify);
        mine[i] = mine.back();
        mine.pop_back();
      }
    }
  }
  for (int s = 0; s < p; ++s) {
    if (cursor[std::size_t(s)] != orders.begin[std::size_t(s) + 1]) {
      throw std::logic_error("pipeline schedule " + std::string(schedule_id(spec.schedule)) + " deadlocks at stage " +
                             std::to_string(s));
    }
  }
  result.metrics = meter.finish(layout);
  // The critical path ends on the stage that finishes last (the first such stage on a tie).
  const auto last = std::max_element(free_at.begin(), free_at.end());
  result.metrics.critical_sends = stage_sends[std::size_t(last - free_at.begin())];
  return result;
}

PipelineResult simulate_zb_h2(const PipelineSpec& spec) {
  const PipelineTimes& t = spec.times;
  const int p = spec.stages, m = spec.microbatches;
  const PipelineLayout layout = make_layout(spec);
  const std::size_t table = std::size_t(m) * std::size_t(p);
  std::vector<double> end_f(table, kNotYet), end_b(table, kNotYet);  // [mb · p + stage]
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
  // The next time stage s has something to decide: when it is free and some op can start (infinity if none is known).
  const double never = std::numeric_limits<double>::infinity();
  auto next_time = [&](int s) {
    const Stage& st = stages[std::size_t(s)];
    double when = never;
    if (st.w < st.b) when = st.free_at;  // a W can always run
    const double b = b_ready(s);
    if (b != kNotYet) when = std::min(when, std::max(st.free_at, b));
    const double f = f_ready(s);
    if (f != kNotYet && f_allowed(s)) when = std::min(when, std::max(st.free_at, f));
    return when;
  };
  // A min-tree over the stages' next times; ties go to the lower stage, so the outcome is deterministic.
  int leaves = 1;
  while (leaves < p) leaves *= 2;
  std::vector<std::pair<double, int>> tree(2 * std::size_t(leaves), {never, 0});
  auto update = [&](int s) {
    std::size_t i = std::size_t(leaves) + std::size_t(s);
    tree[i] = {next_time(s), s};
    for (i /= 2; i >= 1; i /= 2) tree[i] = std::min(tree[2 * i], tree[2 * i + 1]);
  };
  for (int s = 0; s < p; ++s) update(s);

  std::int64_t done = 0;
  while (tree[1].first != never) {
    const auto [now, s] = tree[1];
    Stage& st = stages[std::size_t(s)];
    const double b = b_ready(s), f = f_ready(s);
    char kind = 'W';  // a ready B first, then a ready F within the limit, else the oldest pending W
    if (b != kNotYet && b <= now) {
      kind = 'B';
    } else if (f != kNotYet && f <= now && f_allowed(s)) {
      kind = 'F';
    }
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
  result.metrics = meter.finish(layout);
  return result;
}

}  // namespace parascope::detail
