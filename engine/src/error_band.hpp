/// The cost model's expected error, from its track record: the spread of measured / predicted over published runs it
/// was not fitted to (leave-one-source-out, engine/data/error_bands.json, written by tests/engine/loso_test.cpp).
#pragma once

#include <string>
#include <vector>

#include "json_out.hpp"
#include "parascope/cost_types.hpp"

namespace parascope::detail {

/// Quantiles of measured / predicted over held-out runs (each source weighted alike).
struct RatioBand {
  double p10 = 1, p50 = 1, p90 = 1;
  int sources = 0, rows = 0;
  std::vector<std::string> chips;  ///< the hardware presets its held-out runs ran on
};

/// The throughput band of a software stack (its own held-out runs when at least two of its publications were held out,
/// else every stack's pooled), and the
/// memory band (pooled over every stack's peak-memory measurements).
/// How often `fits` matched what happened on the published runs: those that ran, those that ran out of memory.
struct FitsRecord {
  int ran = 0, ran_called_fits = 0, out_of_memory = 0, out_of_memory_called_no_fit = 0;
};

struct ErrorBands {
  RatioBand speed;
  std::string basis;  ///< which runs the speed band comes from ("pytorch", or "all stacks")
  /// The hardware asked about when the stack's held-out runs never ran on it ("" when they did): the band is then
  /// widened to every stack's, since a stack's error on one chip says little of its kernels on another.
  std::string untried_chip;
  RatioBand memory;
  FitsRecord fits;
};
/// `chip`: the request's hardware preset id ("" for a hardware object of the user's own).
ErrorBands error_bands(const std::string& software, const std::string& chip);

/// The `error_band` object of a step answer: tokens/s, MFU, step time and memory per GPU as ranges (p10–p90 of the
/// held-out ratios applied to the prediction), with the counts they rest on.
json error_band_json(const ErrorBands& bands, const StepResult& step);

}  // namespace parascope::detail
