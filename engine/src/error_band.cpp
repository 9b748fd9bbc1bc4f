// The track record as ranges: quantiles of measured / predicted over held-out published runs, applied to an answer.
#include "error_band.hpp"

#include <algorithm>
#include <map>

#include "parascope/embedded_data.hpp"
#include "parse_json.hpp"

namespace parascope::detail {

namespace {

/// `j`'s member `key` (json::at's out_of_range when absent), read through one call each rather than at() and get()
/// inlined at every read: the table is read once, and the memory module's wasm is 0.9 KB gzip smaller.
[[gnu::noinline]] const json& member(const json& j, const char* key) { return j.at(key); }
[[gnu::noinline]] double number(const json& j, const char* key) { return member(j, key).get<double>(); }
[[gnu::noinline]] int count(const json& j, const char* key) { return member(j, key).get<int>(); }

RatioBand read_band(const json& j) {
  RatioBand b;
  const json& q = member(j, "measured_over_predicted");
  b.p10 = number(q, "p10");
  b.p50 = number(q, "p50");
  b.p90 = number(q, "p90");
  b.sources = count(j, "held_out_sources");
  b.rows = count(j, "rows");
  if (j.contains("chips"))  // absent only while scripts/calibrate rewrites a file of an older engine
    for (const json& chip : member(j, "chips")) b.chips.push_back(chip.get<std::string>());
  return b;
}

struct BandTable {
  std::map<std::string, RatioBand, std::less<>> speed;  ///< by software, plus "all stacks"
  RatioBand memory;
  FitsRecord fits;
};

/// engine/data/error_bands.json, parsed once; a malformed file is a build bug, caught by the tests.
const BandTable& table() {
  static const BandTable t = [] {
    BandTable out;
    const json doc = parse_json(embedded_data_error_bands());
    for (const json& entry : member(doc, "speed"))
      out.speed[member(entry, "software").get<std::string>()] = read_band(entry);
    out.memory = read_band(member(doc, "memory"));
    const json& f = member(doc, "fits");
    out.fits = {count(f, "ran"), count(f, "ran_called_fits"), count(f, "out_of_memory"),
                count(f, "out_of_memory_called_no_fit")};
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

ErrorBands error_bands(const std::string& software, const std::string& chip) {
  const BandTable& t = table();
  ErrorBands out;
  const auto own = t.speed.find(software);
  // A stack's own band needs at least two held-out publications: one source's rows show its own bias, not the spread
  // a new run of the stack can land in (xla: 3 MaxText rows; deepspeed: BLOOM alone).
  // Nor may the pooled band hide a stack's own record: with one publication the band spans both (xla: MaxText's
  // runs sit above every stack's 90th percentile).
  const bool has_own = own != t.speed.end() && own->second.sources >= 2;
  out.basis = has_own ? software : "all stacks";
  out.speed = has_own ? own->second : t.speed.at("all stacks");
  // Nor may a stack's band speak for a chip none of its held-out runs ran on (megatron-core: Hopper and Blackwell
  // only, not A100): its kernels' efficiency there is untried, so the band spans the stack's and every stack's.
  const std::vector<std::string>& tried = has_own ? own->second.chips : out.speed.chips;
  if (std::find(tried.begin(), tried.end(), chip) == tried.end()) out.untried_chip = chip.empty() ? "custom" : chip;
  if ((!has_own || !out.untried_chip.empty()) && own != t.speed.end() && own->second.rows > 0) {
    const RatioBand mine = own->second;
    out.basis = "all stacks and " + software;
    out.speed = t.speed.at("all stacks");
    out.speed.p10 = std::min(out.speed.p10, mine.p10);
    out.speed.p90 = std::max(out.speed.p90, mine.p90);
  }
  out.memory = t.memory;
  out.fits = t.fits;
  return out;
}

json error_band_json(const ErrorBands& b, const StepResult& r) {
  json out;
  put(out, "basis", b.basis);
  put(out, "held_out_sources", b.speed.sources);
  put(out, "held_out_runs", b.speed.rows);
  if (!b.untried_chip.empty()) put(out, "untried_chip", b.untried_chip);
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
  // The `fits` verdict's record on published runs: of those that ran, how many it called fits; of those reported out
  // of memory, how many it called no fit.
  json& fits = put_object(memory, "fits_record");
  put(fits, "ran", b.fits.ran);
  put(fits, "ran_called_fits", b.fits.ran_called_fits);
  put(fits, "out_of_memory", b.fits.out_of_memory);
  put(fits, "out_of_memory_called_no_fit", b.fits.out_of_memory_called_no_fit);
  return out;
}

}  // namespace parascope::detail
