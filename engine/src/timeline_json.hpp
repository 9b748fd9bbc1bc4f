/// The timeline's answers: events as objects (one per event, named: the default), or as columns (the compact form
/// for large steps, written as text: json_text.hpp); the Chrome trace is timeline_chrome.hpp.
#pragma once

#include <string>

#include "json_out.hpp"
#include "timeline.hpp"

namespace parascope::detail {

/// The event's name as a reader sees it: its op ("F mb 3 chunk 0: ") and what it is ("GEMMs, attention, launches").
std::string timeline_event_name(const Timeline& t, const TimelineEvent& e);
/// Each lane's name as a trace viewer shows it ("compute stream", "TP collectives", ...).
const char* lane_title(Lane lane);
/// An event kind's id ("kernels", "tp", ...) and what its `amount` counts ("flops", "bytes" or "").
const char* kind_id(EventKind kind);
const char* kind_amount(EventKind kind);
/// What an event kind is, in words ("GEMMs, attention, launches").
const char* kind_what(EventKind kind);

/// step_time, breakdown, makespans, lanes, and per GPU its rank, stage, exposed seconds and events as objects.
json timeline_objects(const Timeline& t);
/// The same with each GPU's ops as columns, the events each op holds once per shape, and the tail's events as columns
/// (and the kinds' table, "pieces"), as JSON text.
std::string timeline_columns_text(const Timeline& t);

}  // namespace parascope::detail
