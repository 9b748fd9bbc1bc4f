// Each nccl-tests table's collective, GPU count and GPUs per node: from its header, else the request, else its numbers.
#include "nccl_resolve.hpp"

#include <cmath>

#include "nccl_fit.hpp"

namespace parascope::detail {

namespace {

/// busbw / algbw of the table's row with the largest algbw (the most printed digits); 0 when every algbw is below
/// 1 GB/s (printed to two decimals, too coarse to read a ratio from).
double bus_ratio(const NcclTable& t, std::int64_t& line) {
  const NcclRow* best = nullptr;
  for (const NcclRow& r : t.rows) {
    if (!best || r.algbw > best->algbw) best = &r;
  }
  if (!best || best->algbw < 1e9) return 0.0;
  line = best->line;
  return best->busbw / best->algbw;
}

bool near(double a, double b, double tolerance) { return std::fabs(a - b) <= tolerance * std::max(a, b); }

/// The collective when no program name was read: all-reduce's bus factor 2(n−1)/n is 1 or more, the others' (n−1)/n
/// below 1; of those, reduce_scatter reduces (all_gather and alltoall print redop "none").
NcclCollective infer_collective(const NcclTable& t) {
  std::int64_t line = t.header_line;
  const double r = bus_ratio(t, line);
  if (r >= 0.995) return NcclCollective::all_reduce;
  const bool reduces = !t.rows.empty() && t.rows.front().redop != "none" && !t.rows.front().redop.empty();
  if (r > 0 && reduces) return NcclCollective::reduce_scatter;
  refuse(code::missing_field,
         {"line ", t.header_line,
          ": the text does not name the program (all_reduce_perf, all_gather_perf, "
          "reduce_scatter_perf, alltoall_perf) and its numbers do not tell; give collective"},
         "collective");
}

/// GPUs from busbw / algbw when the header lists none: all-reduce's 2(n−1)/n, the others' (n−1)/n, solved for n.
std::int64_t gpus_from_ratio(const NcclTable& t, NcclCollective c) {
  std::int64_t line = 0;
  const double r = bus_ratio(t, line);
  if (r <= 0) return 0;
  const double n = c == NcclCollective::all_reduce ? 2.0 / (2.0 - r) : 1.0 / (1.0 - r);
  if (!std::isfinite(n) || n < 1.5 || n > 1e6) return 0;
  const std::int64_t whole = std::int64_t(std::llround(n));
  const double f = collective_model(c, whole).bus_factor;
  return near(r, f, 0.005) ? whole : 0;
}

std::int64_t resolve_gpus(const NcclTable& t, const NcclOptions& o, NcclCollective c) {
  const bool listed = t.gpus > 0 && !t.devices_truncated;
  if (listed && o.gpus > 0 && o.gpus != t.gpus) {
    refuse(code::inconsistent,
           {"gpus = ", o.gpus, " but the table at line ", t.header_line, " lists ", t.gpus, " ranks"}, "gpus");
  }
  if (listed) return t.gpus;
  if (o.gpus > 0) return o.gpus;
  const std::int64_t n = gpus_from_ratio(t, c);
  if (n > 0) return n;
  refuse(code::missing_field,
         {"line ", t.header_line, ": the output lists no complete \"# Using devices\" ranks; give gpus"}, "gpus");
}

/// Refuses a table whose busbw / algbw is not its collective's factor at its GPU count (a wrong gpus or program).
void check_factor(const NcclTable& t, const ResolvedTable& r) {
  std::int64_t line = t.header_line;
  const double ratio = bus_ratio(t, line);
  const double f = collective_model(r.collective, r.gpus).bus_factor;
  if (ratio > 0 && !near(ratio, f, 0.02)) {
    refuse(code::inconsistent,
           {"line ", line, ": busbw / algbw = ", ratio, " but ", nccl_collective_name(r.collective), " on ", r.gpus,
            " GPUs has bus factor ", f, ": the GPU count or the collective is not this table's"},
           "text");
  }
}

}  // namespace

ResolvedTable resolve_table(const NcclTable& t, const NcclOptions& o) {
  ResolvedTable r;
  r.collective = t.collective != NcclCollective::unknown ? t.collective : o.collective;
  if (r.collective == NcclCollective::unknown) r.collective = infer_collective(t);
  r.gpus = resolve_gpus(t, o, r.collective);
  if (r.gpus < 2) refuse(code::invalid_value, {"line ", t.header_line, ": one GPU measures no link"}, "text");
  check_factor(t, r);
  if (t.gpus_per_node > 0 && !t.devices_truncated && o.gpus_per_node > 0 && o.gpus_per_node != t.gpus_per_node) {
    refuse(code::inconsistent,
           {"gpus_per_node = ", o.gpus_per_node, " but the table at line ", t.header_line, " lists ", t.gpus_per_node,
            " ranks on one host"},
           "gpus_per_node");
  }
  r.gpus_per_node = t.gpus_per_node > 0 && !t.devices_truncated ? t.gpus_per_node : o.gpus_per_node;
  if (r.gpus_per_node <= 0) {
    refuse(code::missing_field,
           {"line ", t.header_line, ": the output names no hosts (\"#  Rank r ... on host\"); give gpus_per_node"},
           "gpus_per_node");
  }
  return r;
}

}  // namespace parascope::detail
