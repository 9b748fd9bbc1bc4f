// The track record as ranges: quantiles of measured / predicted over held-out published runs, applied to an answer.
#include "error_band.hpp"

#include <map>

#include "parascope/embedded_data.hpp"
#include "parse_json.hpp"

namespace parascope::detail {

namespace {

RatioBand read_band(const json& j) {
  RatioBand b;
  const json& q = j.at("measured_over_predicted");
  b.p10 = q.at("p10").get<double>();
  b.p50 = q.at("p50").get<double>();
  b.p90 = q.at("p90").get<double>();
  b.sources = j.at("held_out_sources").get<int>();
  b.rows = j.at("rows").get<int>();
  return b;
}

struct BandTable {
  std::map<std::string, RatioBand, std::less<>> speed;  ///< by software, plus "all stacks"
  RatioBand memory;
};

/// engine/data/error_bands.json, parsed once; a malformed file is a build bug, caught by the tests.
const BandTable& table() {
  static const BandTable t = [] {
    BandTable out;
    const json doc = parse_json(embedded_data("error_bands"));
    for (const json& entry : doc.at("speed")) out.speed[entry.at("software").get<std::string>()] = read_band(entry);
    out.memory = read_band(doc.at("memory"));
    return out;
  }();
  return t;
}

json range(double value, const RatioBand& b) {
  json out = json::array();
  out.push_back(value * b.p10);
  out.push_back(value * b.p90);
  return out;
}

}  // namespace

ErrorBands error_bands(const std::string& software) {
  const BandTable& t = table();
  ErrorBands out;
  const auto own = t.speed.find(software);
  // A stack's own band needs at least two held-out publications: one source's rows show its own bias, not the spread
  // a new run of the stack can land in (xla: 3 MaxText rows; deepspeed: BLOOM alone).
  const bool has_own = own != t.speed.end() && own->second.sources >= 2;
  out.basis = has_own ? software : "all stacks";
  out.speed = has_own ? own->second : t.speed.at("all stacks");
  out.memory = t.memory;
  return out;
}

json error_band_json(const ErrorBands& b, const StepResult& r) {
  json out;
  put(out, "basis", b.basis);
  put(out, "held_out_sources", b.speed.sources);
  put(out, "held_out_runs", b.speed.rows);
  // Throughput and MFU scale with measured / predicted; the step time with its inverse (p90 gives the low end).
  put(out, "tokens_per_second", range(r.tokens_per_second, b.speed));
  put(out, "mfu", range(r.mfu, b.speed));
  json step = json::array();
  step.push_back(r.step_time / b.speed.p90);
  step.push_back(r.step_time / b.speed.p10);
  put(out, "step_time", std::move(step));
  put(out, "median_measured_over_predicted", b.speed.p50);
  json& memory = put_object(out, "memory_total");
  put(memory, "range", range(r.memory.total, b.memory));
  put(memory, "held_out_runs", b.memory.rows);
  put(memory, "median_measured_over_predicted", b.memory.p50);
  return out;
}

}  // namespace parascope::detail
