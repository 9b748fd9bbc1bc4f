// pipeline_metrics() for long schedules: time a short copy of the schedule, find where its state repeats exactly, and
// add the missing steady cycles (each shifts every later op by the same step), instead of simulating every op.
#include <algorithm>
#include <cmath>
#include <optional>

#include "pipeline_compiled.hpp"

namespace parascope::detail {

namespace {

/// The run repeats every `every` cycles from cut `cut` on, each repeat adding `time` and `sends` to every op.
struct Repeat {
  int cut, every;
  double time;
  std::int32_t sends;
};

/// Whether the state at cut k is the state at cut k − r shifted by r cycles: the same ops (r periods apart) stand at
/// the cut, and every one of them ends one common step later and has one common number of sends more on its chain.
bool repeats(const CompiledPipeline& c, const Timed& timed, int k, int r, Repeat& out) {
  const SteadyPhase& phase = c.steady;
  const SteadyPhase::Cut& now = phase.cuts[std::size_t(k)];
  const SteadyPhase::Cut& before = phase.cuts[std::size_t(k - r)];
  if (!now.open || !before.open || now.oldest < r || now.crossing.size() != before.crossing.size()) return false;
  const std::int32_t shift = r * phase.period;
  const std::int32_t y0 = std::int32_t(phase.start[0] + std::int64_t(k) * phase.period - 1);
  out = {k, r, timed.end[std::size_t(y0)] - timed.end[std::size_t(y0 - shift)],
         timed.sends[std::size_t(y0)] - timed.sends[std::size_t(y0 - shift)]};
  auto same_step = [&](std::int32_t y) {
    const double at = timed.end[std::size_t(y)], earlier = timed.end[std::size_t(y - shift)];
    // Equal up to rounding: each end is a sum of up to tens of thousands of durations.
    return std::abs((at - earlier) - out.time) <= 1e-9 * at &&
           timed.sends[std::size_t(y)] - timed.sends[std::size_t(y - shift)] == out.sends;
  };
  for (std::size_t s = 1; s < phase.start.size(); ++s) {  // each stage's last op before the cut (fails soonest)
    if (!same_step(std::int32_t(phase.start[s] + std::int64_t(k) * phase.period - 1))) return false;
  }
  for (std::size_t i = 0; i < now.crossing.size(); ++i) {  // the same sources, r cycles apart
    if (now.crossing[i] - shift != before.crossing[i]) return false;
  }
  for (const std::int32_t y : now.crossing) {
    if (!same_step(y)) return false;
  }
  return true;
}

/// The shortest repeat at one of the last cuts (the state there has had the longest to settle), if any.
std::optional<Repeat> find_repeat(const CompiledPipeline& c, const Timed& timed) {
  const int n = c.steady.cycles;
  Repeat found{};
  for (int k = n; k >= std::max(2, n - 2); --k) {
    for (int r = 1; r < k; ++r) {
      if (repeats(c, timed, k, r, found)) return found;
    }
  }
  return std::nullopt;
}

/// The metrics of the timed copy with `cycles` more steady cycles, which move every later op by `shift` (time) and
/// add `sends` to the critical chain.
PipelineMetrics extended_metrics(const CompiledPipeline& c, const PipelineTimes& t, const Timed& timed,
                                 std::int64_t cycles, double shift, std::int64_t sends) {
  const double duration[3] = {t.f, t.b, t.w};
  std::vector<double> busy(timed.busy), last(timed.last);
  for (std::size_t s = 0; s < busy.size(); ++s) {
    for (std::size_t k = 0; k < 3; ++k) busy[s] += double(cycles * c.steady.cycle_counts[s][k]) * duration[k];
    last[s] += shift;
  }
  return timed_metrics(c, timed, busy, last, sends);
}

/// The fewest microbatches whose schedule has `cycles` complete steady cycles and which leave a whole number of
/// likely repeats to add: the copy is congruent to m modulo p microbatches (1F1B with sends repeats every p cycles,
/// DualPipe every p/2 of its 2-microbatch cycles, the others every cycle), so the repeat found usually divides them.
int short_copy_size(const PipelineSpec& spec, int m_step, int cycles) {
  const int p = spec.stages, v = spec.chunks;
  int lower = 0;
  switch (spec.schedule) {
    case Schedule::interleaved:
      lower = v == 1 ? p - 1 + cycles : p * (cycles + 3 + (2 * p + v * p) / (p * v));
      break;
    case Schedule::dualpipe:
      lower = 2 * (p + cycles + 1);
      break;
    default:
      lower = p - 1 + cycles;
      break;
  }
  const int m = spec.microbatches;
  if (lower >= m) return m;
  const int modulus = m_step * std::max(1, p / m_step);  // a multiple of m_step, so whole cycles are left to add
  return lower + (m - lower) % modulus;
}

}  // namespace

namespace {

/// The times of the last short copy, kept between calls so a widget's next answer allocates nothing.
Timed& steady_timed() {
  thread_local Timed timed;
  return timed;
}

}  // namespace

void release_large_steady_times() {
  if (steady_timed().end.capacity() > kKeptCompiledOps) steady_timed() = Timed{};
}

namespace {

/// Cycles the copy gets first: enough for a repeat as long as the pipeline plus a settling time (1F1B with sends
/// repeats every p microbatches, one microbatch's trip down and back, after about p), then more if none shows.
int first_cycles(const PipelineSpec& spec, int m_step) { return std::max(6, (spec.stages + 8 + m_step - 1) / m_step); }

}  // namespace

bool steady_path_times_whole(const PipelineSpec& spec) {
  const int m_step = steady_m_step(spec);
  return m_step == 0 || short_copy_size(spec, m_step, first_cycles(spec, m_step)) >= spec.microbatches;
}

std::optional<PipelineMetrics> steady_pipeline_metrics(const PipelineSpec& spec, SteadyPathInfo* info) {
  const int m_step = steady_m_step(spec);
  if (m_step == 0) return std::nullopt;
  const int m = spec.microbatches;
  Timed& timed = steady_timed();
  const int first = first_cycles(spec, m_step);
  for (const int wanted : {first, 2 * first, 4 * first}) {
    PipelineSpec copy = spec;
    copy.microbatches = short_copy_size(spec, m_step, wanted);
    std::shared_ptr<const CompiledPipeline> c = compiled_pipeline(copy);
    while (copy.microbatches < m && c->steady.cycles < wanted) {  // the estimate fell short: grow the copy
      copy.microbatches = std::min(m, copy.microbatches + m_step * (wanted - c->steady.cycles));
      c = compiled_pipeline(copy);
    }
    for (int attempt = 0; attempt < 2; ++attempt) {
      time_ops(*c, spec.times, timed);
      if (copy.microbatches == m) {  // short enough to time whole
        if (info) *info = {m, 0, 0, 0};
        return timed_metrics(*c, timed, timed.busy, timed.last);
      }
      const auto repeat = find_repeat(*c, timed);
      if (!repeat) break;
      const std::int64_t added = (m - copy.microbatches) / m_step;
      if (added % repeat->every != 0) {  // add whole repeats only: grow the copy by the remainder and look again
        copy.microbatches += int(added % repeat->every) * m_step;
        c = compiled_pipeline(copy);
        continue;
      }
      const std::int64_t repeats = added / repeat->every;
      if (info) *info = {copy.microbatches, repeat->cut, repeat->every, added};
      return extended_metrics(*c, spec.times, timed, added, double(repeats) * repeat->time, repeats * repeat->sends);
    }
  }
  return std::nullopt;  // no exact repeat found: the caller simulates every op
}

}  // namespace parascope::detail
