// The "timeline" operation: a step request -> that step per GPU and stream, as events, columns or a Chrome trace.
#include <algorithm>
#include <limits>

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
      refuse(code::out_of_range, {"a stage index is in [0, ", pp - 1, "] (parallel.pp = ", pp, "); got ", v.dump()},
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

json op_timeline(RequestReader& request) {
  const StepRequest s = read_step_request(request);
  const std::vector<std::int64_t> stages = read_stages(request, s.run.parallel.pp);
  const std::string format = request.choice_or("format", "objects", {"objects", "columns", "chrome"});
  const bool sent_format = request.has("format");
  const bool window = request.has("from") || request.has("to");
  const double from = request.number_or("from", 0.0, 0.0, 1e15);
  const double to = request.number_or("to", std::numeric_limits<double>::infinity(), 0.0, 1e15);
  if (to <= from) refuse(code::invalid_value, {"to (", to, " s) must be later than from (", from, " s)"}, "to");
  request.finish();
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
  Timeline t = build_timeline(s.run, s.efficiency, stages);
  if (window) {
    keep_window(t, from, to);
    if (t.events > limit) refuse_size(t.events, sent_format, true);
  }
  if (format == "objects") {
    lay_out(t);
    return timeline_objects(t);
  }
  // Columns and the trace are written as text (json_text.hpp): call() answers that text.
  text_answer() = format == "chrome" ? timeline_chrome_text(t) : timeline_columns_text(t);
  return json();
}

}  // namespace parascope::detail
