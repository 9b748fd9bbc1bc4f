// The cost model's pipeline schedule: the core's op times timed by the pipeline engine (with a memo for the planner's
// search), the sends on its critical path, the schedule's rules checked untimed, and the makespan's lower bound.
#include <algorithm>
#include <cstddef>
#include <limits>
#include <unordered_map>

#include "exact_key.hpp"
#include "pipeline_detail.hpp"
#include "step_core.hpp"

namespace parascope::detail {

namespace {

/// The schedule of `spec` and the seconds its makespan spends on sends (Scheduled).
Scheduled schedule(const PipelineSpec& spec, bool with_sends) {
  const double comm = spec.times.comm;
  // A refused schedule throws PipelineError (the op layer names the request field at fault).
  Scheduled out{pipeline_metrics(spec), 0.0};
  if (comm > 0 && out.metrics.critical_sends >= 0) {
    out.sends = double(out.metrics.critical_sends) * comm;
  } else if (comm > 0 && !with_sends) {
    out.sends = std::numeric_limits<double>::quiet_NaN();
  } else if (comm > 0) {
    PipelineSpec silent = spec;
    silent.times.comm = 0;
    out.sends = out.metrics.makespan - pipeline_metrics(silent).makespan;
  }
  return out;
}

}  // namespace

/// Pipeline timings already done in one search, by their exact inputs: the schedule, p, m, v, the bits of f, b, w
/// and the send time, and whether sends were timed apart. Equal keys give the same spec, hence the same metrics.
struct PipelineMemo {
  struct Key {
    std::int64_t schedule, stages, microbatches, chunks, with_sends;
    std::uint64_t f, b, w, comm;
    bool operator==(const Key& o) const {
      return schedule == o.schedule && stages == o.stages && microbatches == o.microbatches && chunks == o.chunks &&
             with_sends == o.with_sends && f == o.f && b == o.b && w == o.w && comm == o.comm;
    }
  };
  struct Hash {
    std::size_t operator()(const Key& k) const {
      const std::uint64_t words[] = {std::uint64_t(k.schedule),
                                     std::uint64_t(k.stages),
                                     std::uint64_t(k.microbatches),
                                     std::uint64_t(k.chunks),
                                     std::uint64_t(k.with_sends),
                                     k.f,
                                     k.b,
                                     k.w,
                                     k.comm};
      const std::uint64_t h = hash_words(words, sizeof words / sizeof words[0]);
      return std::size_t(h ^ (h >> 32));
    }
  };
  /// At most this many timings are kept (the search reuses them within a split and a microbatch size, where only
  /// recompute, sequence parallelism and precision change): the memo is emptied when full, bounding its memory.
  static constexpr std::size_t kCapacity = 512;
  std::unordered_map<Key, Scheduled, Hash> done;
};
void PipelineMemoDeleter::operator()(PipelineMemo* memo) const { delete memo; }
PipelineMemoPtr make_pipeline_memo() { return PipelineMemoPtr(new PipelineMemo); }

PipelineSpec core_spec(const TrainingRun& run, const StepCore& c) {
  PipelineSpec spec = pipeline_spec_of(run.parallel);
  spec.times = {c.max_f, c.max_b - c.w_part, c.w_part, c.p2p};
  spec.record_ops = false;
  return spec;
}

void schedule_core(const TrainingRun& run, StepCore& c, bool with_sends, PipelineMemo* memo) {
  const ParallelConfig& p = run.parallel;
  const PipelineSpec spec = core_spec(run, c);
  if (memo == nullptr) {
    c.scheduled = schedule(spec, with_sends);
  } else {
    const PipelineTimes& t = spec.times;
    const PipelineMemo::Key key{std::int64_t(p.schedule), p.pp,
                                p.microbatches(),         p.vpp,
                                with_sends ? 1 : 0,       double_bits(t.f),
                                double_bits(t.b),         double_bits(t.w),
                                double_bits(t.comm)};
    const auto found = memo->done.find(key);
    if (found != memo->done.end()) {
      c.scheduled = found->second;
    } else {
      c.scheduled = schedule(spec, with_sends);
      if (memo->done.size() >= PipelineMemo::kCapacity) memo->done.clear();
      memo->done.emplace(key, c.scheduled);
    }
  }
  const PipelineMetrics& with_comm = c.scheduled.metrics;
  c.busy = *std::max_element(with_comm.busy.begin(), with_comm.busy.end());
  c.r.pipeline_makespan = with_comm.makespan;
  c.scheduled_done = true;
}

void schedule_step_core(const TrainingRun& run, StepCore& core, bool with_sends, PipelineMemo* memo) {
  if (!core.scheduled_done) schedule_core(run, core, with_sends, memo);
}

void check_step_core(const TrainingRun& run, const StepCore& core) { check_pipeline_metrics(core_spec(run, core)); }

PipelineSpec pipeline_spec_of(const ParallelConfig& p) {
  PipelineSpec spec;
  spec.schedule = p.schedule;
  spec.stages = int(p.pp);
  spec.microbatches = int(p.microbatches());
  spec.chunks = int(p.vpp);
  return spec;
}

double makespan_lower_bound(const TrainingRun& run, const StepCore& c) {
  // The schedule's own floor (pipeline_bound.cpp: busy time plus the fill and drain no timeline avoids), at the op
  // times schedule_core will time, less 10^-9 of it for the rounding of the simulation's sums.
  const double floor = makespan_floor(core_spec(run, c));
  return floor - 1e-9 * floor;
}

}  // namespace parascope::detail
