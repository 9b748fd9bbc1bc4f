/// One training step as a profiler would draw it, from the cost model itself: for each chosen pipeline stage's first
/// GPU, events on seven lanes (compute stream, TP, DP/FSDP, PP, EP, CP, optimizer) placed at the pipeline simulation's
/// op start times, each op filled with that stage's own layer times, then the step's tail (exposed data-parallel
/// traffic, the slowdown hidden traffic causes, gradient accumulation, the optimizer) from step_finish's phases.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "parascope/cost_types.hpp"

namespace parascope::detail {

enum class Lane : std::uint8_t { compute, tp, dp, pp, ep, cp, optimizer };
inline constexpr int kLanes = 7;
/// "compute", "tp", "dp", "pp", "ep", "cp", "optimizer".
const char* lane_id(Lane lane);

/// What an event is, and which breakdown term its exposed seconds count toward.
enum class EventKind : std::uint8_t {
  kernels,       ///< compute: an op's GEMMs, attention, launches and recomputation (breakdown.compute)
  memory,        ///< compute: an op's element-wise kernels (memory_bound)
  wait,          ///< compute: the rest of the op's slot, waiting on the slowest stage's pace (other)
  tp,            ///< tp lane: an op's tensor-parallel collectives (exposed part: tp_comm)
  ep,            ///< ep lane: an op's expert all-to-alls (ep_comm)
  cp,            ///< cp lane: an op's context-parallel ring steps (cp_comm)
  send,          ///< pp lane: an op's output sent to the next stage (exposed as the receiver's idle: pp_comm, bubble)
  dp,            ///< dp lane: the step's data-parallel / FSDP collectives (exposed part: dp_comm)
  stretch,       ///< compute: what the hidden DP collectives take from the kernels they run under (compute)
  accumulation,  ///< compute: the separate gradient-accumulation pass (memory_bound)
  optimizer,     ///< optimizer lane: the Adam update (optimizer)
};
Lane lane_of(EventKind piece);

struct TimelineEvent {
  double start = 0, end = 0;  ///< seconds from the step's start
  double exposed = 0;         ///< seconds of it the compute stream waits for (all of a compute-lane event)
  double amount = 0;          ///< FLOPs (kernels), or bytes (memory, collectives, sends, the optimizer's HBM traffic)
  double count = 0;           ///< collectives it stands for (collective events)
  double interference = 0;    ///< kernels: seconds of it that collectives running under them add
  std::int32_t microbatch = -1, chunk = -1, peer = -1;  ///< its op's microbatch and chunk; a send's target stage
  EventKind piece = EventKind::kernels;
  char op = 0;  ///< 'F', 'B' or 'W' (the pipeline op it belongs to); 0 after the pipeline
};

/// Exposed seconds of one GPU's step by breakdown term; idle is the compute stream's gaps in the pipeline
/// (the step's pp_comm + bubble).
struct GpuExposed {
  double compute = 0, memory_bound = 0, tp_comm = 0, ep_comm = 0, cp_comm = 0, other = 0, idle = 0, dp_comm = 0,
         optimizer = 0;
  double sum() const {
    return compute + memory_bound + tp_comm + ep_comm + cp_comm + other + idle + dp_comm + optimizer;
  }
};

/// One pipeline op of a GPU: where it runs and which of the GPU's shapes its events take.
struct TimelineOp {
  double start = 0, end = 0;  ///< seconds from the step's start (the simulation's)
  std::int32_t microbatch = 0, chunk = 0, shape = 0;
  char kind = 'F';
};

/// The events every op of one kind and chunk holds on one GPU (the same work in the same slot), at offsets from the
/// op: each event's start and end are seconds from the op's start, a send's (`piece` send) from the op's end. An op's
/// events are exactly base + offset (one addition each), so a reader given the offsets rebuilds them bit for bit.
struct OpShape {
  std::vector<TimelineEvent> events;
  char kind = 'F';  ///< the ops it is the shape of: their kind and chunk
  std::int32_t chunk = 0;
};

struct TimelineGpu {
  std::int64_t gpu = 0, stage = 0;
  bool slowest = false;               ///< the step's slowest stage (the most forward + backward seconds)
  std::vector<OpShape> shapes;        ///< the ops' shapes, in the order first used
  std::vector<TimelineOp> ops;        ///< in the simulation's order: the events are each op's shape's, then the tail
  std::vector<TimelineEvent> tail;    ///< the step's events after the pipeline (seconds from the step's start)
  std::int64_t event_count = 0;       ///< every event: the ops' and the tail's
  std::vector<TimelineEvent> events;  ///< every event, laid out (only after lay_out)
  GpuExposed exposed;
};

struct Timeline {
  StepResult step;               ///< the step op's answer for the same run
  double makespan = 0;           ///< end of the last event: the step's time
  double pipeline_makespan = 0;  ///< end of the simulated schedule
  std::int64_t slowest_stage = 0;
  std::string links[kLanes];        ///< each collective lane's link name ("" where none)
  std::string collectives[kLanes];  ///< each collective lane's collectives, in words
  std::vector<TimelineGpu> gpus;
  std::int64_t events = 0;
};

/// How many events build_timeline would place for `stages` (all stages when empty), without simulating; throws the
/// step op's refusals.
std::int64_t timeline_event_count(const TrainingRun& run, const Efficiency& eff,
                                  const std::vector<std::int64_t>& stages);
/// The timeline of `stages` (all when empty): its ops, their shapes and the tail, no event laid out (the columns
/// and the trace write the shapes: at 64 stages × 512 microbatches ~21 MB of laid-out events and their page faults
/// cost more than everything else). Throws PipelineError like evaluate_step.
Timeline build_timeline(const TrainingRun& run, const Efficiency& eff, const std::vector<std::int64_t>& stages);
/// Keeps the ops with an event overlapping [from, to] (seconds; touching counts), all of each op's events, and the
/// tail's events overlapping it; the counts follow, each GPU's `exposed` stays the whole step's.
void keep_window(Timeline& t, double from, double to);
/// Lays out every event of `t`'s ops and tail, in each GPU's `events` (the objects answer's).
void lay_out(Timeline& t);

}  // namespace parascope::detail
