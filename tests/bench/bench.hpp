/// A tiny native benchmark harness: cases register themselves; each reports named figures with units and targets.
#pragma once

#include <algorithm>
#include <chrono>
#include <functional>
#include <string>
#include <vector>

namespace parascope::bench {

struct Timing {
  double median = 0;  ///< seconds per call
  double p95 = 0;
  long calls = 0;
};

/// Times `fn` repeatedly for about `seconds` (at least 5 calls), in batches so that the clock's cost does not count.
inline Timing time_calls(const std::function<void()>& fn, double seconds = 0.5) {
  using clock = std::chrono::steady_clock;
  fn();  // warm up
  auto t0 = clock::now();
  fn();
  double one = std::chrono::duration<double>(clock::now() - t0).count();
  long batch = std::max(1L, long(1e-4 / std::max(one, 1e-9)));
  std::vector<double> samples;
  auto start = clock::now();
  while (samples.size() < 5 || std::chrono::duration<double>(clock::now() - start).count() < seconds) {
    auto b0 = clock::now();
    for (long i = 0; i < batch; ++i) fn();
    samples.push_back(std::chrono::duration<double>(clock::now() - b0).count() / double(batch));
    if (samples.size() > 100000) break;
  }
  std::sort(samples.begin(), samples.end());
  return {samples[samples.size() / 2], samples[std::min(samples.size() - 1, samples.size() * 95 / 100)],
          long(samples.size()) * batch};
}

/// One line per figure: "name: value unit (target: ...)".
void report(const std::string& name, double value, const std::string& unit, const std::string& target = "");
/// A figure for one JSON request's median time (reported in us); the request is kept so the wasm can be timed on it.
void report_request(const std::string& name, const std::string& request, double seconds);

struct Case {
  std::string name;
  std::function<void()> run;
};
std::vector<Case>& registry();
inline bool add(std::string name, std::function<void()> run) {
  registry().push_back({std::move(name), std::move(run)});
  return true;
}

}  // namespace parascope::bench
