/// nccl-tests tables fitted to the alpha-beta model of each collective: per table up to three size ranges, each its
/// own latency α and bandwidth B, and the busbw the fit gives back for every row.
#pragma once

#include <cstdint>
#include <vector>

#include "nccl_text.hpp"

namespace parascope::detail {

/// A collective's ring model on n GPUs: time = steps·α + bus_factor·S/B (engine/API.md, collectives), and nccl-tests'
/// busbw = algbw · bus_factor (nccl-tests doc/PERFORMANCE.md).
struct CollectiveModel {
  double steps = 0;  ///< α terms: 2(n−1) all-reduce, n−1 all-gather / reduce-scatter, ⌈(n−1)/8⌉ all-to-all
  double bus_factor = 0;  ///< 2(n−1)/n all-reduce, (n−1)/n the others
};
CollectiveModel collective_model(NcclCollective c, std::int64_t gpus);

/// One size range of a table fitted to one line t = steps·α + bus_factor·S/B (bandwidth 0: latency only, no slope).
struct NcclRegime {
  double from_bytes = 0, to_bytes = 0;
  double latency = 0, bandwidth = 0;
};

struct NcclTableFit {
  std::vector<NcclRegime> regimes;  ///< ascending in size
  std::vector<double> model_time;   ///< per row of the table, in its order (s)
  std::vector<double> model_busbw;  ///< bytes/s
};

/// Fits `rows` (any order; rows of size 0 are answered 0 and not fitted) by weighted least squares in relative time
/// error, splitting the sizes into at most three contiguous ranges (NCCL switches protocol, LL / LL128 / Simple, and
/// algorithm by size: src/graph/tuning.cc), each range at least two rows, choosing the split of least total error.
NcclTableFit fit_nccl_table(const std::vector<NcclRow>& rows, const CollectiveModel& model);

}  // namespace parascope::detail
