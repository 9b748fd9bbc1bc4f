/// The network as a cluster measured it: nccl-tests all-reduce rows (GPUs, message bytes, bus bandwidth) fitted to
/// one bandwidth and one per-step latency per GPU count, and read back for a group of any size.
#pragma once

#include <cstdint>
#include <vector>

#include "parascope/parallel.hpp"

namespace parascope::detail {

/// One line of nccl-tests' all_reduce_perf: `bytes` per GPU (its "size"), `busbw` in bytes/s (it prints GB/s).
struct NcclTestRow {
  std::int64_t gpus = 0;
  double bytes = 0, busbw = 0;
};

/// Per GPU count, the ring all-reduce time t = 2(n−1)·α + 2(n−1)/n·S/B fitted to the rows by least squares in t
/// (t = S·2(n−1)/n / busbw, nccl-tests PERFORMANCE.md): B and α. One message size gives B = its busbw and α = 0.
std::vector<MeasuredNetwork> fit_nccl_tests(std::vector<NcclTestRow> rows);

/// The fitted bandwidth and latency for a group of `gpus`, log-linear in the GPU count between the measured counts
/// and the nearest one's outside them.
MeasuredNetwork measured_at(const std::vector<MeasuredNetwork>& fit, std::int64_t gpus);

}  // namespace parascope::detail
