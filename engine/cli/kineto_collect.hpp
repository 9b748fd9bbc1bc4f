// A Kineto trace's events gathered one by one into what any step's split needs (web/widgets/step/model/kineto.js's
// collector, the same fields and the same order), and the file read into it as it streams (zlib's gzread: gzip or
// plain JSON), each event parsed and dropped in turn.
#pragma once

#include <limits>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "kineto_rules.hpp"

namespace parascope::cli {

struct Marker {
  std::string name;
  double ts;
  double dur;
};

struct GpuEvent {
  std::string kind;
  std::string collective;
  nlohmann::json stream;  // args.stream, else tid (a number in torch.profiler's traces)
  double ts;
  double dur;
  std::optional<std::string> corr;  // the correlation's JSON text; none when the event has none
};

struct Collected {
  double base = std::numeric_limits<double>::infinity();  // the first complete event's ts (µs)
  std::vector<Marker> markers;
  std::vector<std::pair<std::string, double>> launches;  // correlation text, ts
  std::unordered_set<std::string> launched;              // every correlation launched
  std::vector<GpuEvent> gpu;
  nlohmann::json distributed;  // distributedInfo, or null
};

class Collector {
 public:
  explicit Collector(const KinetoRules& rules) : rules_(rules) {}
  void add(const nlohmann::json& e);
  Collected& collected() { return c_; }

 private:
  const KinetoRules& rules_;
  Collected c_;
  std::unordered_map<std::string, KernelKind> kinds_;  // kernel name -> kind, each name classified once
};

/// Why a trace was refused: code as the figure's worker says it (not_json, unreadable, no_events).
struct ReadError {
  std::string code;
  std::string message;
};

/// Reads the file at `path` (gzip or plain) into `collector`. nullopt when read, else why not; `opened` false when the
/// file cannot be opened at all.
std::optional<ReadError> read_trace(const std::string& path, Collector& collector, bool& opened);

}  // namespace parascope::cli
