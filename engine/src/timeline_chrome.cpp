// The timeline as a Chrome trace, written as text: per GPU its metadata (name, order, lanes), then its ops' events
// from their shapes (each shape's name and args written once, as text), then the step's tail.
#include "timeline_chrome.hpp"

#include <cmath>
#include <string_view>

#include "json_out.hpp"
#include "json_text.hpp"
#include "number_text.hpp"
#include "parse_json.hpp"
#include "timeline_json.hpp"

namespace parascope::detail {

namespace {

/// Seconds as whole nanoseconds: the trace's resolution (Perfetto keeps nanoseconds), each end rounded once so that
/// events that touch still touch.
std::int64_t nanos(double seconds) { return std::llround(seconds * 1e9); }

/// Nanoseconds as microseconds, with only the digits that matter ("1234.5", not "1234.500").
void micros(JsonText& out, std::int64_t ns) {
  if (ns < 0) {
    out.raw('-');
    ns = -ns;
  }
  out.integer(ns / 1000);
  std::int64_t frac = ns % 1000;
  if (frac == 0) return;
  char digits[4] = {'.', char('0' + frac / 100), char('0' + frac / 10 % 10), char('0' + frac % 10)};
  std::size_t n = 4;
  while (digits[n - 1] == '0') --n;
  out.raw(std::string_view(digits, n));
}

/// {"args":{<arg>:<value>},"name":<name>,"ph":"M","pid":<gpu>,"tid":<tid>}: one metadata event.
void metadata(JsonText& out, const char* name, std::int64_t pid, int tid, const char* arg, const std::string& text,
              std::int64_t number) {
  out.raw("{\"args\":{");
  out.key(arg);
  if (text.empty()) {
    out.integer(number);
  } else {
    out.string(text);
  }
  out.raw("},\"name\":");
  out.string(name);
  out.raw(",\"ph\":\"M\",\"pid\":");
  out.integer(pid);
  out.raw(",\"tid\":");
  out.integer(tid);
  out.raw("},");
}

bool on_compute(const TimelineEvent& e) { return lane_of(e.piece) == Lane::compute; }

/// A number of an event's args: 6 significant digits (number_text.hpp's format_number), enough to read, far shorter.
std::string arg_number(double x) { return format_number(x); }

/// What follows an op event's pid: `,"tid":<lane>,"ph":"X","ts":` (`lead`) and, after the op's name, the rest of the
/// name, the args and the close (`tail`): the same for every op of one shape, so written once.
struct EventText {
  std::string lead, tail;
  std::string label, args;    ///< the name's piece part (" kernels", "" for an op's compute stream merged); args' text
  double start = 0, end = 0;  ///< offsets, seconds
  bool from_end = false;      ///< a send: from the op's end
};

std::string lead_of(Lane lane) { return ",\"tid\":" + std::to_string(int(lane)) + ",\"ph\":\"X\",\"ts\":"; }

/// One event at full detail: its piece's name, its amount (FLOPs or bytes), a collective's exposed µs, a send's
/// target stage.
EventText full_text(const TimelineEvent& e) {
  EventText t;
  t.lead = lead_of(lane_of(e.piece));
  t.start = e.start, t.end = e.end;
  t.from_end = e.piece == EventKind::send;
  t.label = std::string(" ") + kind_id(e.piece);
  const char* amount = kind_amount(e.piece);
  if (*amount) t.args += std::string("\"") + amount + "\":" + arg_number(e.amount);
  const Lane lane = lane_of(e.piece);
  if (lane != Lane::compute && lane != Lane::pp && lane != Lane::optimizer) {
    t.args += ",\"exposed_us\":" + arg_number(e.exposed * 1e6);
  }
  if (e.peer >= 0) t.args += ",\"to_stage\":" + std::to_string(e.peer);
  return t;
}

/// A shape's events as written: at full detail one each; merged, its compute-stream events (kernels, element-wise
/// kernels, the wait) as one event spanning them, named by the op alone (its parts' µs and FLOPs as its args).
std::vector<EventText> shape_text(const OpShape& shape, bool merged) {
  std::vector<EventText> out;
  if (!merged) {
    for (const TimelineEvent& e : shape.events) out.push_back(full_text(e));
    return out;
  }
  EventText op;
  bool any = false;
  for (const TimelineEvent& e : shape.events) {
    if (!on_compute(e)) continue;
    op.start = any ? op.start : e.start;
    op.end = e.end;
    op.args += std::string(any ? "," : "") + "\"" + kind_id(e.piece) + "_us\":" + arg_number((e.end - e.start) * 1e6);
    if (e.piece == EventKind::kernels) op.args += ",\"flops\":" + arg_number(e.amount);
    any = true;
  }
  if (any) {
    op.lead = lead_of(Lane::compute);
    out.push_back(op);
  }
  for (const TimelineEvent& e : shape.events) {
    if (!on_compute(e)) out.push_back(full_text(e));
  }
  return out;
}

/// The close after an event's op name: its label, and its args unless they are given once (`in_metadata`).
void close_text(EventText& t, bool in_metadata) {
  t.tail = t.label + (in_metadata ? "\"}," : "\",\"args\":{" + t.args + "}},");
}

/// One "X" event: pid, the prepared lead, ts and dur from its rounded ends, the name's op part, the prepared tail.
void complete(JsonText& out, std::int64_t pid, const EventText& t, std::int64_t from, std::int64_t to,
              std::string_view name) {
  out.raw("{\"pid\":");
  out.integer(pid);
  out.raw(t.lead);
  micros(out, from);
  out.raw(",\"dur\":");
  micros(out, to - from);
  out.raw(",\"name\":\"");
  out.raw(name);
  out.raw(t.tail);
}

/// The op's part of an event's name: its kind and microbatch ("F3"), and its chunk where ops have more than one
/// ("F3 c1").
std::string op_name(const TimelineOp& op, bool chunks) {
  std::string name(1, op.kind);
  name += std::to_string(op.microbatch);
  if (chunks) name += " c" + std::to_string(op.chunk);
  return name;
}

/// A GPU's shapes as written; merged, their args as `shapes` entries: "<gpu> <op kind>[ c<chunk>]" -> {"compute" or
/// piece: args}.
std::vector<std::vector<EventText>> gpu_texts(const TimelineGpu& g, bool merged, bool chunks, json& shapes) {
  std::vector<std::vector<EventText>> texts;
  for (const OpShape& shape : g.shapes) {
    std::vector<EventText>& list = texts.emplace_back(shape_text(shape, merged));
    std::string key = std::to_string(g.gpu) + " " + shape.kind;
    if (chunks) key += " c" + std::to_string(shape.chunk);
    for (EventText& t : list) {
      close_text(t, merged);
      // parse_json, not json::parse: the same value through the one parser every module already carries (json::parse
      // compiles a second, for a callback: 4.0 KB gzip of the timeline module's wasm, 110.8 -> 106.9 KB)
      if (merged) shapes[key][t.label.empty() ? "compute" : t.label.substr(1)] = parse_json("{" + t.args + "}");
    }
  }
  return texts;
}

/// A GPU's "X" events: each op's shape's at the op's start (a send: end) plus their offsets, then the tail's.
void gpu_events(JsonText& out, const TimelineGpu& g, const std::vector<std::vector<EventText>>& texts, bool chunks) {
  for (const TimelineOp& op : g.ops) {
    const std::string name = op_name(op, chunks);
    for (const EventText& t : texts[std::size_t(op.shape)]) {
      const double base = t.from_end ? op.end : op.start;
      complete(out, g.gpu, t, nanos(base + t.start), nanos(base + t.end), name);
    }
  }
  for (const TimelineEvent& e : g.tail) {
    EventText t = full_text(e);
    t.label = t.label.substr(1);  // no op before the piece's name
    close_text(t, false);
    complete(out, g.gpu, t, nanos(e.start), nanos(e.end), "");
  }
}

}  // namespace

bool timeline_chrome_merged(const Timeline& t) { return t.events > kTraceFullEvents; }

std::string timeline_chrome_text(const Timeline& t) {
  const bool merged = timeline_chrome_merged(t);
  bool chunks = false;
  for (const TimelineGpu& g : t.gpus) {
    for (const TimelineOp& op : g.ops) chunks = chunks || op.chunk > 0;
  }
  // The header's keys sort before "traceEvents": written first, the events after them, with no copy of the whole.
  json header;
  put(header, "displayTimeUnit", "ms");
  json& other = put_object(header, "otherData");
  put(other, "generator", "parascope timeline (engine/API.md)");
  put(other, "step_time_s", t.step.step_time);
  put(other, "detail", merged ? "ops" : "events");
  put(other, "names",
      merged ? "<op: F, B or W><microbatch>[ c<chunk>][ <piece>]: an op's compute stream without a piece; its args, "
               "the same for every op of a kind and chunk on a GPU, in shapes[\"<gpu> <op>[ c<chunk>]\"]"
             : "<op: F, B or W><microbatch>[ c<chunk>] <piece>; a piece alone after the pipeline");
  json& pieces = put_object(other, "pieces");
  for (int i = 0; i <= int(EventKind::optimizer); ++i) put(pieces, kind_id(EventKind(i)), kind_what(EventKind(i)));
  json shapes = json::object();
  std::vector<std::vector<std::vector<EventText>>> texts;
  for (const TimelineGpu& g : t.gpus) texts.push_back(gpu_texts(g, merged, chunks, shapes));
  if (merged) put(other, "shapes", shapes);
  const std::string head = dump_text(header);
  JsonText out;
  out.text().reserve(head.size() + std::size_t(t.events) * (merged ? 50 : 100) + t.gpus.size() * 700);
  out.raw(std::string_view(head).substr(0, head.size() - 1));
  out.raw(",\"traceEvents\":[");
  for (const TimelineGpu& g : t.gpus) {
    const std::string name =
        "GPU " + std::to_string(g.gpu) + " (stage " + std::to_string(g.stage) + (g.slowest ? ", slowest)" : ")");
    metadata(out, "process_name", g.gpu, 0, "name", name, 0);
    metadata(out, "process_sort_index", g.gpu, 0, "sort_index", "", g.stage);
    for (int l = 0; l < kLanes; ++l) metadata(out, "thread_name", g.gpu, l, "name", lane_title(Lane(l)), 0);
    gpu_events(out, g, texts[std::size_t(&g - t.gpus.data())], chunks);
  }
  std::string& text = out.text();
  if (text.back() == ',') text.pop_back();
  text += "]}";
  return std::move(text);
}

}  // namespace parascope::detail
