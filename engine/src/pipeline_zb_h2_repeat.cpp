// ZB-H2's steady cycles skipped exactly, once the simulator's whole state recurs shifted by whole cycles.
//
// Once the state repeats, shifted by d microbatches and one sum of durations, every later cycle repeats it too, so
// the run moves ahead by whole cycles without timing them.
#include <algorithm>
#include <functional>
#include <string_view>

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

// Every state is kept (while they fit in kKeptNumbers) by a hash of its numbers, so a repeat shows the first time a
// state recurs: μ + λ states in for a repeat of λ that starts μ in (the cost model's op times: λ = 1 at p = 32 and
// μ = 121; slow drifts, W ≪ F: λ up to 119 from μ = 136).
bool ZbH2Repeats::after_first_stage_forward(ZbH2Run& run) {
  // Until stage 0 runs its first W, its W counter relative to its next forward falls with every forward: no state
  // of the warm-up can recur, so none is kept (2p − 1 states at least).
  if (run.stages[0].w == 0) return false;
  take(run, now_);
  const std::string_view bytes(reinterpret_cast<const char*>(now_.state.data()),
                               now_.state.size() * sizeof(std::int32_t));
  const std::size_t hash = std::hash<std::string_view>{}(bytes);
  const auto [first, last] = seen_.equal_range(hash);
  for (auto it = first; it != last; ++it) {
    if (it->second.state == now_.state) {
      move(run, it->second);
      return true;  // moved, or the repeat showed too late to skip a whole cycle (later ones would be later still)
    }
  }
  // Each kept state costs its numbers and about 128 bytes of bookkeeping (counted as 32 numbers).
  const std::size_t cost = now_.state.size() + 32;
  if (kept_numbers_ + cost > kKeptNumbers) return true;  // too big to look further: simulate the rest
  kept_numbers_ += cost;
  seen_.emplace(hash, now_);
  return false;
}

}  // namespace parascope::detail
