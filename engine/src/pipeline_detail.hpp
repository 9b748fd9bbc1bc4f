/// Internals of the pipeline engine: where each model part lives, per-stage op orders, and the two simulators.
#pragma once

#include <cstdint>
#include <vector>

#include "parascope/pipeline.hpp"

namespace parascope::detail {

/// Where the parts of the model live. A microbatch runs its forward through parts 0..parts−1 and its backward back.
/// Plain: part k on stage k. Interleaved: part k = chunk·p + stage, Megatron's layout (Narayanan et al. 2021, Sec.
/// 2.2.2). DualPipe: microbatches 0..m/2−1 enter at stage 0 (chunk 0, part k on stage k), microbatches m/2..m−1 enter
/// at stage p−1 (chunk 1, part k on stage p−1−k): DeepSeek-V3 report, Sec. 3.2.1, Fig. 5.
struct PipelineLayout {
  int p = 1, m = 1, v = 1, parts = 1;
  bool dual = false;

  int direction(int mb) const { return dual && mb >= m / 2 ? 1 : 0; }
  int stage_of(int part, int mb) const {
    if (dual) return direction(mb) == 0 ? part : p - 1 - part;
    return part % p;
  }
  int part_of(int stage, int chunk, int mb) const {
    if (dual) return direction(mb) == 0 ? stage : p - 1 - stage;
    return chunk * p + stage;
  }
};

PipelineLayout make_layout(const PipelineSpec& spec);

/// One op in a stage's program (times are found by simulation).
struct StageOp {
  char kind;  ///< 'F', 'B' or 'W'
  std::uint8_t chunk;
  std::uint8_t fuse = 0;     ///< the next `fuse` ops run with this one as one call: it waits for all their inputs
  std::uint8_t release = 0;  ///< the output is sent when the op `release` places later ends (0: when this one ends)
  std::int32_t microbatch;
};

/// Every stage's program, concatenated: stage s runs ops[begin[s]] .. ops[begin[s+1] − 1] in that order.
struct StageOrders {
  std::vector<StageOp> ops;
  std::vector<std::int64_t> begin;
};

/// Appends ops to one stage's program; drops B and W when only the forward half is drawn. The schedules' order
/// generators (schedule_registry.hpp) write through it.
class Program {
 public:
  Program(StageOrders& orders, bool forward_only) : orders_(orders), forward_only_(forward_only) {}
  void start_stage() { orders_.begin.push_back(std::int64_t(orders_.ops.size())); }
  /// `fuse` and `release`: see StageOp. Without backwards they are dropped (each forward is sent when it ends).
  void op(char kind, int chunk, int mb, int fuse = 0, int release = 0) {
    if (forward_only_ && kind != 'F') return;
    if (forward_only_) fuse = release = 0;
    orders_.ops.push_back({kind, std::uint8_t(chunk), std::uint8_t(fuse), std::uint8_t(release), mb});
  }

 private:
  StageOrders& orders_;
  bool forward_only_;
};

/// True for schedules whose backward is split into B (input gradient) and W (weight gradient) ops (the registry's
/// splits_backward).
bool splits_backward(Schedule schedule);

/// The fixed per-stage programs of gpipe, 1f1b, interleaved, zb-h1 and dualpipe (zb-h2 is decided while simulating).
StageOrders build_orders(const PipelineSpec& spec);

/// Makespan, bubbles and activation metrics of a timeline from each stage's busy time, first start (+∞: no ops) and
/// last end; the model share of one activation set is 1/parts. Both timings (compiled graphs, ZB-H2) end here.
PipelineMetrics timeline_metrics(int parts, const std::vector<double>& busy, const std::vector<double>& first,
                                 const std::vector<double>& last, const std::vector<int>& peak_activations);

/// ZB-H2, decided greedily in time order: each free stage runs a ready B, else a ready F while fewer than 2p−1 of its
/// microbatches wait for their W, else its oldest pending W (Qi et al. 2024, Sec. 2.2, Fig. 4: stage s warms up with
/// 2(p−s)−1 forwards and W's fill the tail; this rule yields exactly that, a parallelogram with no idle time inside any
/// stage's span when f = b = w and m ≥ 2p−1). Its times are sums of whole durations and sends, compared as such
/// (pipeline_sum_time.hpp): which op runs never depends on the order in which additions were rounded.
PipelineResult simulate_zb_h2(const PipelineSpec& spec);
/// run_pipeline without the closed form (pipeline.cpp): the ops and metrics the timeline and memory_timeline ops lay
/// out. Their modules then link no closed form, nor its sentences (~1.5-1.9 KB gzip of each wasm module).
PipelineResult simulate_pipeline(const PipelineSpec& spec);
/// simulate_zb_h2's metrics, skipping whole steady cycles once the simulator's state repeats shifted
/// (pipeline_zb_h2_repeat.cpp): bit for bit the same numbers, its ops timed about 12p² rather than 3pm once m is
/// past the warm-up and settling (about 4.5p microbatches). `skipped_ops`: how many ops it did not time.
PipelineMetrics zb_h2_metrics(const PipelineSpec& spec, std::int64_t* skipped_ops = nullptr);

/// A lower bound of pipeline_metrics(spec).makespan from the spec's shape and op times alone (pipeline_bound.cpp):
/// every stage's busy time plus the fill (and, where the schedule fixes it, drain) chain no timeline avoids.
double makespan_floor(const PipelineSpec& spec);

/// Each stage's most activation sets held at once (PipelineMetrics::peak_activations) as far as the program decides
/// it, without timing: exact for the fixed-program schedules (their programs do not depend on times), a lower bound for
/// ZB-H2 (decided while simulating). Kept per shape (schedule, p, m, v) in a small per-thread cache.
std::vector<int> peak_activations_floor(const PipelineSpec& spec);
/// The same into `out` (its storage reused: no allocation once it is large enough).
void peak_activations_floor(const PipelineSpec& spec, std::vector<int>& out);

/// GPipe's metrics without simulating (pipeline_bound.cpp): its timeline at uniform op times in closed form, equal to
/// simulating every op up to rounding (tests/engine/pipeline_steady_test.cpp). Not for forward_only.
PipelineMetrics gpipe_metrics(const PipelineSpec& spec);

/// 1F1B's metrics without simulating (pipeline_one_f_one_b.cpp): every stage's first start, last end and critical
/// sends in closed form, equal to simulating every op where sums are exact and within rounding elsewhere (the comment
/// there says how far). Also interleaved at one chunk (the same programs). Not for forward_only.
PipelineMetrics one_f_one_b_metrics(const PipelineSpec& spec);
/// The sends on 1F1B's critical path (the chain of waits into the makespan), with or without send time.
std::int64_t one_f_one_b_critical_sends(int p, int m, double comm);

/// The closed form a schedule is known for, at the spec's numbers.
PipelineClosedForm closed_form(const PipelineSpec& spec);

}  // namespace parascope::detail
