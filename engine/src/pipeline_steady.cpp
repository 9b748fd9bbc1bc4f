// pipeline_metrics() for long schedules: time a short copy of the schedule, find where its state repeats exactly, and
// add the missing steady cycles (each shifts every later op by the same step), instead of simulating every op.
#include <algorithm>
#include <cmath>
#include <optional>

#include "pipeline_compiled.hpp"

namespace parascope::detail {

namespace {

/// Op end times and the sends on each op's critical chain, by position; the per-stage state at the end of the pass.
struct Timed {
  std::vector<double> end;
  std::vector<std::int32_t> sends;
  std::vector<double> first, last;  ///< per stage: first op's start, last op's end
  std::vector<std::int32_t> last_sends;
};

/// One pass over the compiled graph: the same rules as simulate_orders (an op starts when its stage is free and its
/// inputs are there; a tie between the two counts as waiting for the stage), so the same times and send counts.
void time_ops(const CompiledPipeline& c, const PipelineTimes& t, Timed& out) {
  const double duration[3] = {t.f, t.b, t.w};
  const double send[2] = {0.0, t.comm};
  const std::size_t p = std::size_t(c.p);
  out.end.resize(c.kind_at.size());
  out.sends.resize(c.kind_at.size());
  out.last.assign(p, 0.0);
  out.last_sends.assign(p, 0);
  double* end = out.end.data();
  std::int32_t* sends_at = out.sends.data();
  double* last = out.last.data();
  std::int32_t* last_sends = out.last_sends.data();
  const CompiledPred* preds = c.preds.data();
  for (const CompiledOp& op : c.ops) {  // selects rather than branches: which input is later varies op to op
    double ready = 0;
    std::int32_t sends = 0;
    for (const CompiledPred* in = preds + op.first_pred; in != preds + op.first_pred + op.pred_count; ++in) {
      const double arrives = end[in->source] + send[in->cross];
      const std::int32_t chain = sends_at[in->source] + in->cross;
      const bool later = arrives > ready;
      sends = later ? chain : sends;
      ready = later ? arrives : ready;
    }
    const std::size_t s = std::size_t(op.stage);
    const bool stage_later = last[s] >= ready;
    sends = stage_later ? last_sends[s] : sends;
    ready = stage_later ? last[s] : ready;
    const double finish = ready + duration[op.kind];
    end[op.pos] = finish;
    sends_at[op.pos] = sends;
    last[s] = finish;
    last_sends[s] = sends;
  }
  out.first.resize(p);  // each stage's first op starts its duration before it ends
  for (std::size_t s = 0; s < p; ++s) {
    const auto first = std::size_t(c.begin[s]);
    out.first[s] = end[first] - duration[c.kind_at[first]];
  }
}

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
PipelineMetrics metrics_of(const CompiledPipeline& c, const PipelineTimes& t, const Timed& timed, std::int64_t cycles,
                           double shift, std::int64_t sends) {
  PipelineMetrics out;
  const std::size_t p = std::size_t(c.p);
  const double duration[3] = {t.f, t.b, t.w};
  out.busy.assign(p, 0.0);
  std::vector<double> last(timed.last);
  double useful = 0, spans = 0;
  for (std::size_t s = 0; s < p; ++s) {
    for (std::size_t k = 0; k < 3; ++k) {
      const auto per_cycle = cycles > 0 ? c.steady.cycle_counts[s][k] : 0;
      out.busy[s] += double(c.counts[s][k] + cycles * per_cycle) * duration[k];
    }
    last[s] += shift;
    out.makespan = std::max(out.makespan, last[s]);
    useful += out.busy[s];
    spans += last[s] - timed.first[s];
  }
  const double capacity = double(p) * out.makespan;
  out.bubble_fraction = capacity > 0 ? 1 - useful / capacity : 0;
  out.steady_bubble_fraction = spans > 0 ? 1 - useful / spans : 0;
  out.peak_activations = c.peak_activations;
  out.chunk_model_fraction = c.chunk_model_fraction;
  const auto critical = std::size_t(std::max_element(last.begin(), last.end()) - last.begin());
  out.critical_sends = timed.last_sends[critical] + sends;
  return out;
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
    case Schedule::dualpipe: lower = p == 1 ? cycles : 2 * (p + cycles + 1); break;
    default: lower = p - 1 + cycles; break;
  }
  const int m = spec.microbatches;
  if (lower >= m) return m;
  const int modulus = m_step * std::max(1, p / m_step);
  const int size = lower + (m - lower) % modulus;
  return size <= m ? size : lower + (m - lower) % m_step;
}

}  // namespace

std::optional<PipelineMetrics> steady_pipeline_metrics(const PipelineSpec& spec, SteadyPathInfo* info) {
  const int m_step = steady_m_step(spec);
  if (m_step == 0) return std::nullopt;
  const int m = spec.microbatches;
  thread_local Timed timed;
  // Cycles the copy gets: enough for a repeat as long as the pipeline plus a settling time (1F1B with sends repeats
  // every p microbatches, one microbatch's trip down and back, after about p), then more if none shows.
  const int first = std::max(6, (spec.stages + 8 + m_step - 1) / m_step);
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
        return metrics_of(*c, spec.times, timed, 0, 0, 0);
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
      return metrics_of(*c, spec.times, timed, added, double(repeats) * repeat->time, repeats * repeat->sends);
    }
  }
  return std::nullopt;  // no exact repeat found: the caller simulates every op
}

}  // namespace parascope::detail
