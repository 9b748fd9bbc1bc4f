/// A fixed-program pipeline schedule compiled once per shape (schedule, p, m, v): its dependency graph in an order
/// that respects every dependency, so that timing it is one pass over arrays, and where its steady phase repeats.
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <limits>
#include <memory>
#include <optional>
#include <vector>

#include "pipeline_detail.hpp"

namespace parascope::detail {

/// One op of the compiled graph, in evaluation order. Its start is the later of its stage's previous op's end and
/// its inputs' arrival (a source op's end, plus comm when it ran on another stage).
struct CompiledOp {
  std::int32_t pos;  ///< position in the concatenated stage programs (StageOrders::ops)
  std::int32_t stage;
  std::int32_t first_pred;  ///< this op's inputs are preds[first_pred .. first_pred + pred_count)
  std::uint8_t pred_count;
  std::uint8_t kind;  ///< 0 F, 1 B, 2 W: index into the durations {f, b, w}
};

/// An input: the op whose end makes it available (for a held-back output, the op it waits for) and whether it
/// crosses stages (and so pays comm).
struct CompiledPred {
  std::int32_t source;  ///< position of the source op
  std::int32_t cross;   ///< 1 when the source ran on another stage, else 0
};

/// Where the steady phase repeats: on stage s, ops [start[s] + k·period, start[s] + (k+1)·period) for k < cycles are
/// the same ops as cycle 0 with every microbatch index raised by k·label_shift. One more cycle means m + m_step.
struct SteadyPhase {
  int period = 0;       ///< ops per cycle on each stage
  int label_shift = 0;  ///< microbatch labels advance this much per cycle
  int m_step = 0;       ///< microbatches per cycle (DualPipe: one in each direction, so 2)
  int cycles = 0;       ///< complete cycles every stage has (the fewest over stages)
  std::vector<std::int64_t> start;
  std::vector<std::array<int, 3>> cycle_counts;  ///< per stage: F, B, W ops in one cycle
  /// The cut after K cycles on every stage (K = 0..cycles). What the rest of the run depends on there is each
  /// stage's last op before the cut and the sources read across it. If nothing before the cut waits for anything after
  /// it (`open`), and at cuts K and K−r those are the same ops r cycles apart whose times differ by one common step,
  /// the run repeats every r cycles from there on (the ops of each cycle being the previous cycle's, shifted).
  struct Cut {
    bool open = false;
    int oldest = 0;                      ///< the earliest cycle a source read across the cut was produced in
    std::vector<std::int32_t> crossing;  ///< positions of sources read across the cut, ascending
  };
  std::vector<Cut> cuts;
};

struct CompiledPipeline {
  Schedule schedule;
  int p, m, v;
  std::vector<CompiledOp> ops;  ///< in evaluation order
  std::vector<CompiledPred> preds;
  std::vector<std::int64_t> begin;         ///< per stage: first position; begin[p] = total
  std::vector<std::uint8_t> kind_at;       ///< per position: 0 F, 1 B, 2 W
  std::vector<std::array<int, 3>> counts;  ///< per stage: F, B, W ops
  std::vector<int> peak_activations;       ///< per stage (depends on the program order only, not on times)
  int parts = 1;                           ///< model parts a microbatch passes through (p·v)
  SteadyPhase steady;                      ///< cycles == 0 when the schedule has no repeating phase
};

/// The dependency graph of these programs (times are ignored; no steady phase looked for). Throws std::logic_error if
/// they deadlock (a bug in an order generator).
CompiledPipeline compile_program(const PipelineSpec& spec, const PipelineLayout& layout, const StageOrders& orders);

/// Fills c.steady: where the programs repeat and the cuts a repeat can be checked at (cycles = 0 when none).
void find_steady_phase(const PipelineSpec& spec, const StageOrders& orders, CompiledPipeline& c);

/// compile_program on the spec's own programs, plus where their steady phase repeats.
std::shared_ptr<const CompiledPipeline> compile_pipeline(const PipelineSpec& spec);

/// compile_pipeline through a small per-thread cache keyed by (schedule, p, m, v): a planner asks for few shapes.
std::shared_ptr<const CompiledPipeline> compiled_pipeline(const PipelineSpec& spec);
/// Empties this thread's cache (the benchmark's cold figures).
void clear_compiled_pipelines();
/// The most ops of compiled programs (and of the steady path's kept times) that stay in memory between requests.
constexpr std::size_t kKeptCompiledOps = std::size_t(1) << 16;
/// Drops compiled programs from the cache, oldest first, until those kept hold at most kKeptCompiledOps ops
/// together, and the steady path's kept times when larger: a big schedule's program (up to 10^6 ops, tens of MB) does
/// not outlive the request that needed it. api.cpp calls it after every request, so the wasm heap (which never
/// shrinks) is not held by old programs under the next request's peak.
void trim_compiled_pipelines();
/// The steady path's times kept between calls (pipeline_steady.cpp) released when they hold over kKeptCompiledOps.
void release_large_steady_times();

/// A timing of a compiled graph: per position, each op's end and the stage-to-stage sends on the chain of waits that
/// set it; per stage, busy time, first start (+∞ before any op), last end and that last op's sends.
struct Timed {
  std::vector<double> end;
  std::vector<std::int32_t> sends;
  std::vector<double> busy, first, last;
  std::vector<std::int32_t> last_sends;
};

/// The timing rule, one op at a time: an op starts when its stage is free and its inputs have arrived (plus comm from
/// another stage); a tie counts as waiting for the stage. Each op inherits the send count of whatever it waited for
/// last (its input, plus one if that crossed stages, or its stage's previous op), so the last op's count × comm is
/// the time the makespan spends on sends. Ops must come in an order that respects their dependencies.
class Clock {
 public:
  /// Sizes `out` for the programs' ops (stage s holds positions begin[s] .. begin[s+1] − 1) and times into it.
  Clock(const PipelineTimes& t, Timed& out, const std::vector<std::int64_t>& begin)
      : duration_{t.f, t.b, t.w}, send_{0.0, t.comm} {
    const std::size_t stages = begin.size() - 1;
    out.end.resize(std::size_t(begin.back()));
    out.sends.resize(std::size_t(begin.back()));
    out.first.assign(stages, std::numeric_limits<double>::infinity());
    out.last.assign(stages, 0.0);
    out.last_sends.assign(stages, 0);
    end_ = out.end.data(), sends_ = out.sends.data(), first_ = out.first.data();
    last_ = out.last.data(), last_sends_ = out.last_sends.data();
  }

