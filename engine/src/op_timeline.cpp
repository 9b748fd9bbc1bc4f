// The "timeline" operation: a step request -> that step per GPU and stream, as events, columns or a Chrome trace; and
// its columns-only handler, for a wasm module that leaves the other two formats to another (CMakeLists.txt).
#include <algorithm>
#include <limits>
#include <string>
#include <string_view>

#include "json_out.hpp"
#include "json_text.hpp"
#include "ops.hpp"
#include "step_json.hpp"
#include "timeline.hpp"
#include "timeline_chrome.hpp"
#include "timeline_json.hpp"

namespace parascope::detail {

namespace {

/// Events an answer may carry, by format: objects cost ~1 KB each to build as JSON (engine/API.md, "timeline");
/// columns and the Chrome trace are written as text from the ops and their shapes (~50 bytes an op; the trace ~50 to
/// ~110 bytes an event).
constexpr std::int64_t kMaxObjectEvents = 25'000;
constexpr std::int64_t kMaxListedEvents = 500'000;
/// Events of the whole step a window is cut from: every op is simulated and recorded first (~64 bytes an op, ~5
/// events an op: ~26 MB at this bound, inside the wasm's heap beside the step's own simulation).
constexpr std::int64_t kMaxWindowedEvents = 2'000'000;

/// The optional "stages" list: distinct stage indices in [0, pp), at least one.
std::vector<std::int64_t> read_stages(RequestReader& request, std::int64_t pp) {
  std::vector<std::int64_t> stages;
  request.accept("stages");
  if (!request.has("stages")) return stages;
  const json& list = request.value("stages");
  if (!list.is_array() || list.empty()) {
    refuse(code::wrong_type, {"stages must be a non-empty array of pipeline stage indices"}, "stages");
  }
  for (std::size_t i = 0; i < list.size(); ++i) {
    const json& v = list[i];
    const std::string field = "stages[" + std::to_string(i) + "]";
    if (!v.is_number_integer() && !v.is_number_unsigned()) {
      refuse(code::wrong_type, {"each stage must be an integer index"}, field);
    }
    const std::int64_t s =
        v.is_number_unsigned() && v.get<std::uint64_t>() > std::uint64_t(pp) ? pp : v.get<std::int64_t>();
    if (s < 0 || s >= pp)
      refuse(code::out_of_range, {"a stage index is in [0, ", pp - 1, "] (parallel.pp = ", pp, "); got ", dump_text(v)},
             field);
    if (std::find(stages.begin(), stages.end(), s) != stages.end()) {
      refuse(code::invalid_value, {"stage ", s, " is listed twice"}, field);
    }
    stages.push_back(s);
  }
  return stages;
}

}  // namespace

namespace {

/// The too_large refusal: `events` more than an answer in `format` carries.
[[noreturn]] void refuse_size(std::int64_t events, bool sent_format, bool window) {
  refuse(code::too_large,
         {"this timeline has ", events, window ? " events in the window" : " events", "; an answer carries at most ",
          kMaxObjectEvents, " as objects (format \"objects\", the default) and ", kMaxListedEvents,
          " as \"columns\" or \"chrome\"; fewer stages (\"stages\"), fewer microbatches or a window "
          "(\"from\", \"to\") make fewer"},
         sent_format ? "format" : "stages");
}

}  // namespace

namespace {

/// What a request asks: the step's timeline (simulated and cut to its window, sizes checked) and its format.
struct Asked {
  Timeline timeline;
  std::string format;
};

/// Reads `request` and builds what it asks; `carried(format)` false: this module writes that format elsewhere, refused
/// (by `refuse_format`) once the request is read, before anything is simulated.
template <class Carried, class Elsewhere>
Asked read_timeline(RequestReader& request, Carried carried, Elsewhere refuse_format) {
  const StepRequest s = read_step_request(request);
  const std::vector<std::int64_t> stages = read_stages(request, s.run.parallel.pp);
  std::string format = request.choice_or("format", "objects", {"objects", "columns", "chrome"});
  const bool sent_format = request.has("format");
  const bool window = request.has("from") || request.has("to");
  const double from = request.number_or("from", 0.0, 0.0, 1e15);
  const double to = request.number_or("to", std::numeric_limits<double>::infinity(), 0.0, 1e15);
  if (to <= from) refuse(code::invalid_value, {"to (", to, " s) must be later than from (", from, " s)"}, "to");
  request.finish();
  if (!carried(format)) refuse_format(format);
  check(s);  // the step op's refusals, in its words
  const std::int64_t limit = format == "objects" ? kMaxObjectEvents : kMaxListedEvents;
  // Counted from the op counts before anything is simulated; a window's events only once simulated (the step's own
  // simulation, bounded by its limits).
  const std::int64_t events = timeline_event_count(s.run, s.efficiency, stages);
  if (events > limit && !window) refuse_size(events, sent_format, false);
  if (window && events > kMaxWindowedEvents) {
    refuse(code::too_large,
           {"this timeline has ", events, " events; a window (\"from\", \"to\") is cut from a step of at most ",
            kMaxWindowedEvents, ": fewer stages (\"stages\") or microbatches make fewer"},
           "stages");
  }
  Asked asked{build_timeline(s.run, s.efficiency, stages), std::move(format)};
  if (window) {
    keep_window(asked.timeline, from, to);
    if (asked.timeline.events > limit) refuse_size(asked.timeline.events, sent_format, true);
  }
  return asked;
}

}  // namespace

json op_timeline(RequestReader& request) {
  Asked a = read_timeline(
      request, [](const std::string&) { return true; }, [](const std::string&) {});
  if (a.format == "objects") {
    lay_out(a.timeline);
    return timeline_objects(a.timeline);
  }
  // Columns and the trace are written as text (json_text.hpp): call() answers that text.
  text_answer() = a.format == "chrome" ? timeline_chrome_text(a.timeline) : timeline_columns_text(a.timeline);
  return json();
}

/// The timeline op writing "columns" alone, for a wasm module whose figure draws from columns only (<parascope-step>'s:
/// its trace download loads the figures' engine when clicked). "objects" and "chrome" are refused (unknown_op, field
/// "format") once the request is read, naming the engine its table row gives as `elsewhere` (CMakeLists.txt,
/// PARASCOPE_WASM_HANDLER_*): that row has a handler and `elsewhere` both. Every other answer and refusal is
/// op_timeline's. Declared by the generated op tables, which alone name it (and tests/engine/timeline_test.cpp).
json op_timeline_columns(RequestReader& request) {
  Asked a = read_timeline(
      request, [](const std::string& format) { return format == "columns"; },
      [](const std::string& format) {
        // The module's table names, beside this handler, the engine that writes every format (CMakeLists.txt).
        refuse_elsewhere("the timeline op's \"" + format + "\" format", elsewhere_of("timeline"),
                         ", which writes \"columns\"", "format");
      });
  text_answer() = timeline_columns_text(a.timeline);
  return json();
}

}  // namespace parascope::detail
