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

/// A GPU's events as columns, written into `out`: one array per field, the piece as its index in "pieces", the op as
/// one character ('-' after the pipeline), -1 for no microbatch, chunk or target stage.
void event_columns(JsonText& out, const TimelineGpu& g) {
  auto column = [&](const char* key, auto value) {
    out.key(key);
    out.raw('[');
    for (std::size_t i = 0; i < g.events.size(); ++i) {
      if (i) out.raw(',');
      value(g.events[i]);
    }
    out.raw(']');
  };
  out.raw('{');
  column("amount", [&](const TimelineEvent& e) { out.number(e.amount); });
  out.raw(',');
  column("chunk", [&](const TimelineEvent& e) { out.integer(e.chunk); });
  out.raw(',');
  column("end", [&](const TimelineEvent& e) { out.number(e.end); });
  out.raw(',');
  column("exposed", [&](const TimelineEvent& e) { out.number(e.exposed); });
  out.raw(',');
  column("microbatch", [&](const TimelineEvent& e) { out.integer(e.microbatch); });
  out.raw(',');
  out.key("op");
  std::string ops;
  ops.reserve(g.events.size());
  for (const TimelineEvent& e : g.events) ops += e.op ? e.op : '-';
  out.string(ops);
  out.raw(',');
  column("piece", [&](const TimelineEvent& e) { out.integer(int(e.piece)); });
  out.raw(',');
  column("start", [&](const TimelineEvent& e) { out.number(e.start); });
  out.raw(',');
  column("to_stage", [&](const TimelineEvent& e) { out.integer(e.peer); });
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
  // One text, reserved once (~80 bytes an event), each GPU's object spliced around its columns as they are written:
  // no GPU's text copied again (the copies and the page faults of a growing text were most of this op's time).
  JsonText out;
  out.text().reserve(std::size_t(t.events) * 80 + t.gpus.size() * 400);
  out.raw('[');
  for (const TimelineGpu& g : t.gpus) {
    if (&g != &t.gpus.front()) out.raw(',');
    json gpu = gpu_object(g);
    put(gpu, "events", nullptr);
    const std::string head = gpu.dump();
    const std::string marker = "\"events\":null";
    const std::size_t at = head.find(marker) + marker.size() - 4;  // the null
    out.raw(std::string_view(head).substr(0, at));
    event_columns(out, g);
    out.raw(std::string_view(head).substr(at + 4));
  }
  out.raw(']');
  return splice(timeline_header(t, true), "gpus", out.text());
}

}  // namespace parascope::detail