  /// Times the op at `pos` (kind 0 F, 1 B, 2 W) on `stage`, whose inputs come from [in, in_end); returns its start.
  double run(int stage, int kind, std::int32_t pos, const CompiledPred* in, const CompiledPred* in_end) {
    double ready = 0;
    std::int32_t sends = 0;
    for (; in != in_end; ++in) {  // selects rather than branches: which input is later varies op to op
      const double arrives = end_[in->source] + send_[in->cross];
      const std::int32_t chain = sends_[in->source] + in->cross;
      const bool later = arrives > ready;
      sends = later ? chain : sends;
      ready = later ? arrives : ready;
    }
    const std::size_t s = std::size_t(stage);
    const bool stage_later = last_[s] >= ready;
    sends = stage_later ? last_sends_[s] : sends;
    ready = stage_later ? last_[s] : ready;
    first_[s] = std::min(first_[s], ready);  // a stage's starts only grow: the least is its first
    const double finish = ready + duration_[kind];
    end_[pos] = finish;
    sends_[pos] = sends;
    last_[s] = finish;
    last_sends_[s] = sends;
    return ready;
  }

 private:
  double duration_[3], send_[2];
  double *end_, *first_, *last_;
  std::int32_t *sends_, *last_sends_;
};

/// Each stage's busy time: its F, B and W counts times their durations.
void add_busy(const CompiledPipeline& c, const PipelineTimes& t, Timed& out);

/// Times every op of a compiled graph (one pass over arrays), then adds up busy time.
void time_ops(const CompiledPipeline& c, const PipelineTimes& t, Timed& out);

/// Times every op of the programs while running them in dependency order, without keeping a graph: the `pipeline`
/// op's timeline (every op once, recorded when spec.record_ops). Throws std::logic_error if they deadlock.
PipelineResult simulate_programs(const PipelineSpec& spec, const PipelineLayout& layout, const StageOrders& orders);

/// The metrics of a timing (makespan, bubbles, activations, critical sends), with the per-stage busy time and last
/// ends given (the timing's own, or extrapolated).
PipelineMetrics timed_metrics(const CompiledPipeline& c, const Timed& timed, const std::vector<double>& busy,
                              const std::vector<double>& last, std::int64_t extra_sends = 0);

/// Microbatches one steady cycle adds (0: the schedule has no steady phase to extrapolate: gpipe, zb-h2, forward only).
int steady_m_step(const PipelineSpec& spec);

/// How steady_pipeline_metrics got its answer: the microbatches it timed, the cut it found the repeat at and how many
/// cycles it spans (0: none needed, it timed the whole schedule), and the cycles it added.
struct SteadyPathInfo {
  int timed_microbatches = 0;
  int cut = 0, every = 0;
  std::int64_t added_cycles = 0;
};

/// Whether steady_pipeline_metrics times this schedule whole, every op in the simulation's own order (short schedules:
/// the copy it would time first holds all m microbatches), rather than adding cycles to a short copy.
bool steady_path_times_whole(const PipelineSpec& spec);

/// pipeline_metrics for schedules with a steady phase: times a copy with few microbatches (congruent to m modulo one
/// cycle's), finds a cut where the whole state repeats r cycles later shifted by one step in time and in sends (a
/// max-plus system's periodic regime), and adds the missing cycles in whole repeats: every op after them is the copy's
/// op shifted by those steps. The times are the same as simulating every op (checked against timing every op in
/// tests/engine/pipeline_steady_test.cpp). nullopt when the schedule has no steady phase or no repeat shows within
/// 4p + 32 cycles.
std::optional<PipelineMetrics> steady_pipeline_metrics(const PipelineSpec& spec, SteadyPathInfo* info = nullptr);

}  // namespace parascope::detail
