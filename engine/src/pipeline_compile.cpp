// Runs fixed-program pipeline schedules in dependency order: timing every op as it runs (the drawn timeline), or
// compiling the dependency graph once (the cost model times it again and again) and finding its steady phase.
#include <algorithm>
#include <stdexcept>
#include <string>

#include "pipeline_compiled.hpp"

namespace parascope::detail {

namespace {

int kind_index(char kind) { return kind == 'F' ? 0 : kind == 'B' ? 1 : 2; }

/// Runs the programs in an order that respects every dependency, whatever the times: a stage runs its program until
/// an op's input is missing, and the op that produces it wakes the stage. visit(stage, position, inputs, count) is
/// called for each op as it runs, with the positions of the ops whose ends make its inputs available (a fused call
/// lists its members' inputs too; a held-back output names the op it waits for).
template <class Visit>
void run_programs(const PipelineSpec& spec, const PipelineLayout& layout, const StageOrders& orders, Visit&& visit) {
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
      visit(s, c, mine.data(), int(mine.size()));
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

}  // namespace

namespace {

/// Everything about the programs but the graph: shape, counts, activations in flight.
CompiledPipeline program_facts(const PipelineSpec& spec, const PipelineLayout& layout, const StageOrders& orders) {
  CompiledPipeline out;
  out.schedule = spec.schedule;
  out.p = spec.stages;
  out.m = spec.microbatches;
  out.v = layout.v;
  out.parts = layout.parts;
  out.begin = orders.begin;
  count_ops(spec, orders, out);
  return out;
}

}  // namespace

CompiledPipeline compile_program(const PipelineSpec& spec, const PipelineLayout& layout, const StageOrders& orders) {
  CompiledPipeline out = program_facts(spec, layout, orders);
  out.ops.reserve(orders.ops.size());
  out.preds.reserve(orders.ops.size() + orders.ops.size() / 4);
  run_programs(spec, layout, orders, [&](int s, std::int64_t c, const CompiledPred* in, int count) {
    out.ops.push_back(
        {std::int32_t(c), s, std::int32_t(out.preds.size()), std::uint8_t(count), out.kind_at[std::size_t(c)]});
    out.preds.insert(out.preds.end(), in, in + count);
  });
  return out;
}

PipelineResult simulate_programs(const PipelineSpec& spec, const PipelineLayout& layout, const StageOrders& orders) {
  const CompiledPipeline facts = program_facts(spec, layout, orders);
  Timed timed;
  Clock clock(spec.times, timed, orders.begin);
  PipelineResult result;
  if (spec.record_ops) result.ops.resize(orders.ops.size());
  run_programs(spec, layout, orders, [&](int s, std::int64_t c, const CompiledPred* in, int count) {
    const double start = clock.run(s, facts.kind_at[std::size_t(c)], std::int32_t(c), in, in + count);
    if (spec.record_ops) {
      const StageOp& op = orders.ops[std::size_t(c)];
      result.ops[std::size_t(c)] = {s, op.microbatch, op.kind, int(op.chunk), start, timed.end[std::size_t(c)]};
    }
  });
  add_busy(facts, spec.times, timed);
  result.metrics = timed_metrics(facts, timed, timed.busy, timed.last);
  return result;
}

std::shared_ptr<const CompiledPipeline> compile_pipeline(const PipelineSpec& spec) {
  const StageOrders orders = build_orders(spec);
  auto out = std::make_shared<CompiledPipeline>(compile_program(spec, make_layout(spec), orders));
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

void trim_compiled_pipelines() {
  release_large_steady_times();
  auto& cache = parascope::detail::cache();
  std::size_t kept = 0;
  for (std::size_t i = cache.size(); i-- > 0;) {  // newest first
    kept += cache[i]->ops.size();
    if (kept > kKeptCompiledOps) {
      cache.erase(cache.begin(), cache.begin() + std::ptrdiff_t(i) + 1);
      break;
    }
  }
}

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
