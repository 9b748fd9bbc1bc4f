// Compiles a fixed-program pipeline schedule into a dependency graph in evaluation order and finds its steady phase.
#include <algorithm>
#include <stdexcept>
#include <string>

#include "pipeline_compiled.hpp"

namespace parascope::detail {

namespace {

int kind_index(char kind) { return kind == 'F' ? 0 : kind == 'B' ? 1 : 2; }

/// The stack algorithm of simulate_orders without times: a stage runs its program until an op's input is missing,
/// and the op that produces it wakes the stage. The order ops run in respects every dependency, whatever the times.
void order_ops(const PipelineSpec& spec, const PipelineLayout& layout, const StageOrders& orders,
               CompiledPipeline& out) {
  const int p = layout.p, parts = layout.parts;
  const std::size_t table = std::size_t(layout.m) * std::size_t(parts);
  std::vector<std::int32_t> source_f(table, -1), source_b(table, -1);  // position whose end makes the output available
  std::vector<std::int64_t> cursor(orders.begin.begin(), orders.begin.end() - 1);
  std::vector<int> stack;
  std::vector<char> queued(std::size_t(p), 1);
  for (int s = p - 1; s >= 0; --s) stack.push_back(s);
  auto wake = [&](int s) {
    if (!queued[std::size_t(s)]) {
      queued[std::size_t(s)] = 1;
      stack.push_back(s);
    }
  };
  // Appends the input of op c (if it has one) to preds; false while that input is missing.
  auto input = [&](int s, std::int64_t c, std::vector<CompiledPred>& into) {
    const StageOp& op = orders.ops[std::size_t(c)];
    const int mb = op.microbatch, part = layout.part_of(s, op.chunk, mb);
    const std::size_t at = std::size_t(mb) * std::size_t(parts) + std::size_t(part);
    std::int32_t src = -1;
    int cross = 0;
    if (op.kind == 'F') {
      if (part == 0) return true;
      src = source_f[at - 1];
      cross = layout.stage_of(part - 1, mb) != s;
    } else if (op.kind == 'B') {
      if (part + 1 == parts) {
        src = source_f[at];
      } else {
        src = source_b[at + 1];
        cross = layout.stage_of(part + 1, mb) != s;
      }
    } else {
      return true;  // W follows its own B on the same stage
    }
    if (src < 0) return false;
    into.push_back({src, cross});
    return true;
  };
  struct Release {  // an output held back until ops[at_cursor] ends
    std::int64_t at_cursor;
    std::int32_t* slot;
    int notify;
  };
  std::vector<std::vector<Release>> held(static_cast<std::size_t>(p));
  std::vector<CompiledPred> mine;
  out.ops.reserve(orders.ops.size());
  out.preds.reserve(orders.ops.size() + orders.ops.size() / 4);

  while (!stack.empty()) {
    const int s = stack.back();
    stack.pop_back();
    queued[std::size_t(s)] = 0;
    std::int64_t& c = cursor[std::size_t(s)];
    for (; c < orders.begin[std::size_t(s) + 1]; ++c) {
      const StageOp& op = orders.ops[std::size_t(c)];
      mine.clear();
      bool ready = input(s, c, mine);
      for (std::int64_t k = 1; k <= op.fuse && ready; ++k) ready = input(s, c + k, mine);  // a fused call waits for all
      if (!ready) break;
      out.ops.push_back({std::int32_t(c), s, std::int32_t(out.preds.size()), std::uint8_t(mine.size()),
                         std::uint8_t(kind_index(op.kind))});
      out.preds.insert(out.preds.end(), mine.begin(), mine.end());
      const int mb = op.microbatch, part = layout.part_of(s, op.chunk, mb);
      const std::size_t at = std::size_t(mb) * std::size_t(parts) + std::size_t(part);
      auto& pending = held[std::size_t(s)];
      if (op.kind != 'W') {
        std::int32_t* slot = op.kind == 'F' ? &source_f[at] : &source_b[at];
        const int notify = op.kind == 'F' ? (part + 1 < parts ? layout.stage_of(part + 1, mb) : s)
                                          : (part > 0 ? layout.stage_of(part - 1, mb) : s);
        if (op.release == 0) {
          *slot = std::int32_t(c);
          if (notify != s) wake(notify);
        } else {
          pending.push_back({c + op.release, slot, notify});
        }
      }
      for (std::size_t i = 0; i < pending.size();) {
        if (pending[i].at_cursor != c) {
          ++i;
          continue;
        }
        *pending[i].slot = std::int32_t(c);
        if (pending[i].notify != s) wake(pending[i].notify);
        pending[i] = pending.back();
        pending.pop_back();
      }
    }
  }
  for (int s = 0; s < p; ++s) {
    if (cursor[std::size_t(s)] != orders.begin[std::size_t(s) + 1]) {
      throw std::logic_error("pipeline schedule " + std::string(schedule_id(spec.schedule)) + " deadlocks at stage " +
                             std::to_string(s));
    }
  }
}

/// Per stage: F, B, W counts and the most activation sets held at once, in program order (an F holds one; a W, or
/// a B where the backward is not split, frees one).
void count_ops(const PipelineSpec& spec, const StageOrders& orders, CompiledPipeline& out) {
  const bool split = splits_backward(spec.schedule);
  const int p = spec.stages;
  out.counts.assign(std::size_t(p), {0, 0, 0});
  out.peak_activations.assign(std::size_t(p), 0);
  out.kind_at.resize(orders.ops.size());
  for (int s = 0; s < p; ++s) {
    int held = 0;
    for (std::int64_t c = orders.begin[std::size_t(s)]; c < orders.begin[std::size_t(s) + 1]; ++c) {
      const char kind = orders.ops[std::size_t(c)].kind;
      out.kind_at[std::size_t(c)] = std::uint8_t(kind_index(kind));
      ++out.counts[std::size_t(s)][std::size_t(kind_index(kind))];
      if (kind == 'F') {
        out.peak_activations[std::size_t(s)] = std::max(out.peak_activations[std::size_t(s)], ++held);
      } else if (kind == 'W' || !split) {
        --held;
      }
    }
  }
}

/// The repeating unit of each schedule's steady phase: ops per stage per cycle and how far microbatch labels move.
/// 1F1B: one F and one B (Narayanan et al. 2021, Sec. 2.2.1); interleaved: a group of p microbatches through all v
/// chunks, forward and backward (Sec. 2.2.2); ZB-H1: F, B, W (Qi et al. 2024, Fig. 3); DualPipe: step 4's pair of
/// F&B calls, one microbatch from each end (DeepSeek-V3 report, Fig. 5). GPipe has no phase mixing F and B.
bool steady_unit(const PipelineSpec& spec, SteadyPhase& phase) {
  const int p = spec.stages, v = spec.schedule == Schedule::interleaved ? spec.chunks : 1;
  if (spec.forward_only) return false;
  switch (spec.schedule) {
    case Schedule::one_f_one_b: phase.period = 2, phase.label_shift = 1, phase.m_step = 1; return true;
    case Schedule::interleaved:
      if (v == 1) {
        phase.period = 2, phase.label_shift = 1, phase.m_step = 1;
      } else {
        phase.period = 2 * p * v, phase.label_shift = p, phase.m_step = p;
      }
      return true;
    case Schedule::zb_h1: phase.period = 3, phase.label_shift = 1, phase.m_step = 1; return true;
    case Schedule::dualpipe:
      if (p == 1) {
        phase.period = 3, phase.label_shift = 1, phase.m_step = 1;
      } else {
        phase.period = 6, phase.label_shift = 1, phase.m_step = 2;
      }
      return true;
    default: return false;
  }
}

/// Finds each stage's longest run where the program repeats itself one period later with labels shifted, the cuts
/// where a jump is allowed, and what to compare there.
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
    std::sort(cut.crossing.begin(), cut.crossing.end());
    cut.crossing.erase(std::unique(cut.crossing.begin(), cut.crossing.end()), cut.crossing.end());
  }
}

}  // namespace

