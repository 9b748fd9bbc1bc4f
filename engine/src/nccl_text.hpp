/// nccl-tests output as printed (the text tables of all_reduce_perf & co.) or written by `-J` (its JSON file), read
/// into tables of rows: what each run measured, on how many GPUs, over how many per node.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <vector>

namespace parascope::detail {

/// The collectives the fit knows (nccl-tests' all_reduce_perf, all_gather_perf, reduce_scatter_perf, alltoall_perf).
enum class NcclCollective { unknown, all_reduce, all_gather, reduce_scatter, alltoall };

const char* nccl_collective_name(NcclCollective c);

/// One row of a table, out-of-place columns: `bytes` is the "size" column (nccl-tests' S), time in s, bandwidths in
/// bytes/s (it prints µs and GB/s, GB = 10^9).
struct NcclRow {
  std::int64_t line = 0;  ///< 1-based line of the text (JSON: 1-based index in "results")
  double bytes = 0, time = 0, algbw = 0, busbw = 0;
  std::string redop;  ///< "sum", "none", ... (tells reduce_scatter from all_gather)
};

/// One run's table and what its header says about it (0 / unknown where it says nothing).
struct NcclTable {
  NcclCollective collective = NcclCollective::unknown;
  std::int64_t header_line = 0;    ///< the column header's line (JSON: 0)
  std::int64_t name_line = 0;      ///< where the program's name was read
  std::int64_t gpus = 0;           ///< ranks listed under "# Using devices"
  std::int64_t gpus_per_node = 0;  ///< the most ranks on one host
  bool devices_truncated = false;  ///< nccl-tests cut the device list ("...")
  std::vector<NcclRow> rows;
};

/// The tables of `text`, in order; throws RequestError (field `field`) naming the line of a row it cannot read, a
/// program whose collective the fit does not know, or a text with no table at all.
std::vector<NcclTable> parse_nccl_output(std::string_view text, const std::string& field);
/// The one table of a -J JSON file (nccl_json.cpp); throws as parse_nccl_output does.
std::vector<NcclTable> read_nccl_json(const nlohmann::json& doc, const std::string& field);

}  // namespace parascope::detail
