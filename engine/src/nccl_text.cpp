// nccl-tests output (text tables, or the JSON file of -J) -> tables of rows with the GPUs and hosts their header lists.
#include "nccl_text.hpp"

#include <map>
#include <set>

#include "decimal_to_double.hpp"
#include "parse_json.hpp"
#include "request_reader.hpp"

namespace parascope::detail {

const char* nccl_collective_name(NcclCollective c) {
  switch (c) {
    case NcclCollective::all_reduce:
      return "all_reduce";
    case NcclCollective::all_gather:
      return "all_gather";
    case NcclCollective::reduce_scatter:
      return "reduce_scatter";
    case NcclCollective::alltoall:
      return "alltoall";
    default:
      return "unknown";
  }
}

namespace {

constexpr std::size_t kMaxTables = 64;
constexpr std::size_t kMaxRows = 1024;  // per table: the fit's regime search is O(rows²)

std::vector<std::string> tokens_of(std::string_view line) {
  std::vector<std::string> out;
  std::size_t i = 0;
  while (i < line.size()) {
    while (i < line.size() && (line[i] == ' ' || line[i] == '\t' || line[i] == '\r')) ++i;
    const std::size_t start = i;
    while (i < line.size() && line[i] != ' ' && line[i] != '\t' && line[i] != '\r') ++i;
    if (i > start) out.emplace_back(line.substr(start, i - start));
  }
  return out;
}

/// The line without mpirun's --tag-output prefix ("[1,0]<stdout>:").
std::string_view untagged(std::string_view line) {
  const std::size_t tag = line.find("]<stdout>:");
  if (!line.empty() && line[0] == '[' && tag != std::string_view::npos) return line.substr(tag + 10);
  return line;
}

/// A whole token as a number; false when it is not one.
bool to_number(const std::string& token, double& out) {
  char* end = nullptr;
  out = decimal_to_double(token.c_str(), &end);
  return end && *end == '\0' && end != token.c_str();
}

/// The program a line names (all_reduce_perf, broadcast_perf, ...); unknown when none. Refuses the programs whose
/// collective the fit has no model for.
NcclCollective program_in(std::string_view line, std::int64_t number, const std::string& field) {
  static const std::pair<const char*, NcclCollective> known[] = {
      {"all_reduce_perf", NcclCollective::all_reduce},
      {"all_gather_perf", NcclCollective::all_gather},
      {"reduce_scatter_perf", NcclCollective::reduce_scatter},
      {"alltoall_perf", NcclCollective::alltoall}};
  for (const auto& [name, c] : known) {
    if (line.find(name) != std::string_view::npos) return c;
  }
  for (const char* other : {"broadcast_perf", "reduce_perf", "sendrecv_perf", "gather_perf", "scatter_perf",
                            "hypercube_perf", "alltoallv_perf"}) {
    const std::size_t at = line.find(other);
    if (at != std::string_view::npos && (at == 0 || line[at - 1] != '_')) {
      refuse(code::invalid_value,
             {"line ", number, ": ", other,
              " is not fitted; paste all_reduce_perf, all_gather_perf, "
              "reduce_scatter_perf or alltoall_perf output"},
             field);
    }
  }
  return NcclCollective::unknown;
}

/// What the lines before a table said: the program, and the "#  Rank r ... on host device d" lines.
struct Context {
  NcclCollective collective = NcclCollective::unknown;
  std::int64_t name_line = 0;
  std::map<std::int64_t, std::string> rank_host;
  bool truncated = false;
  bool in_devices = false;
};

void read_context_line(std::string_view body, std::int64_t number, Context& c, const std::string& field) {
  const NcclCollective named = program_in(body, number, field);
  if (named != NcclCollective::unknown) c.collective = named, c.name_line = number;
  const std::vector<std::string> t = tokens_of(body);
  if (body.find("Using devices") != std::string_view::npos) {
    c.in_devices = true, c.rank_host.clear(), c.truncated = false;
    return;
  }
  // "#  Rank  0 Group  0 Pid 1887 on worker-1 device  0 [0x8d] NVIDIA H100" (older: without "Group")
  if (c.in_devices && t.size() >= 5 && t[0] == "#" && t[1] == "Rank") {
    double rank = 0;
    std::size_t on = 2;
    while (on < t.size() && t[on] != "on") ++on;
    if (to_number(t[2], rank) && on + 1 < t.size()) c.rank_host[std::int64_t(rank)] = t[on + 1];
    return;
  }
  if (c.in_devices && body.find("...") != std::string_view::npos) c.truncated = true;
}

/// Column positions of the out-of-place time, algbw, busbw and of redop, from "#  size  count  type  redop ..."
struct Columns {
  std::size_t time = 5, algbw = 6, busbw = 7, redop = 3;
  bool found = false;
};

bool read_header(const std::vector<std::string>& t, Columns& cols) {
  if (t.size() < 4 || t[0] != "#" || t[1] != "size" || t[2] != "count") return false;
  auto at = [&](const char* name, std::size_t fallback) {
    for (std::size_t i = 1; i < t.size(); ++i) {
      if (t[i] == name) return i - 1;  // data rows have no leading "#"
    }
    return fallback;
  };
  cols.time = at("time", at("cputime", 5));
  cols.algbw = at("algbw", cols.time + 1);
  cols.busbw = at("busbw", cols.time + 2);
  cols.redop = at("redop", 3);
  cols.found = true;
  return true;
}

NcclRow read_row(const std::vector<std::string>& t, const Columns& cols, std::int64_t number,
                 const std::string& field) {
  NcclRow row;
  row.line = number;
  double time = 0;
  const bool ok = t.size() > cols.busbw && to_number(t[0], row.bytes) && row.bytes >= 0 &&
                  to_number(t[cols.time], time) && time >= 0 && to_number(t[cols.algbw], row.algbw) && row.algbw >= 0 &&
                  to_number(t[cols.busbw], row.busbw) && row.busbw >= 0;
  if (!ok) {
    refuse(code::invalid_value,
           {"line ", number,
            ": not an nccl-tests row (size, count, type, redop, root, then time in µs, algbw and "
            "busbw in GB/s, #wrong, for out-of-place and in-place)"},
           field);
  }
  row.time = time * 1e-6, row.algbw *= 1e9, row.busbw *= 1e9;
  if (cols.redop < t.size()) row.redop = t[cols.redop];
  return row;
}

NcclTable start_table(const Context& c, std::int64_t header_line) {
  NcclTable table;
  table.collective = c.collective;
  table.name_line = c.name_line;
  table.header_line = header_line;
  table.gpus = std::int64_t(c.rank_host.size());
  std::map<std::string, std::int64_t> per_host;
  for (const auto& [rank, host] : c.rank_host) table.gpus_per_node = std::max(table.gpus_per_node, ++per_host[host]);
  table.devices_truncated = c.truncated;
  return table;
}

std::vector<NcclTable> read_text(std::string_view text, const std::string& field) {
  std::vector<NcclTable> tables;
  Context context;
  Columns cols;
  bool in_table = false;
  std::int64_t number = 0;
  for (std::size_t at = 0; at <= text.size();) {
    std::size_t end = text.find('\n', at);
    if (end == std::string_view::npos) end = text.size();
    const std::string_view body = untagged(text.substr(at, end - at));
    at = end + 1, ++number;
    const std::vector<std::string> t = tokens_of(body);
    if (t.empty()) continue;
    if (read_header(t, cols)) {
      if (tables.size() == kMaxTables) refuse(code::too_large, {"more than 64 nccl-tests tables"}, field);
      tables.push_back(start_table(context, number));
      in_table = true, context.in_devices = false;
      continue;
    }
    const bool digits = t[0].find_first_not_of("0123456789") == std::string::npos;
    if (in_table && digits) {
      if (tables.back().rows.size() == kMaxRows) {
        refuse(code::too_large, {"line ", number, ": more than 1,024 rows in one table"}, field);
      }
      tables.back().rows.push_back(read_row(t, cols, number, field));
      continue;
    }
    if (in_table && body.find("Out of bounds") != std::string_view::npos) in_table = false;
    if (!in_table) read_context_line(body, number, context, field);
    if (!in_table && digits && t.size() >= 8 && !cols.found) {
      refuse(code::invalid_value,
             {"line ", number,
              ": a table row before nccl-tests' column header (\"#  size  count  type  redop ...\"): "
              "paste the header too"},
             field);
    }
  }
  return tables;
}

}  // namespace

std::vector<NcclTable> parse_nccl_output(std::string_view text, const std::string& field) {
  const std::size_t first = text.find_first_not_of(" \t\r\n");
  std::vector<NcclTable> tables;
  if (first != std::string_view::npos && text[first] == '{') {
    nlohmann::json doc;
    try {
      doc = parse_json(text);
    } catch (const nlohmann::json::exception&) {
      refuse(code::invalid_value, {"the text starts with \"{\" but is not JSON (nccl-tests' -J output file)"}, field);
    }
    tables = read_nccl_json(doc, field);
  } else {
    tables = read_text(text, field);
  }
  for (const NcclTable& t : tables) {
    if (t.rows.empty()) refuse(code::invalid_value, {"line ", t.header_line, ": a table header with no rows"}, field);
  }
  if (tables.empty()) {
    refuse(code::invalid_value,
           {"no nccl-tests table found: expected the column header \"#  size  count  type  redop ...\" and its rows"},
           field);
  }
  return tables;
}

}  // namespace parascope::detail