int steady_m_step(const PipelineSpec& spec) {
  SteadyPhase phase;
  return steady_unit(spec, phase) ? phase.m_step : 0;
}

std::shared_ptr<const CompiledPipeline> compile_pipeline(const PipelineSpec& spec) {
  auto out = std::make_shared<CompiledPipeline>();
  const PipelineLayout layout = make_layout(spec);
  const StageOrders orders = build_orders(spec);
  out->schedule = spec.schedule;
  out->p = spec.stages;
  out->m = spec.microbatches;
  out->v = layout.v;
  out->begin = orders.begin;
  out->chunk_model_fraction = 1.0 / double(layout.parts);
  order_ops(spec, layout, orders, *out);
  count_ops(spec, orders, *out);
  find_steady_phase(spec, orders, *out);
  return out;
}

namespace {

std::vector<std::shared_ptr<const CompiledPipeline>>& cache() {
  thread_local std::vector<std::shared_ptr<const CompiledPipeline>> compiled;  // most recently used last
  return compiled;
}

}  // namespace

void clear_compiled_pipelines() { cache().clear(); }

std::shared_ptr<const CompiledPipeline> compiled_pipeline(const PipelineSpec& spec) {
  constexpr std::size_t kCacheSize = 16;
  auto& cache = parascope::detail::cache();
  const int v = spec.schedule == Schedule::interleaved ? spec.chunks : 1;
  for (std::size_t i = 0; i < cache.size(); ++i) {
    const CompiledPipeline& c = *cache[i];
    if (c.schedule == spec.schedule && c.p == spec.stages && c.m == spec.microbatches && c.v == v) {
      std::rotate(cache.begin() + std::ptrdiff_t(i), cache.begin() + std::ptrdiff_t(i) + 1, cache.end());
      return cache.back();
    }
  }
  auto compiled = compile_pipeline(spec);
  if (cache.size() == kCacheSize) cache.erase(cache.begin());
  cache.push_back(compiled);
  return compiled;
}

}  // namespace parascope::detail
