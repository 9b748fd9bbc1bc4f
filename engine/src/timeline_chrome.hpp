/// The timeline as a Chrome Trace Event file (Google's "Trace Event Format", JSON Object Format): "X" complete events
/// with ts and dur in microseconds (to the nanosecond), pid = the GPU's rank, tid = the lane, short names ("F3 tp")
/// described once in otherData, and "M" metadata naming each process (process_name, process_sort_index by stage) and
/// thread (thread_name). Perfetto UI and chrome://tracing open it. engine/API.md, "timeline", has its levels of detail.
#pragma once

#include <cstdint>
#include <string>

#include "timeline.hpp"

namespace parascope::detail {

/// Events a trace draws one by one (each with its own name and args); above it, each op's compute-stream events are
/// drawn as one (engine/API.md, "timeline": a trace of a 64-stage, 512-microbatch step stays within 20 MB).
inline constexpr std::int64_t kTraceFullEvents = 150'000;
/// Whether the trace of `t` merges each op's compute-stream events (more than kTraceFullEvents events).
bool timeline_chrome_merged(const Timeline& t);

/// The trace as JSON text (json_text.hpp: hundreds of thousands of events are not built as a tree).
std::string timeline_chrome_text(const Timeline& t);

}  // namespace parascope::detail
