/// A fixed-program pipeline schedule compiled once per shape (schedule, p, m, v): its dependency graph in an order
/// that respects every dependency, so that timing it is one pass over arrays, and where its steady phase repeats.
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <optional>
#include <vector>

#include "pipeline_detail.hpp"

namespace parascope::detail {

/// One op of the compiled graph, in evaluation order. Its start is the later of its stage's previous op's end and
/// its inputs' arrival (a source op's end, plus comm when it ran on another stage).
struct CompiledOp {
  std::int32_t pos;         ///< position in the concatenated stage programs (StageOrders::ops)
  std::int32_t stage;
  std::int32_t first_pred;  ///< this op's inputs are preds[first_pred .. first_pred + pred_count)
  std::uint8_t pred_count;
  std::uint8_t kind;        ///< 0 F, 1 B, 2 W: index into the durations {f, b, w}
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
  std::vector<std::int64_t> begin;           ///< per stage: first position; begin[p] = total
  std::vector<std::uint8_t> kind_at;         ///< per position: 0 F, 1 B, 2 W
  std::vector<std::array<int, 3>> counts;    ///< per stage: F, B, W ops
  std::vector<int> peak_activations;         ///< per stage (depends on the program order only, not on times)
  double chunk_model_fraction = 1;
  SteadyPhase steady;                        ///< cycles == 0 when the schedule has no repeating phase
};

/// Compiles the spec's programs (times are ignored). Throws std::logic_error if they deadlock.
std::shared_ptr<const CompiledPipeline> compile_pipeline(const PipelineSpec& spec);

/// compile_pipeline through a small per-thread cache keyed by (schedule, p, m, v): a planner asks for few shapes.
std::shared_ptr<const CompiledPipeline> compiled_pipeline(const PipelineSpec& spec);
/// Empties this thread's cache (the benchmark's cold figures).
void clear_compiled_pipelines();

/// Microbatches one steady cycle adds (0: the schedule has no steady phase to extrapolate: gpipe, zb-h2, forward only).
int steady_m_step(const PipelineSpec& spec);

/// How steady_pipeline_metrics got its answer: the microbatches it timed, the cut it found the repeat at and how many
/// cycles it spans (0: none needed, it timed the whole schedule), and the cycles it added.
struct SteadyPathInfo {
  int timed_microbatches = 0;
  int cut = 0, every = 0;
  std::int64_t added_cycles = 0;
};

/// pipeline_metrics for schedules with a steady phase: times a copy with few microbatches (congruent to m modulo one
/// cycle's), finds a cut where the whole state repeats r cycles later shifted by one step in time and in sends (a
/// max-plus system's periodic regime), and adds the missing cycles in whole repeats: every op after them is the copy's
/// op shifted by those steps. The times are the same as simulating every op (checked against simulate_orders in
/// tests/engine/pipeline_steady_test.cpp). nullopt when the schedule has no steady phase or no repeat shows within
/// 4p + 32 cycles.
std::optional<PipelineMetrics> steady_pipeline_metrics(const PipelineSpec& spec, SteadyPathInfo* info = nullptr);

}  // namespace parascope::detail
