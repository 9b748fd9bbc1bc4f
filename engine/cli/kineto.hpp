// parascope --kineto FILE [--step N]: a PyTorch profiler (Kineto) trace, gzipped or not, read event by event, one
// ProfilerStep classified and split as Holistic Trace Analysis splits it: the step figure's comparison
// (web/widgets/step/model/kineto.js's traceStep answer) as JSON, by the same rules (engine/data/kineto-rules.json).
#pragma once

#include <optional>
#include <ostream>
#include <string>

namespace parascope::cli {

/// Writes the answer (or {"error": {code, message, field}}) to `out`: 0, 2 for an error object, 1 when the file cannot
/// be opened (a line on `err`). `step`: the marker ProfilerStep#<step>; none: the last one.
int kineto_main(const std::string& path, std::optional<long long> step, std::ostream& out, std::ostream& err);

}  // namespace parascope::cli
