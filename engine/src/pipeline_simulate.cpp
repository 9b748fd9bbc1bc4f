// ZB-H2's greedy simulator: which op each stage runs is decided in time order, so its programs cannot be fixed in
// advance (the fixed-program schedules are compiled and timed in pipeline_compile.cpp / pipeline_time.cpp).
#include <algorithm>
#include <limits>
#include <stdexcept>
#include <string>

#include "pipeline_zb_h2.hpp"

namespace parascope::detail {

void EndQueue::push(const SumTime& t) {
  if (std::size_t(count_) == slots_.size()) {  // full: double the ring, each kept end at its new slot
    std::vector<SumTime> grown(std::max<std::size_t>(4, 2 * slots_.size()));
    const std::size_t mask = grown.size() - 1;
    for (int mb = front_; mb < back(); ++mb) grown[std::size_t(mb) & mask] = at(mb);
    slots_.swap(grown);
    mask_ = mask;
  }
  slots_[std::size_t(back()) & mask_] = t;
  ++count_;
}

void EndQueue::drop_before(int mb) {
  const int dropped = std::clamp(mb - front_, 0, count_);
  front_ += dropped, count_ -= dropped;
}

// The queues' bound: stage s's forward ends wait in [f(s+1), f(s)), the last stage's in [b(p−1), f(p−1)), stage s's
// backward ends in [b(s−1), b(s)); their lengths add up to f(0) − b(0) ≤ f(0) − w(0) ≤ 2p − 1 (the limit on
// microbatches waiting for their W).
ZbH2Run::ZbH2Run(const PipelineSpec& spec)
    : clock(spec.times),
      p(spec.stages),
      m(spec.microbatches),
      stages(std::size_t(spec.stages)),
      end_f(std::size_t(spec.stages)),
      end_b(std::size_t(spec.stages)),
      parts_(make_layout(spec).parts),
      leaves_(1) {
  if (spec.forward_only) throw std::logic_error("zb-h2 runs its backward passes: it is never drawn forward only");
  while (leaves_ < p) leaves_ *= 2;
  tree_.assign(2 * std::size_t(leaves_), Node{kNone, -1});
  refresh();
}

void ZbH2Run::refresh() {
  for (int s = 0; s < p; ++s) {
    decide(s);
    tree_[std::size_t(leaves_ + s)] = leaf(s);
  }
  for (std::size_t i = std::size_t(leaves_) - 1; i >= 1; --i) play(i);
}

ZbH2Run::Node ZbH2Run::leaf(int s) const {
  const ZbH2Stage& st = stages[std::size_t(s)];
  return st.has_next ? Node{st.next.value, s} : Node{kNone, -1};
}

// The earlier next time, the lower stage on a tie; the values first (SumClock::compare's quick answer).
bool ZbH2Run::earlier(const Node& a, const Node& b) const {
  if (a.stage < 0) return false;
  if (b.stage < 0) return true;
  int order = SumClock::quick_order(a.key, b.key);
  if (order == 0) order = clock.compare(stages[std::size_t(a.stage)].next, stages[std::size_t(b.stage)].next);
  return order < 0 || (order == 0 && a.stage < b.stage);
}

// When stage s is next free with an op it can start (a ready B first, then a ready F within the limit, else the
// oldest pending W), and which op that is. Both stay valid until the stage is updated again: only its own ops and its
// neighbours' outputs change them, and each of those updates it.
void ZbH2Run::decide(int s) {
  ZbH2Stage& st = stages[std::size_t(s)];
  const bool b_ready = st.b < st.f && (s == p - 1 || stages[std::size_t(s) + 1].b > st.b);
  const bool f_ready = st.f < m && st.f - st.w < 2 * p - 1 && (s == 0 || stages[std::size_t(s) - 1].f > st.f);
  const bool w_pending = st.w < st.b;
  st.has_next = b_ready || f_ready || w_pending;
  if (!st.has_next) return;
  SumTime b, f;  // when the B and the F have their inputs (an end plus a send from another stage)
  if (b_ready) b = s == p - 1 ? end_f[std::size_t(s)].at(st.b) : clock.plus(end_b[std::size_t(s) + 1].at(st.b), 3);
  if (f_ready && s > 0) f = clock.plus(end_f[std::size_t(s) - 1].at(st.f), 3);
  // The earliest of: the stage's free time if a W is pending, and each ready op's start (the later of its input and
  // the free time), the first listed on a tie; then the first of B, F and W that can start then. Every start is at
  // or after the free time (compare is antisymmetric: a start later than the free time compares so both ways), so
  // with a W pending the stage is next free at its free time, and a ready op runs then if its input is there by then.
  // Otherwise the earlier of the ready ops' starts wins, B on a tie. Each comparison is asked once.
  const int cb = b_ready ? clock.compare(b, st.free_at) : 0;  // > 0: B waits for its input
  const int cf = f_ready ? clock.compare(f, st.free_at) : 0;
  if (w_pending) {
    st.next = st.free_at;
    st.kind = b_ready && cb <= 0 ? 'B' : f_ready && cf <= 0 ? 'F' : 'W';
    return;
  }
  const bool f_first = b_ready && f_ready && cb > 0 && (cf <= 0 || clock.compare(f, b) < 0);
  if (b_ready && !f_first) {
    st.next = cb > 0 ? b : st.free_at;
    st.kind = 'B';
  } else {
    st.next = cf > 0 ? f : st.free_at;
    st.kind = 'F';
  }
}

// Stage s ran an op (and t, if any, got an input from it): both decide again, then every node above them is played
// again, bottom up, the two paths once they meet. The stage that ran was the winner all the way up, so no node on its
// path keeps its value for certain.
void ZbH2Run::update(int s, int t) {
  decide(s);
  tree_[std::size_t(leaves_ + s)] = leaf(s);
  if (t >= 0) {
    // A reader with a W pending stays next free at its free time, whatever its new input: when its next time (all
    // that the tree reads of it: its value and its counts) is the same, no node of its path changes but where that
    // path meets the other stage's, which is played anyway.
    const ZbH2Stage& reader = stages[std::size_t(t)];
    const bool had_next = reader.has_next;
    const SumTime before = reader.next;
    decide(t);
    if (had_next && reader.has_next && before.n == reader.next.n && before.value == reader.next.value) t = -1;
  }
  if (t >= 0) tree_[std::size_t(leaves_ + t)] = leaf(t);
  std::size_t i = std::size_t(leaves_ + s) / 2, j = t >= 0 ? std::size_t(leaves_ + t) / 2 : i;
  for (; i >= 1; i /= 2, j /= 2) {
    play(i);
    if (j != i) play(j);
  }
}

// earlier(b, a) without a branch where the two keys are far apart (SumClock::quick_order decides, as in earlier): a
// stage with no next op has the key kNone, after every time a run forms (each below 10^12 · 10^6), so it loses to
// every stage that has one; two such keys (or two close ones) go to earlier itself.
void ZbH2Run::play(std::size_t i) {
  const double a = tree_[2 * i].key, b = tree_[2 * i + 1].key;
  const double gap = b - a;
  if (std::abs(gap) > 1e-9 * (a + b)) {
    tree_[i] = tree_[2 * i + (gap < 0 ? 1 : 0)];
  } else {
    tree_[i] = earlier(tree_[2 * i + 1], tree_[2 * i]) ? tree_[2 * i + 1] : tree_[2 * i];
  }
}

bool ZbH2Run::step(ZbH2Op& op) {
  const int s = tree_[1].stage;
  if (s < 0) return false;
  ZbH2Stage& st = stages[std::size_t(s)];
  op.stage = s, op.kind = st.kind, op.start = st.next;
  const int what = st.kind == 'F' ? 0 : st.kind == 'B' ? 1 : 2;
  op.microbatch = what == 0 ? st.f++ : what == 1 ? st.b++ : st.w++;
  op.end = clock.plus(op.start, what);
  if (st.f + st.b + st.w == 1) st.first = op.start;
  st.free_at = op.end;
  ++done;
  if (what == 0) {
    st.peak = std::max(st.peak, st.f - st.w);
    end_f[std::size_t(s)].push(op.end);
    if (s > 0) end_f[std::size_t(s) - 1].drop_before(st.f);
  } else if (what == 1) {
    if (s > 0) end_b[std::size_t(s)].push(op.end);
    if (s + 1 < p) end_b[std::size_t(s) + 1].drop_before(st.b);
    if (s == p - 1) end_f[std::size_t(s)].drop_before(st.b);
  }
  const int fed = what == 0 && s + 1 < p ? s + 1 : what == 1 && s > 0 ? s - 1 : -1;  // its output's reader
  update(s, fed);
  return true;
}

PipelineMetrics ZbH2Run::metrics() const {
  const std::size_t n = stages.size();
  std::vector<double> busy(n), first(n), last(n);
  std::vector<int> peak(n);
  for (std::size_t s = 0; s < n; ++s) {
    const ZbH2Stage& st = stages[s];
    busy[s] = clock.value_of({st.f, st.b, st.w, 0});  // every op's duration, counted
    first[s] = st.f > 0 ? clock.value_of(st.first.n) : std::numeric_limits<double>::infinity();
    last[s] = clock.value_of(st.free_at.n);
    peak[s] = st.peak;
  }
  return timeline_metrics(parts_, busy, first, last, peak);
}

namespace {

void check_finished(const ZbH2Run& run, const PipelineSpec& spec) {
  if (run.done != pipeline_op_count(spec)) {
    throw std::logic_error("pipeline schedule zb-h2 stalled after " + std::to_string(run.done) + " of " +
                           std::to_string(pipeline_op_count(spec)) + " ops");
  }
}

}  // namespace

PipelineResult simulate_zb_h2(const PipelineSpec& spec) {
  ZbH2Run run(spec);
  PipelineResult result;
  // Every stage runs the same number of ops, so each one's slice of the op list is known in advance.
  const std::size_t per_stage = std::size_t(pipeline_op_count(spec)) / std::size_t(run.p);
  std::vector<std::size_t> written(std::size_t(run.p), 0);
  if (spec.record_ops) result.ops.resize(per_stage * std::size_t(run.p));
  for (ZbH2Op op; run.step(op);) {
    if (!spec.record_ops) continue;
    const std::size_t at = std::size_t(op.stage) * per_stage + written[std::size_t(op.stage)]++;
    result.ops[at] = {
        op.stage, op.microbatch, op.kind, 0, run.clock.value_of(op.start.n), run.clock.value_of(op.end.n)};
  }
  check_finished(run, spec);
  result.metrics = run.metrics();
  return result;
}

PipelineMetrics zb_h2_metrics(const PipelineSpec& spec, std::int64_t* skipped_ops) {
  ZbH2Run run(spec);
  ZbH2Repeats repeats;
  bool looking = true;  // one move skips all the cycles there are to skip
  std::int64_t skipped = 0;
  for (ZbH2Op op; run.step(op);) {
    if (!looking || op.stage != 0 || op.kind != 'F') continue;
    const std::int64_t before = run.done;
    looking = !repeats.after_first_stage_forward(run);
    skipped += run.done - before;
  }
  check_finished(run, spec);
  if (skipped_ops) *skipped_ops = skipped;
  return run.metrics();
}

}  // namespace parascope::detail
