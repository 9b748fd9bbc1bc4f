// The timeline: the cost model's step (step_core, finish_step's phases) and its pipeline simulated op by op at the
// same op times; each op's slot filled with its stage's own work (timeline_work), then the step's tail.
#include "timeline.hpp"

#include <algorithm>

#include "parascope/pipeline.hpp"
#include "parascope/schedule.hpp"
#include "pipeline_detail.hpp"
#include "step_finish.hpp"
#include "timeline_work.hpp"

namespace parascope::detail {

const char* lane_id(Lane lane) {
  static const char* const ids[kLanes] = {"compute", "tp", "dp", "pp", "ep", "cp", "optimizer"};
  return ids[int(lane)];
}

Lane lane_of(EventKind piece) {
  switch (piece) {
    case EventKind::tp:
      return Lane::tp;
    case EventKind::ep:
      return Lane::ep;
    case EventKind::cp:
      return Lane::cp;
    case EventKind::send:
      return Lane::pp;
    case EventKind::dp:
      return Lane::dp;
    case EventKind::optimizer:
      return Lane::optimizer;
    default:
      return Lane::compute;
  }
}

namespace {

/// The pipeline stage whose layers an op runs: its own, or on DualPipe's second direction (chunk 1) the mirrored one
/// (pipeline_orders.cpp: rank r holds part r of one direction and part p−1−r of the other).
std::int64_t layers_stage(const ParallelConfig& p, std::int64_t stage, int chunk) {
  return schedule_info(p.schedule).holds_two_stages && p.pp > 1 && chunk == 1 ? p.pp - 1 - stage : stage;
}

/// The stage an op's output goes to, or −1 when it stays on this GPU (the last forward, the first backward, W).
std::int32_t send_target(const ParallelConfig& p, std::int64_t stage, int chunk, char kind) {
  if (kind == 'W' || p.pp == 1) return -1;
  const std::int64_t pp = p.pp;
  if (schedule_info(p.schedule).holds_two_stages) {
    // Direction 0 flows from stage 0 to p−1, direction 1 back; a backward runs against its direction.
    const int step = ((chunk == 0) == (kind == 'F')) ? 1 : -1;
    const std::int64_t to = stage + step;
    return to < 0 || to >= pp ? -1 : std::int32_t(to);
  }
  // Chunk c of stage s is virtual stage c·p + s (interleaved 1F1B); the forward goes to the next one.
  const std::int64_t v = std::int64_t(chunk) * pp + stage, last = pp * p.vpp - 1;
  const std::int64_t to = kind == 'F' ? v + 1 : v - 1;
  if (to < 0 || to > last || to % pp == stage) return -1;
  return std::int32_t(to % pp);
}

/// The pipeline the timeline simulates: the cost model's (core_spec), ops recorded; DualPipe on one stage as
/// pipeline_metrics times it (ZB-H1's order).
PipelineSpec timeline_spec(const TrainingRun& run, const StepCore& core) {
  PipelineSpec spec = core_spec(run, core);
  if (spec.stages == 1 && spec.schedule == Schedule::dualpipe) spec.schedule = Schedule::zb_h1;
  spec.record_ops = true;
  return spec;
}

/// Everything one op's events read: the op's slot and the stage's work in it.
struct Slots {
  double f = 0, b = 0, w = 0;
  double of(char kind) const { return kind == 'F' ? f : kind == 'B' ? b : w; }
};

const OpWork& work_of(const StageWork& s, char kind) { return kind == 'F' ? s.f : kind == 'B' ? s.b : s.w; }

/// Seconds of an op's slot its stage does not fill: emitted as a wait when more than rounding.
double wait_of(const OpWork& w, double slot) {
  const double rest = slot - w.total();
  return rest > 1e-9 * slot ? rest : 0.0;
}

int events_of(const OpWork& w, double slot, bool sends) {
  return (w.kernels > 0) + (w.memory > 0) + (w.tp_full > 0) + (w.ep_full > 0) + (w.cp_full > 0) +
         (wait_of(w, slot) > 0) + (sends ? 1 : 0);
}

/// What the timeline reads of the cost model, built once.
struct Model {
  StepCore core;
  StepResult step;
  DataParallelComm dp;
  OptimizerTimes opt;
  TimelineKinds kinds;
  Slots slots;
  std::vector<StageWork> work;  ///< every stage's ops
};

void build_model(const TrainingRun& run, const Efficiency& eff, Model& m, bool scheduled) {
  build_core(run, eff, m.core);
  const StepCore& c = m.core;
  const bool split = schedule_info(run.parallel.schedule).splits_backward;
  m.slots = {c.max_f, c.max_b - c.w_part, c.w_part};
  m.kinds = timeline_kinds(run, eff);
  for (std::int64_t s = 0; s < run.parallel.pp; ++s) {
    m.work.push_back(stage_work(run, eff, m.kinds, c.stages[std::size_t(s)], s == run.parallel.pp - 1, m.slots.b,
                                split ? m.slots.w : 0.0));
  }
  // finish_step's own phases (step_finish.hpp), which read none of the schedule: the same numbers as its breakdown's.
  const HeldParams held = held_params(run, m.core);
  m.dp = data_parallel_comm(run, eff, m.core, held);
  m.opt = optimizer_times(run, eff, m.core, held);
  if (!scheduled) return;
  schedule_core(run, m.core);
  m.step = finish_step(run, eff, m.core, true);
}

/// The ops stage `s` runs, by chunk and kind: microbatches each (DualPipe: half per direction).
template <class Visit>
void for_each_op_kind(const ParallelConfig& p, const PipelineSpec& spec, Visit visit) {
  const bool split = schedule_info(spec.schedule).splits_backward;
  const bool two = schedule_info(spec.schedule).holds_two_stages;
  const std::int64_t m = p.microbatches();
  for (int chunk = 0; chunk < (two ? 2 : int(p.vpp)); ++chunk) {
    const std::int64_t n = two ? m / 2 : m;
    visit(chunk, 'F', n);
    visit(chunk, 'B', n);
    if (split) visit(chunk, 'W', n);
  }
}

int tail_events(const Model& m) {
  return (m.dp.time > 0) + (m.dp.slowdown > 0) + (m.opt.accumulation > 0) + (m.opt.optimizer > 0);
}

std::vector<std::int64_t> chosen(const ParallelConfig& p, const std::vector<std::int64_t>& stages) {
  if (!stages.empty()) return stages;
  std::vector<std::int64_t> all;
  for (std::int64_t s = 0; s < p.pp; ++s) all.push_back(s);
  return all;
}

std::int64_t count_events(const TrainingRun& run, const Model& m, const std::vector<std::int64_t>& stages) {
  const ParallelConfig& p = run.parallel;
  const PipelineSpec spec = timeline_spec(run, m.core);
  std::int64_t total = 0;
  for (std::int64_t s : chosen(p, stages)) {
    for_each_op_kind(p, spec, [&](int chunk, char kind, std::int64_t n) {
      const OpWork& w = work_of(m.work[std::size_t(layers_stage(p, s, chunk))], kind);
      total += n * events_of(w, m.slots.of(kind), send_target(p, s, chunk, kind) >= 0);
    });
    total += tail_events(m);
  }
  return total;
}

/// Adds one event.
TimelineEvent& add(std::vector<TimelineEvent>& events, EventKind piece, double start, double end, double exposed,
                   double amount) {
  TimelineEvent& e = events.emplace_back();
  e.piece = piece;
  e.start = start;
  e.end = end;
  e.exposed = exposed;
  e.amount = amount;
  return e;
}

/// One op's events at offsets from the op (OpShape): kernels, element-wise kernels, then the exposed tails of its
/// collectives (each collective's hidden part under the kernels before), the slot's rest as a wait, and the send of
/// its output (from the op's end).
OpShape op_shape(const OpWork& w, double slot, std::int32_t target, double p2p, double p2p_bytes) {
  OpShape shape;
  std::vector<TimelineEvent>& out = shape.events;
  double t = 0;
  if (w.kernels > 0) add(out, EventKind::kernels, t, t + w.kernels, w.kernels, w.flops).interference = w.interference;
  t += w.kernels;
  if (w.memory > 0) add(out, EventKind::memory, t, t + w.memory, w.memory, w.memory_bytes);
  t += w.memory;
  const double stream_end = t;
  auto collective = [&](EventKind piece, double exposed, double full, double bytes, double count) {
    if (full <= 0) return;
    const double start = std::max(0.0, stream_end - (full - exposed));
    add(out, piece, start, t + exposed, exposed, bytes).count = count;
    t += exposed;
  };
  collective(EventKind::tp, w.tp, w.tp_full, w.tp_bytes, w.tp_count);
  collective(EventKind::ep, w.ep, w.ep_full, w.ep_bytes, w.ep_count);
  collective(EventKind::cp, w.cp, w.cp_full, w.cp_bytes, w.cp_count);
  const double wait = wait_of(w, slot);
  if (wait > 0) add(out, EventKind::wait, t, t + wait, wait, 0);
  if (target >= 0) add(out, EventKind::send, 0, p2p, 0, p2p_bytes).peer = target;
  return shape;
}

/// One op's events: its shape's, each at the op's start (a send: its end) plus its offset.
void lay_op(const TimelineOp& op, const OpShape& shape, std::vector<TimelineEvent>& out) {
  for (const TimelineEvent& o : shape.events) {
    TimelineEvent& e = out.emplace_back(o);
    const double base = o.piece == EventKind::send ? op.end : op.start;
    e.start = base + o.start;
    e.end = base + o.end;
    e.microbatch = op.microbatch;
    e.chunk = op.chunk;
    e.op = op.kind;
  }
}

/// What one op adds to its GPU's exposed seconds.
void expose_op(const OpWork& w, double slot, GpuExposed& x) {
  x.compute += w.kernels;
  x.memory_bound += w.memory;
  x.tp_comm += w.tp;
  x.ep_comm += w.ep;
  x.cp_comm += w.cp;
  x.other += wait_of(w, slot);
}

/// Stage `g.stage`'s ops from the simulation's [first, last): each op placed, its kind and chunk's shape made once,
/// its exposed seconds counted. Returns the seconds the compute stream is busy or waits on an exposed collective.
double place_ops(const ParallelConfig& p, const Model& m, const PipelineOp* first, const PipelineOp* last,
                 TimelineGpu& g) {
  double stream = 0;
  std::vector<int> shape_of(std::size_t(std::max<std::int64_t>(2, p.vpp)) * 3, -1);  // by chunk and kind
  g.ops.reserve(std::size_t(last - first));
  for (const PipelineOp* op = first; op != last; ++op) {
    const OpWork& w = work_of(m.work[std::size_t(layers_stage(p, g.stage, op->chunk))], op->kind);
    const double slot = m.slots.of(op->kind);
    int& shape = shape_of[std::size_t(op->chunk) * 3 + (op->kind == 'F' ? 0 : op->kind == 'B' ? 1 : 2)];
    if (shape < 0) {
      shape = int(g.shapes.size());
      OpShape& made = g.shapes.emplace_back(
          op_shape(w, slot, send_target(p, g.stage, op->chunk, op->kind), m.core.p2p, m.core.p2p_bytes));
      made.kind = op->kind;
      made.chunk = std::int32_t(op->chunk);
    }
    g.ops.push_back(
        TimelineOp{op->start, op->end, std::int32_t(op->microbatch), std::int32_t(op->chunk), shape, op->kind});
    g.event_count += std::int64_t(g.shapes[std::size_t(shape)].events.size());
    expose_op(w, slot, g.exposed);
    stream += w.total() + wait_of(w, slot);
  }
  return stream;
}

/// After the schedule: the exposed data-parallel wait (the collectives' hidden rest drawn under the last ops), the
/// kernels' slowdown from the hidden part, a separate gradient accumulation, then the optimizer (step_time's order).
void lay_tail(const Model& m, double makespan, TimelineGpu& g, GpuExposed& x) {
  double t = makespan;
  std::vector<TimelineEvent>& out = g.tail;
  if (m.dp.time > 0) {
    add(out, EventKind::dp, std::max(0.0, t - (m.dp.time - m.dp.exposed)), t + m.dp.exposed, m.dp.exposed, m.dp.bytes)
        .count = m.dp.count;
  }
  t += m.dp.exposed;
  if (m.dp.slowdown > 0) add(out, EventKind::stretch, t, t + m.dp.slowdown, m.dp.slowdown, 0);
  t += m.dp.slowdown;
  const double hbm = m.kinds.hbm;
  if (m.opt.accumulation > 0)
    add(out, EventKind::accumulation, t, t + m.opt.accumulation, m.opt.accumulation, m.opt.accumulation * hbm);
  t += m.opt.accumulation;
  if (m.opt.optimizer > 0)
    add(out, EventKind::optimizer, t, t + m.opt.optimizer, m.opt.optimizer, m.opt.optimizer * hbm);
  x.dp_comm = m.dp.exposed;
  x.compute += m.dp.slowdown;
  x.memory_bound += m.opt.accumulation;
  x.optimizer = m.opt.optimizer;
}

void name_lanes(const StepResult& r, Timeline& out) {
  for (const AxisTraffic& a : r.axes) {
    const Lane lane = a.axis == Axis::data       ? Lane::dp
                      : a.axis == Axis::tensor   ? Lane::tp
                      : a.axis == Axis::pipeline ? Lane::pp
                      : a.axis == Axis::expert   ? Lane::ep
                                                 : Lane::cp;
    out.links[int(lane)] = a.link;
    out.collectives[int(lane)] = a.collective;
  }
}

}  // namespace

std::int64_t timeline_event_count(const TrainingRun& run, const Efficiency& eff,
                                  const std::vector<std::int64_t>& stages) {
  Model m;
  build_model(run, eff, m, false);
  check_step_core(run, m.core);
  return count_events(run, m, stages);
}

Timeline build_timeline(const TrainingRun& run, const Efficiency& eff, const std::vector<std::int64_t>& stages) {
  Model m;
  build_model(run, eff, m, true);
  const ParallelConfig& p = run.parallel;
  const PipelineResult sim = simulate_pipeline(timeline_spec(run, m.core));  // no closed form: never read
  Timeline out;
  out.step = m.step;
  out.pipeline_makespan = sim.metrics.makespan;
  out.slowest_stage = m.core.slowest_stage;
  name_lanes(m.step, out);
  const std::int64_t per_stage_gpus = run.cluster.gpus / p.pp;
  // Ops come stage by stage (PipelineResult): where each stage's begin.
  std::vector<std::size_t> begin(std::size_t(p.pp) + 1, sim.ops.size());
  for (std::size_t i = sim.ops.size(); i-- > 0;) begin[std::size_t(sim.ops[i].stage)] = i;
  for (std::int64_t s = p.pp - 1; s >= 0; --s)
    begin[std::size_t(s)] = std::min(begin[std::size_t(s)], begin[std::size_t(s) + 1]);
  for (std::int64_t s : chosen(p, stages)) {
    TimelineGpu& g = out.gpus.emplace_back();
    g.stage = s;
    g.gpu = s * per_stage_gpus;
    g.slowest = s == m.core.slowest_stage;
    const PipelineOp* ops = sim.ops.data();
    const double stream = place_ops(p, m, ops + begin[std::size_t(s)], ops + begin[std::size_t(s) + 1], g);
    g.exposed.idle = std::max(0.0, out.pipeline_makespan - stream);
    lay_tail(m, out.pipeline_makespan, g, g.exposed);
    g.event_count += std::int64_t(g.tail.size());
    out.events += g.event_count;
  }
  out.makespan = out.pipeline_makespan + m.dp.exposed + m.dp.slowdown + m.opt.accumulation + m.opt.optimizer;
  return out;
}

void keep_window(Timeline& t, double from, double to) {
  auto overlaps = [&](double start, double end) { return start <= to && end >= from; };
  t.events = 0;
  for (TimelineGpu& g : t.gpus) {
    g.event_count = 0;
    std::size_t kept = 0;
    for (const TimelineOp& op : g.ops) {
      const OpShape& shape = g.shapes[std::size_t(op.shape)];
      bool in = false;
      for (const TimelineEvent& e : shape.events) {
        const double base = e.piece == EventKind::send ? op.end : op.start;
        in = in || overlaps(base + e.start, base + e.end);
      }
      if (!in) continue;
      g.ops[kept++] = op;
      g.event_count += std::int64_t(shape.events.size());
    }
    g.ops.resize(kept);
    g.tail.erase(
        std::remove_if(g.tail.begin(), g.tail.end(), [&](const TimelineEvent& e) { return !overlaps(e.start, e.end); }),
        g.tail.end());
    g.event_count += std::int64_t(g.tail.size());
    t.events += g.event_count;
  }
}

void lay_out(Timeline& t) {
  for (TimelineGpu& g : t.gpus) {
    g.events.clear();
    g.events.reserve(std::size_t(g.event_count));
    for (const TimelineOp& op : g.ops) lay_op(op, g.shapes[std::size_t(op.shape)], g.events);
    g.events.insert(g.events.end(), g.tail.begin(), g.tail.end());
  }
}

}  // namespace parascope::detail
