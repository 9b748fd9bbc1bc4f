// The timeline as a Chrome trace, written as text: per GPU its metadata (name, order, lanes), then its events.
#include "timeline_chrome.hpp"

#include <cmath>

#include "json_out.hpp"
#include "json_text.hpp"
#include "timeline_json.hpp"

namespace parascope::detail {

namespace {

/// Microseconds, to the nanosecond (shorter text; a trace viewer resolves no finer).
double micros(double seconds) { return std::round(seconds * 1e9) / 1e3; }

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

/// One "X" event: its kind as category, exposed microseconds and FLOPs or bytes as args.
void complete(JsonText& out, const Timeline& t, std::int64_t pid, const TimelineEvent& e) {
  const double ts = micros(e.start);
  out.raw("{\"args\":{");
  const char* amount = kind_amount(e.piece);
  if (*amount) {
    out.key(amount);
    out.number(e.amount);
    out.raw(',');
  }
  out.raw("\"exposed_us\":");
  out.number(micros(e.exposed));
  out.raw("},\"cat\":");
  out.string(kind_id(e.piece));
  out.raw(",\"dur\":");
  out.number(std::round((micros(e.end) - ts) * 1e3) / 1e3);
  out.raw(",\"name\":");
  out.string(timeline_event_name(t, e));
  out.raw(",\"ph\":\"X\",\"pid\":");
  out.integer(pid);
  out.raw(",\"tid\":");
  out.integer(int(lane_of(e.piece)));
  out.raw(",\"ts\":");
  out.number(ts);
  out.raw("},");
}

}  // namespace

std::string timeline_chrome_text(const Timeline& t) {
  // The header's keys sort before "traceEvents": written first, the events after them, with no copy of the whole.
  json header;
  put(header, "displayTimeUnit", "ms");
  json& other = put_object(header, "otherData");
  put(other, "generator", "parascope timeline (engine/API.md)");
  put(other, "step_time_s", t.step.step_time);
  const std::string head = header.dump();
  JsonText out;
  out.text().reserve(head.size() + std::size_t(t.events) * 190 + t.gpus.size() * 700);
  out.raw(std::string_view(head).substr(0, head.size() - 1));
  out.raw(",\"traceEvents\":[");
  for (const TimelineGpu& g : t.gpus) {
    const std::string name =
        "GPU " + std::to_string(g.gpu) + " (stage " + std::to_string(g.stage) + (g.slowest ? ", slowest)" : ")");
    metadata(out, "process_name", g.gpu, 0, "name", name, 0);
    metadata(out, "process_sort_index", g.gpu, 0, "sort_index", "", g.stage);
    for (int l = 0; l < kLanes; ++l) metadata(out, "thread_name", g.gpu, l, "name", lane_title(Lane(l)), 0);
    for (const TimelineEvent& e : g.events) complete(out, t, g.gpu, e);
  }
  std::string& text = out.text();
  if (text.back() == ',') text.pop_back();
  text += "]}";
  return std::move(text);
}

}  // namespace parascope::detail
