/// The timeline as a Chrome Trace Event file (Google's "Trace Event Format", JSON Object Format): "X" complete events
/// with ts and dur in microseconds, pid = the GPU's rank, tid = the lane, and "M" metadata naming each process
/// (process_name, process_sort_index by stage) and thread (thread_name). Perfetto UI and chrome://tracing open it.
#pragma once

#include <string>

#include "timeline.hpp"

namespace parascope::detail {

/// The trace as JSON text (json_text.hpp: hundreds of thousands of events are not built as a tree).
std::string timeline_chrome_text(const Timeline& t);

}  // namespace parascope::detail
