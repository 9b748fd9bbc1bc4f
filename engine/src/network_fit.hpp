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

/// The fitted bandwidth and latency for a group of `gpus`: between two measured counts, the time per byte (1/B) and
/// per step (α) linear in the GPU count (a bandwidth that halves as the count doubles is read back exactly), and the
/// nearest count's outside them. No pow or log: the wasm modules link no libm tables for it.
MeasuredNetwork measured_at(const std::vector<MeasuredNetwork>& fit, std::int64_t gpus);

}  // namespace parascope::detail
