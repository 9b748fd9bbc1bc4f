// ZB-H2's steady cycles skipped exactly: once the simulator's whole state repeats, shifted by d microbatches and one
// sum of durations, every later cycle repeats it too, so the run moves ahead by whole cycles without timing them.
#include <algorithm>

#include "pipeline_zb_h2.hpp"

namespace parascope::detail {

namespace {

/// Writes every number the rest of the run depends on, relative to stage 0's next forward (`label`) and stage 0's
/// free time (`base`): each stage's next F, B and W, each stage's free time, then every end a neighbour has yet to
/// read. Decisions also read m (a stage's last forward), which move() keeps out of the cycles it skips. The counts
/// come first, and they fix how many ends follow, so two states compare alike number by number.
void take(const ZbH2Run& run, ZbH2Snapshot& out) {
  out.label = run.stages[0].f;
  out.base = run.stages[0].free_at.n;
  out.done = run.done;
  std::vector<std::int32_t>& x = out.state;
  x.clear();
  for (const ZbH2Stage& st : run.stages) x.insert(x.end(), {st.f - out.label, st.b - out.label, st.w - out.label});
  auto time = [&](const SumTime& t) {
    for (std::size_t i = 0; i < 4; ++i) x.push_back(t.n[i] - out.base[i]);
  };
  for (const ZbH2Stage& st : run.stages) time(st.free_at);
  for (const std::vector<EndQueue>* queues : {&run.end_f, &run.end_b}) {
    for (const EndQueue& q : *queues) {
      for (int mb = q.front(); mb < q.back(); ++mb) time(q.at(mb));
    }
  }
}

/// `t` later by `cycles` times `step`.
SumTime shifted(const SumClock& clock, SumTime t, const std::array<std::int32_t, 4>& step, std::int64_t cycles) {
  for (std::size_t i = 0; i < 4; ++i) t.n[i] += std::int32_t(cycles * step[i]);
  t.value = clock.value_of(t.n);
  return t;
}

}  // namespace

// The kept state S and this one S' = S shifted by d microbatches and the sum `step`: the simulator's decisions depend
// on the state relative to one label and one time (SumClock compares differences of counts) and on m, so from S' it
// runs as it ran from S, shifted, and K cycles on it stands at S' shifted K times, provided every decision on the way
// saw each stage's next forward below m (as the shifted run from S did). Stage 0's is the highest and reaches
// label + K·d only at the end, where the run decides afresh (refresh): K = ⌊(m − label)/d⌋. The last partial cycle and
// the drain are simulated.
bool ZbH2Repeats::move(ZbH2Run& run, const ZbH2Snapshot& from) {
  const int label = run.stages[0].f;  // the most advanced counter of the run
  const int d = label - from.label;
  if (d <= 0) return false;
  const std::int64_t cycles = (run.m - label) / d;
  if (cycles < 1) return false;
  std::array<std::int32_t, 4> step{};
  for (std::size_t i = 0; i < 4; ++i) step[i] = run.stages[0].free_at.n[i] - from.base[i];
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
  run.done += cycles * (run.done - from.done);
  run.refresh();
  return true;
}

// A repeat of one state (λ = 1, the cost model's usual case) shows against the state just before; a longer one by
// Brent's cycle search (Brent 1980, BIT 20, "An improved Monte Carlo factorization algorithm", Sec. 2): a kept state
// is compared with each later one and replaced by the one 1, 2, 3, ... (each step a quarter longer) states after it,
// so a repeat of λ states that starts μ states in shows within about 1.25·max(μ, λ) + λ states.
bool ZbH2Repeats::after_first_stage_forward(ZbH2Run& run) {
  take(run, now_);
  for (const ZbH2Snapshot* before : {&last_, &kept_}) {
    if (!before->state.empty() && before->state == now_.state) {
      move(run, *before);
      return true;  // moved, or the repeat showed too late to skip a whole cycle (later ones would be later still)
    }
  }
  if (kept_.state.empty() || ++since_kept_ == power_) {
    if (!kept_.state.empty()) power_ += std::max(1, power_ / 4);
    kept_ = now_;
    since_kept_ = 0;
  }
  std::swap(last_, now_);
  return false;
}

}  // namespace parascope::detail
