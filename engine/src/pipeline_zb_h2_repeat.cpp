// ZB-H2's steady cycles skipped exactly: once the simulator's whole state repeats, shifted by d microbatches and one
// sum of durations, every later cycle repeats it too, so the run moves ahead by whole cycles without timing them.
#include <algorithm>

#include "pipeline_zb_h2.hpp"

namespace parascope::detail {

namespace {

/// Calls visit(x) on every number the rest of the run depends on, relative to stage 0's next forward (`label`) and
/// stage 0's free time (`base`): each stage's next F, B and W, each stage's free time, then every end a neighbour has
/// yet to read. Decisions also read m (a stage's last forward), which move() keeps out of the cycles it skips. The
/// counts come first, and they fix how many ends follow, so two states compare alike number by number. Stops when
/// visit returns false; returns whether it went through.
template <class Visit>
bool walk_state(const ZbH2Run& run, Visit&& visit) {
  const int label = run.stages[0].f;
  const std::array<std::int32_t, 4>& base = run.stages[0].free_at.n;
  for (const ZbH2Stage& st : run.stages) {
    if (!visit(st.f - label) || !visit(st.b - label) || !visit(st.w - label)) return false;
  }
  auto time = [&](const SumTime& t) {
    for (std::size_t i = 0; i < 4; ++i) {
      if (!visit(t.n[i] - base[i])) return false;
    }
    return true;
  };
  for (const ZbH2Stage& st : run.stages) {
    if (!time(st.free_at)) return false;
  }
  for (const std::vector<EndQueue>* queues : {&run.end_f, &run.end_b}) {
    for (const EndQueue& q : *queues) {
      for (int mb = q.front(); mb < q.back(); ++mb) {
        if (!time(q.at(mb))) return false;
      }
    }
  }
  return true;
}

/// `t` later by `cycles` times `step`.
SumTime shifted(const SumClock& clock, SumTime t, const std::array<std::int32_t, 4>& step, std::int64_t cycles) {
  for (std::size_t i = 0; i < 4; ++i) t.n[i] += std::int32_t(cycles * step[i]);
  t.value = clock.value_of(t.n);
  return t;
}

}  // namespace

bool ZbH2Repeats::matches(const ZbH2Run& run) const {
  std::size_t i = 0;
  const bool same = walk_state(run, [&](std::int32_t x) { return i < kept_.size() && kept_[i++] == x; });
  return same && i == kept_.size();
}

void ZbH2Repeats::keep(const ZbH2Run& run) {
  kept_.clear();
  walk_state(run, [&](std::int32_t x) {
    kept_.push_back(x);
    return true;
  });
  kept_label_ = run.stages[0].f;
  kept_base_ = run.stages[0].free_at.n;
  kept_done_ = run.done;
}

// The kept state S and this one S' = S shifted by d microbatches and the sum `step`: the simulator's decisions depend
// on the state relative to one label and one time (SumClock compares differences of counts) and on m, so from S' it
// runs as it ran from S, shifted, and K cycles on it stands at S' shifted K times, provided every decision on the way
// saw each stage's next forward below m (as the shifted run from S did). Stage 0's is the highest and reaches
// label + K·d only at the end, where the run decides afresh (refresh): K = ⌊(m − label)/d⌋. The last partial cycle and
// the drain are simulated.
bool ZbH2Repeats::move(ZbH2Run& run) const {
  const int label = run.stages[0].f;  // the most advanced counter of the run
  const int d = label - kept_label_;
  if (d <= 0) return false;
  const std::int64_t cycles = (run.m - label) / d;
  if (cycles < 1) return false;
  std::array<std::int32_t, 4> step{};
  for (std::size_t i = 0; i < 4; ++i) step[i] = run.stages[0].free_at.n[i] - kept_base_[i];
  const int moved = int(cycles) * d;
  for (ZbH2Stage& st : run.stages) {
    st.f += moved, st.b += moved, st.w += moved;
    st.free_at = shifted(run.clock, st.free_at, step, cycles);
  }
  std::vector<SumTime> ends;
  for (std::vector<EndQueue>* queues : {&run.end_f, &run.end_b}) {
    for (EndQueue& q : *queues) {
      ends.clear();
      for (int mb = q.front(); mb < q.back(); ++mb) ends.push_back(shifted(run.clock, q.at(mb), step, cycles));
      q.reset(q.front() + moved);
      for (const SumTime& t : ends) q.push(t);
    }
  }
  run.done += cycles * (run.done - kept_done_);
  run.refresh();
  return true;
}

// Brent's cycle search (Brent 1980, BIT 20, "An improved Monte Carlo factorization algorithm", Sec. 2): the kept state
// is compared with each later one and replaced by the one 1, 2, 4, ... states after it, so a repeat of λ states that
// starts μ states in shows within about 2·max(μ, λ) + λ states, each compared once.
bool ZbH2Repeats::after_first_stage_forward(ZbH2Run& run) {
  if (kept_.empty()) {
    keep(run);
    return false;
  }
  if (matches(run)) {
    move(run);
    return true;  // moved, or the repeat showed too late to skip a whole cycle (later ones would be later still)
  }
  if (++since_kept_ == power_) {
    keep(run);
    since_kept_ = 0;
    power_ += std::max(1, power_ / 4);
  }
  return false;
}

}  // namespace parascope::detail
