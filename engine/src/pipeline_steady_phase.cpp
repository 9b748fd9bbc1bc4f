// Where a compiled schedule's steady phase repeats: each stage's repeating run of ops, and the cuts across all stages
// where the rest of the run depends only on what stands at the cut (pipeline_steady.cpp times and compares them).
#include <algorithm>

#include "pipeline_compiled.hpp"
#include "schedule_registry.hpp"

namespace parascope::detail {

namespace {

/// The repeating unit of a schedule's steady phase (the registry's steady_unit); none when only the forward half runs.
bool steady_unit(const PipelineSpec& spec, SteadyPhase& phase) {
  if (spec.forward_only) return false;
  const auto unit = schedule_entry(spec.schedule).steady_unit;
  return unit && unit(spec, phase);
}

/// Finds each stage's longest run where the program repeats itself one period later with labels shifted, the cuts
/// where a jump is allowed, and what to compare there.
}  // namespace

// The repeating units: ops per stage per cycle and how far microbatch labels move. 1F1B: one F and one B (Narayanan
// et al. 2021, Sec. 2.2.1); interleaved: a group of p microbatches through all v chunks, forward and backward (Sec.
// 2.2.2); ZB-H1: F, B, W (Qi et al. 2024, Fig. 3); DualPipe: step 4's pair of F&B calls, one microbatch from each end
// (DeepSeek-V3 report, Fig. 5). GPipe has no phase mixing F and B; ZB-H2 is decided while simulating.
bool one_f_one_b_steady(const PipelineSpec&, SteadyPhase& phase) {
  phase.period = 2, phase.label_shift = 1, phase.m_step = 1;
  return true;
}

bool interleaved_steady(const PipelineSpec& spec, SteadyPhase& phase) {
  const int p = spec.stages, v = spec.chunks;
  if (v == 1) {
    phase.period = 2, phase.label_shift = 1, phase.m_step = 1;
  } else {
    phase.period = 2 * p * v, phase.label_shift = p, phase.m_step = p;
  }
  return true;
}

bool zb_h1_steady(const PipelineSpec&, SteadyPhase& phase) {
  phase.period = 3, phase.label_shift = 1, phase.m_step = 1;
  return true;
}

bool dualpipe_steady(const PipelineSpec& spec, SteadyPhase& phase) {
  if (spec.stages % 2 != 0) return false;  // refused by validation (pipeline_metrics times one stage as ZB-H1)
  phase.period = 6, phase.label_shift = 1, phase.m_step = 2;
  return true;
}

void find_steady_phase(const PipelineSpec& spec, const StageOrders& orders, CompiledPipeline& out) {
  SteadyPhase& phase = out.steady;
  if (!steady_unit(spec, phase)) return;
  const int p = spec.stages, period = phase.period;
  auto repeats = [&](std::int64_t c) {
    const StageOp& a = orders.ops[std::size_t(c)];
    const StageOp& b = orders.ops[std::size_t(c + period)];
    return a.kind == b.kind && a.chunk == b.chunk && a.fuse == b.fuse && a.release == b.release &&
           a.microbatch + phase.label_shift == b.microbatch;
  };
  phase.start.assign(std::size_t(p), 0);
  phase.cycle_counts.assign(std::size_t(p), {0, 0, 0});
  std::vector<int> cycles(std::size_t(p), 0);
  for (int s = 0; s < p; ++s) {
    const std::int64_t lo = orders.begin[std::size_t(s)], hi = orders.begin[std::size_t(s) + 1] - period;
    std::int64_t best_start = lo, best_length = -1;
    for (std::int64_t c = lo; c < hi;) {
      if (!repeats(c)) {
        ++c;
        continue;
      }
      std::int64_t e = c;
      while (e < hi && repeats(e)) ++e;
      if (e - c > best_length) best_start = c, best_length = e - c;
      c = e;
    }
    if (best_length < 0) return;  // this stage never repeats: no steady phase
    phase.start[std::size_t(s)] = best_start;
    cycles[std::size_t(s)] = int(best_length / period) + 1;
    for (std::int64_t c = best_start; c < best_start + period; ++c) {
      ++phase.cycle_counts[std::size_t(s)][out.kind_at[std::size_t(c)]];
    }
    const auto& cc = phase.cycle_counts[std::size_t(s)];
    const bool split = splits_backward(spec.schedule);
    if (cc[0] != (split ? cc[2] : cc[1])) return;  // activations held would grow cycle by cycle
  }
  phase.cycles = *std::min_element(cycles.begin(), cycles.end());
  const int n = phase.cycles;
  if (n < 3) {
    phase.cycles = 0;
    return;
  }

  // Cycle index of a position: −1 before the phase, n + 1 after this stage's cycles (any index past n is after every
  // cut considered).
  std::vector<int> stage_at(out.kind_at.size());
  for (int s = 0; s < p; ++s) {
    for (std::int64_t c = orders.begin[std::size_t(s)]; c < orders.begin[std::size_t(s) + 1]; ++c) {
      stage_at[std::size_t(c)] = s;
    }
  }
  auto cycle_of = [&](std::int32_t pos) {
    const int s = stage_at[std::size_t(pos)];
    const std::int64_t d = pos - phase.start[std::size_t(s)];
    if (d < 0) return -1;
    const std::int64_t k = d / period;
    return k < cycles[std::size_t(s)] ? int(std::min<std::int64_t>(k, n + 1)) : n + 1;
  };
  // Sources read across each cut K, and cuts something before them waits across (not open).
  phase.cuts.assign(std::size_t(n) + 1, SteadyPhase::Cut{true, n + 1, {}});
  for (const CompiledOp& op : out.ops) {
    const int consumer = cycle_of(op.pos);
    for (int i = 0; i < op.pred_count; ++i) {
      const std::int32_t source = out.preds[std::size_t(op.first_pred + i)].source;
      const int produced = cycle_of(source);
      for (int k = std::max(produced + 1, 0); k <= std::min(consumer, n); ++k) {
        SteadyPhase::Cut& cut = phase.cuts[std::size_t(k)];
        cut.crossing.push_back(source);
        cut.oldest = std::min(cut.oldest, produced);
      }
      for (int k = std::max(consumer + 1, 0); k <= std::min(produced, n); ++k) phase.cuts[std::size_t(k)].open = false;
    }
  }
  for (SteadyPhase::Cut& cut : phase.cuts) {
    // A heap sort: the same sorted list as std::sort (equal ints are alike), in a fraction of its code in the wasm
    std::make_heap(cut.crossing.begin(), cut.crossing.end());
    std::sort_heap(cut.crossing.begin(), cut.crossing.end());
    cut.crossing.erase(std::unique(cut.crossing.begin(), cut.crossing.end()), cut.crossing.end());
  }
}

int steady_m_step(const PipelineSpec& spec) {
  SteadyPhase phase;
  return steady_unit(spec, phase) ? phase.m_step : 0;
}

}  // namespace parascope::detail
