/// What each nccl-tests table measured: its collective, GPU count and GPUs per node, from the header where it says,
/// else from the request's fields, else (GPUs only) from its busbw / algbw ratio; refused when they disagree.
#pragma once

#include <cstdint>

#include "nccl_text.hpp"
#include "request_reader.hpp"

namespace parascope::detail {

/// The request's optional fields (0 / unknown = not given).
struct NcclOptions {
  std::int64_t gpus = 0, gpus_per_node = 0;
  NcclCollective collective = NcclCollective::unknown;
};

struct ResolvedTable {
  NcclCollective collective = NcclCollective::unknown;
  std::int64_t gpus = 0, gpus_per_node = 0;
};

/// Throws RequestError naming the line (field "text") or the request field at fault.
ResolvedTable resolve_table(const NcclTable& table, const NcclOptions& options);

}  // namespace parascope::detail
