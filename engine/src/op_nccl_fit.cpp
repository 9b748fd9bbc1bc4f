// The "nccl_fit" operation: pasted nccl-tests output -> α and β per link level, the measured and fitted busbw of every
// row, and the cluster override (`cluster` of a step or plan request) that rides those links.
#include <algorithm>

#include "json_out.hpp"
#include "nccl_fit.hpp"
#include "nccl_resolve.hpp"
#include "network_fit.hpp"
#include "ops.hpp"

namespace parascope::detail {

namespace {

struct Fitted {
  NcclTable table;
  ResolvedTable what;
  NcclTableFit fit;
  double latency = 0, bandwidth = 0;  ///< the link: the smallest sizes' α, the largest sizes' B
  bool inter() const { return what.gpus > what.gpus_per_node; }
};

const char* busbw_meaning(NcclCollective c) {
  if (c == NcclCollective::all_reduce) {
    return "busbw = algbw × 2(n−1)/n: an all-reduce moves 2(n−1)/n of the buffer through each GPU's link whatever "
           "the algorithm, so busbw compares with one link's bandwidth at any n (nccl-tests doc/PERFORMANCE.md)";
  }
  if (c == NcclCollective::alltoall) {
    return "busbw = algbw × (n−1)/n: each GPU sends all but its own 1/n of the buffer (nccl-tests "
           "doc/PERFORMANCE.md)";
  }
  return "busbw = algbw × (n−1)/n: S is the whole (gathered, or reduced) buffer, of which each GPU's link carries "
         "(n−1)/n (nccl-tests doc/PERFORMANCE.md)";
}

NcclOptions read_options(RequestReader& r) {
  NcclOptions o;
  o.gpus = r.integer_or("gpus", 0, 2, 1'000'000);
  o.gpus_per_node = r.integer_or("gpus_per_node", 0, 1, 1'000'000);
  const std::string c =
      r.choice_or("collective", "unknown", {"all_reduce", "all_gather", "reduce_scatter", "alltoall", "unknown"});
  if (c == "all_reduce") o.collective = NcclCollective::all_reduce;
  if (c == "all_gather") o.collective = NcclCollective::all_gather;
  if (c == "reduce_scatter") o.collective = NcclCollective::reduce_scatter;
  if (c == "alltoall") o.collective = NcclCollective::alltoall;
  return o;
}

Fitted fit_table(NcclTable table, const NcclOptions& o) {
  Fitted f;
  f.what = resolve_table(table, o);
  f.table = std::move(table);
  f.fit = fit_nccl_table(f.table.rows, collective_model(f.what.collective, f.what.gpus));
  if (f.fit.regimes.empty() || !(f.fit.regimes.back().bandwidth > 0)) {
    refuse(code::invalid_value,
           {"line ", f.table.header_line, ": the table's times do not grow with its sizes: no bandwidth to fit"},
           "text");
  }
  f.latency = f.fit.regimes.front().latency;
  f.bandwidth = f.fit.regimes.back().bandwidth;
  return f;
}

json table_json(const Fitted& f) {
  json out;
  put(out, "collective", nccl_collective_name(f.what.collective));
  put(out, "gpus", f.what.gpus);
  put(out, "gpus_per_node", f.what.gpus_per_node);
  put(out, "level", f.inter() ? "inter" : "intra");
  put(out, "header_line", f.table.header_line);
  put(out, "bus_factor", collective_model(f.what.collective, f.what.gpus).bus_factor);
  put(out, "busbw_meaning", busbw_meaning(f.what.collective));
  put(out, "latency", f.latency);
  put(out, "bandwidth", f.bandwidth);
  json& regimes = put_array(out, "regimes");
  for (const NcclRegime& g : f.fit.regimes) {
    json& r = push_object(regimes);
    put(r, "from_bytes", g.from_bytes);
    put(r, "to_bytes", g.to_bytes);
    put(r, "latency", g.latency);
    put(r, "bandwidth", g.bandwidth);
  }
  return out;
}

void points_json(const Fitted& f, std::int64_t index, json& points) {
  for (std::size_t i = 0; i < f.table.rows.size(); ++i) {
    const NcclRow& row = f.table.rows[i];
    json& p = push_object(points);
    put(p, "table", index);
    put(p, "line", row.line);
    put(p, "bytes", row.bytes);
    put(p, "time", row.time);
    put(p, "model_time", f.fit.model_time[i]);
    put(p, "measured_algbw", row.algbw);
    put(p, "measured_busbw", row.busbw);
    put(p, "model_busbw", f.fit.model_busbw[i]);
  }
}

/// Per level the table with the most GPUs (the first of equals): the link a group of that kind rides.
const Fitted* widest(const std::vector<Fitted>& all, bool inter) {
  const Fitted* best = nullptr;
  for (const Fitted& f : all) {
    if (f.inter() == inter && (!best || f.what.gpus > best->what.gpus)) best = &f;
  }
  return best;
}

/// The override: intra_* from the widest one-node table; inter_* from the widest cross-node one, its bandwidth per
/// NIC (a crossing group rides members_per_node × inter_bandwidth, engine/API.md `step`); and the cross-node
/// all-reduce rows as cluster.nccl_tests, which `step` fits its own way (network_fit.hpp).
json cluster_json(const std::vector<Fitted>& all, json& links) {
  json cluster = json::object();
  if (const Fitted* f = widest(all, false)) {
    put(cluster, "intra_bandwidth", f->bandwidth);
    put(cluster, "intra_latency", f->latency);
    put(cluster, "gpus_per_node", f->what.gpus_per_node);
    json& l = put_object(links, "intra");
    put(l, "bandwidth", f->bandwidth), put(l, "latency", f->latency), put(l, "gpus", f->what.gpus);
  }
  if (const Fitted* f = widest(all, true)) {
    const double per_nic = f->bandwidth / double(f->what.gpus_per_node);
    put(cluster, "inter_bandwidth", per_nic);
    put(cluster, "inter_latency", f->latency);
    put(cluster, "gpus_per_node", f->what.gpus_per_node);
    json& l = put_object(links, "inter");
    put(l, "bandwidth", f->bandwidth), put(l, "latency", f->latency), put(l, "gpus", f->what.gpus);
    put(l, "per_gpu_nic_bandwidth", per_nic);
  }
  std::vector<NcclTestRow> rows;
  for (const Fitted& f : all) {
    if (!f.inter() || f.what.collective != NcclCollective::all_reduce) continue;
    for (const NcclRow& r : f.table.rows) {
      if (r.bytes >= 1 && r.busbw >= 1 && rows.size() < 4096) rows.push_back({f.what.gpus, r.bytes, r.busbw});
    }
  }
  if (!rows.empty()) {
    json& out = put_array(cluster, "nccl_tests");
    for (const NcclTestRow& r : rows) {
      json& row = push_object(out);
      put(row, "gpus", r.gpus), put(row, "bytes", r.bytes), put(row, "busbw", r.busbw);
    }
    json& fit = put_array(links, "network_fit");
    for (const MeasuredNetwork& m : fit_nccl_tests(rows)) {
      json& row = push_object(fit);
      put(row, "gpus", m.gpus), put(row, "bandwidth", m.bandwidth), put(row, "latency", m.latency);
    }
  }
  return cluster;
}

}  // namespace

json op_nccl_fit(RequestReader& request) {
  const json& text = request.value("text");
  if (!text.is_string()) refuse(code::wrong_type, {"text must be a string: nccl-tests output as printed"}, "text");
  const NcclOptions options = read_options(request);
  request.finish();
  std::vector<Fitted> all;
  for (NcclTable& t : parse_nccl_output(text.get_ref<const std::string&>(), "text")) {
    all.push_back(fit_table(std::move(t), options));
  }
  json out;
  json& tables = put_array(out, "tables");
  json& points = put_array(out, "points");
  for (std::size_t i = 0; i < all.size(); ++i) {
    tables.push_back(table_json(all[i]));
    points_json(all[i], std::int64_t(i), points);
  }
  json& links = put_object(out, "links");
  put(out, "cluster", cluster_json(all, links));
  return out;
}

}  // namespace parascope::detail
