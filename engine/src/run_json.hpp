/// Reads the fields shared by "step" and "traffic": model, hardware, cluster and parallel, checked together.
#pragma once

#include <vector>

#include "network_fit.hpp"
#include "parascope/hardware.hpp"
#include "parascope/model.hpp"
#include "parascope/parallel.hpp"
#include "request_reader.hpp"

namespace parascope::detail {

/// Reads a cluster object: gpus, gpus_per_node and the links (each defaults to the hardware preset's).
Cluster read_cluster(RequestReader& r, const Hardware& hw);
/// cluster.nccl_tests: rows of nccl-tests' all_reduce_perf, each {gpus, bytes, busbw (bytes/s)}.
std::vector<NcclTestRow> read_nccl_tests(RequestReader& r);

/// Reads `offload_optimizer` (0 to 1, default 0), refusing it on hardware without host bandwidths.
double read_offload(RequestReader& r, const Hardware& hw);

/// Reads request.model, .hardware, .cluster and .parallel; refuses splits that do not multiply out, naming the product.
TrainingRun read_run(RequestReader& request);

}  // namespace parascope::detail
