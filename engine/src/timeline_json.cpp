// The timeline's answers: its events as objects or as columns, beside the step's breakdown.
#include "timeline_json.hpp"

#include <cmath>
#include <utility>

#include "json_text.hpp"
#include "step_json.hpp"

namespace parascope::detail {

namespace {

/// Each piece's id (the columns' "piece" indexes this list) and what it is, in words.
struct PieceText {
  const char* id;
  const char* what;
  const char* amount;  ///< "flops", "bytes" or "" (what `amount` counts)
};
constexpr PieceText kPieces[] = {
    {"kernels", "GEMMs, attention, launches", "flops"},
    {"memory", "element-wise kernels", "bytes"},
    {"wait", "waiting on the slowest stage's pace", ""},
    {"tp", "tensor-parallel collectives", "bytes"},
    {"ep", "expert all-to-all", "bytes"},
    {"cp", "context-parallel ring", "bytes"},
    {"send", "send", "bytes"},
    {"dp", "data-parallel collectives", "bytes"},
    {"stretch", "kernels slowed by the hidden data-parallel collectives", ""},
    {"accumulation", "gradient accumulation pass", "bytes"},
    {"optimizer", "Adam update", "bytes"},
};
constexpr int kPieceCount = int(sizeof kPieces / sizeof kPieces[0]);

}  // namespace

const char* lane_title(Lane lane) {
  static const char* const titles[kLanes] = {"compute stream", "TP collectives", "DP/FSDP collectives",
                                             "PP send/recv",   "EP all-to-all",  "CP ring",
                                             "optimizer"};
  return titles[int(lane)];
}

const char* kind_id(EventKind kind) { return kPieces[int(kind)].id; }
const char* kind_amount(EventKind kind) { return kPieces[int(kind)].amount; }
const char* kind_what(EventKind kind) { return kPieces[int(kind)].what; }

namespace {

/// Seconds as JSON: a whole number of them as an integer (as the pipeline op writes times), else the double.
json seconds(double t) { return t == std::floor(t) && std::fabs(t) < 9e15 ? json(std::int64_t(t)) : json(t); }

json exposed_json(const GpuExposed& x) {
  json out;
  put(out, "compute", x.compute);
  put(out, "memory_bound", x.memory_bound);
  put(out, "tp_comm", x.tp_comm);
  put(out, "ep_comm", x.ep_comm);
  put(out, "cp_comm", x.cp_comm);
  put(out, "other", x.other);
  put(out, "idle", x.idle);
  put(out, "dp_comm", x.dp_comm);
  put(out, "optimizer", x.optimizer);
  return out;
}

/// One event as an object: lane, name, start, end, exposed, flops or bytes, link, and its op.
json event_object(const Timeline& t, const TimelineEvent& e) {
  json o;
  const Lane lane = lane_of(e.piece);
  put(o, "lane", lane_id(lane));
  put(o, "piece", kPieces[int(e.piece)].id);
  put(o, "name", timeline_event_name(t, e));
  put(o, "start", seconds(e.start));
  put(o, "end", seconds(e.end));
  put(o, "exposed", seconds(e.exposed));
  const char* amount = kPieces[int(e.piece)].amount;
  if (*amount) put(o, amount, e.amount);
  if (lane != Lane::compute && lane != Lane::optimizer) put(o, "link", t.links[int(lane)]);
  if (lane != Lane::compute && lane != Lane::optimizer && lane != Lane::pp) put(o, "collectives", e.count);
  if (e.piece == EventKind::kernels) put(o, "interference", e.interference);
  if (e.op) {
    put(o, "op", std::string(1, e.op));
    put(o, "microbatch", e.microbatch);
    put(o, "chunk", e.chunk);
  }
  if (e.peer >= 0) put(o, "to_stage", e.peer);
  return o;
}

/// `key`:[value(x) for each x of `list`], written into `out`.
template <class List, class Value>
void column(JsonText& out, const char* key, const List& list, Value value) {
  out.key(key);
  out.raw('[');
  for (std::size_t i = 0; i < list.size(); ++i) {
    if (i) out.raw(',');
    value(list[i]);
  }
  out.raw(']');
}

/// Events as columns, {amount, end, exposed, [from_end,] piece, start[, to_stage]}: a shape's (offsets from its op,
/// from_end 1 for a send, counted from the op's end) or the tail's (seconds from the step's start).
void event_columns(JsonText& out, const std::vector<TimelineEvent>& events, bool shape) {
  out.raw('{');
  column(out, "amount", events, [&](const TimelineEvent& e) { out.number(e.amount); });
  out.raw(',');
  column(out, "end", events, [&](const TimelineEvent& e) { out.number(e.end); });
  out.raw(',');
  column(out, "exposed", events, [&](const TimelineEvent& e) { out.number(e.exposed); });
  out.raw(',');
  if (shape) {
    column(out, "from_end", events, [&](const TimelineEvent& e) { out.integer(e.piece == EventKind::send); });
    out.raw(',');
  }
  column(out, "piece", events, [&](const TimelineEvent& e) { out.integer(int(e.piece)); });
  out.raw(',');
  column(out, "start", events, [&](const TimelineEvent& e) { out.number(e.start); });
  if (shape) {
    out.raw(',');
    column(out, "to_stage", events, [&](const TimelineEvent& e) { out.integer(e.peer); });
  }
  out.raw('}');
}

/// A GPU's ops as columns: {chunk, end, microbatch, op (one character each), shape, start}.
void op_columns(JsonText& out, const std::vector<TimelineOp>& ops) {
  out.raw('{');
  column(out, "chunk", ops, [&](const TimelineOp& o) { out.integer(o.chunk); });
  out.raw(',');
  column(out, "end", ops, [&](const TimelineOp& o) { out.number(o.end); });
  out.raw(',');
  column(out, "microbatch", ops, [&](const TimelineOp& o) { out.integer(o.microbatch); });
  out.raw(',');
  out.key("op");
  std::string kinds;
  kinds.reserve(ops.size());
  for (const TimelineOp& o : ops) kinds += o.kind;
  out.string(kinds);
  out.raw(',');
  column(out, "shape", ops, [&](const TimelineOp& o) { out.integer(o.shape); });
  out.raw(',');
  column(out, "start", ops, [&](const TimelineOp& o) { out.number(o.start); });
  out.raw('}');
}

/// One GPU's object in the columns answer, keys in the JSON writer's order: exposed, gpu, ops, shapes, slowest, stage,
/// tail.
void gpu_columns(JsonText& out, const TimelineGpu& g) {
  out.raw("{\"exposed\":");
  out.raw(dump_text(exposed_json(g.exposed)));
  out.raw(",\"gpu\":");
  out.integer(g.gpu);
  out.raw(",\"ops\":");
  op_columns(out, g.ops);
  out.raw(",\"shapes\":[");
  for (std::size_t i = 0; i < g.shapes.size(); ++i) {
    if (i) out.raw(',');
    event_columns(out, g.shapes[i].events, true);
  }
  out.raw("],\"slowest\":");
  out.raw(g.slowest ? "true" : "false");
  out.raw(",\"stage\":");
  out.integer(g.stage);
  out.raw(",\"tail\":");
  event_columns(out, g.tail, false);
  out.raw('}');
}

json breakdown_of(const StepResult& r) {
  json step = step_to_json(r);
  return step["breakdown"];
}

}  // namespace

std::string timeline_event_name(const Timeline& t, const TimelineEvent& e) {
  std::string name;
  if (e.op) {
    name = std::string(1, e.op) + " mb " + std::to_string(e.microbatch) + " chunk " + std::to_string(e.chunk) + ": ";
  }
  switch (e.piece) {
    case EventKind::send:
      name += (e.op == 'F' ? "activations to stage " : "gradients to stage ") + std::to_string(e.peer);
      break;
    case EventKind::tp:
    case EventKind::ep:
    case EventKind::cp:
    case EventKind::dp:
      name += t.collectives[int(lane_of(e.piece))];
      break;
    default:
      name += kPieces[int(e.piece)].what;
  }
  return name;
}

namespace {

json timeline_header(const Timeline& t, bool columns) {
  json out;
  put(out, "step_time", t.step.step_time);
  put(out, "makespan", t.makespan);
  put(out, "pipeline_makespan", t.pipeline_makespan);
  put(out, "breakdown", breakdown_of(t.step));
  put(out, "slowest_stage", t.slowest_stage);
  put(out, "event_count", t.events);
  put(out, "format", columns ? "columns" : "objects");
  json& lanes = put_array(out, "lanes");
  for (int l = 0; l < kLanes; ++l) {
    json& lane = push_object(lanes);
    put(lane, "id", lane_id(Lane(l)));
    put(lane, "name", lane_title(Lane(l)));
    put(lane, "link", t.links[l]);
  }
  if (columns) {
    json& pieces = put_array(out, "pieces");
    for (int i = 0; i < kPieceCount; ++i) {
      json& p = push_object(pieces);
      put(p, "id", kPieces[i].id);
      put(p, "lane", lane_id(lane_of(EventKind(i))));
      put(p, "name", kPieces[i].what);
      put(p, "amount", kPieces[i].amount);
    }
  }
  put(out, "gpus", nullptr);
  return out;
}

/// One GPU's object: its rank, stage, whether it is the slowest, its exposed seconds; events set by the caller.
json gpu_object(const TimelineGpu& g) {
  json gpu;
  put(gpu, "gpu", g.gpu);
  put(gpu, "stage", g.stage);
  put(gpu, "slowest", g.slowest);
  put(gpu, "exposed", exposed_json(g.exposed));
  return gpu;
}

}  // namespace

json timeline_objects(const Timeline& t) {
  json out = timeline_header(t, false);
  json& gpus = put_array(out, "gpus");
  for (const TimelineGpu& g : t.gpus) {
    json& gpu = gpus.emplace_back(gpu_object(g));
    json& events = put_array(gpu, "events");
    for (const TimelineEvent& e : g.events) events.push_back(event_object(t, e));
  }
  return out;
}

std::string timeline_columns_text(const Timeline& t) {
  // One text, reserved once (~60 bytes an op, ~100 an event of a shape or the tail), the header written around the
  // GPUs: no copy of the whole (copies and the page faults of fresh text were most of this op's time).
  const std::string head = dump_text(timeline_header(t, true));
  const std::string marker = "\"gpus\":null";
  const std::size_t at = head.find(marker) + marker.size() - 4;  // the null
  std::size_t ops = 0, events = 0;
  for (const TimelineGpu& g : t.gpus) {
    ops += g.ops.size();
    events += g.tail.size();
    for (const OpShape& shape : g.shapes) events += shape.events.size();
  }
  JsonText out;
  out.text().reserve(head.size() + ops * 60 + events * 100 + t.gpus.size() * 400);
  out.raw(std::string_view(head).substr(0, at));
  out.raw('[');
  for (const TimelineGpu& g : t.gpus) {
    if (&g != &t.gpus.front()) out.raw(',');
    gpu_columns(out, g);
  }
  out.raw(']');
  out.raw(std::string_view(head).substr(at + 4));
  return std::move(out.text());
}

}  // namespace parascope::detail
