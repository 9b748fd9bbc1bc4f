// nccl-tests' JSON output (-J file.json, src/util.cu at v2.19.6): "args", "config.devices" and "results" -> one table.
#include <map>

#include "nccl_text.hpp"
#include "request_reader.hpp"

namespace parascope::detail {

namespace {

const nlohmann::json* member(const nlohmann::json& object, const char* key) {
  if (!object.is_object()) return nullptr;
  const auto it = object.find(key);
  return it == object.end() ? nullptr : &*it;
}

double number_in(const nlohmann::json* object, const char* key) {
  const nlohmann::json* v = object ? member(*object, key) : nullptr;
  return v && v->is_number() ? v->get<double>() : -1.0;
}

/// The program from "args"[0] ("./build/all_reduce_perf"), as the text reader names it.
NcclCollective program(const nlohmann::json& doc) {
  const nlohmann::json* args = member(doc, "args");
  if (!args || !args->is_array() || args->empty() || !(*args)[0].is_string()) return NcclCollective::unknown;
  const std::string name = (*args)[0].get<std::string>();
  if (name.find("all_reduce_perf") != std::string::npos) return NcclCollective::all_reduce;
  if (name.find("all_gather_perf") != std::string::npos) return NcclCollective::all_gather;
  if (name.find("reduce_scatter_perf") != std::string::npos) return NcclCollective::reduce_scatter;
  if (name.find("alltoall_perf") != std::string::npos) return NcclCollective::alltoall;
  return NcclCollective::unknown;
}

void read_devices(const nlohmann::json& doc, NcclTable& table) {
  const nlohmann::json* config = member(doc, "config");
  const nlohmann::json* devices = config ? member(*config, "devices") : nullptr;
  if (!devices || !devices->is_array()) return;
  std::map<std::string, std::int64_t> per_host;
  for (const nlohmann::json& d : *devices) {
    const nlohmann::json* host = member(d, "hostname");
    if (!host || !host->is_string()) continue;
    ++table.gpus;
    table.gpus_per_node = std::max(table.gpus_per_node, ++per_host[host->get<std::string>()]);
  }
}

}  // namespace

std::vector<NcclTable> read_nccl_json(const nlohmann::json& doc, const std::string& field) {
  const nlohmann::json* results = member(doc, "results");
  if (!results || !results->is_array()) {
    refuse(code::invalid_value, {"nccl-tests JSON without a \"results\" list (the -J output file)"}, field);
  }
  NcclTable table;
  table.collective = program(doc);
  read_devices(doc, table);
  for (std::size_t i = 0; i < results->size() && i < 1024; ++i) {
    const nlohmann::json& r = (*results)[i];
    const nlohmann::json* timing = member(r, "out_of_place");
    if (!timing || timing->is_null()) timing = member(r, "in_place");
    NcclRow row;
    row.line = std::int64_t(i) + 1;
    row.bytes = number_in(&r, "size");
    const double time = number_in(timing, "time");
    row.algbw = number_in(timing, "alg_bw") * 1e9;
    row.busbw = number_in(timing, "bus_bw") * 1e9;
    if (row.bytes < 0 || time < 0 || row.algbw < 0 || row.busbw < 0) {
      refuse(code::invalid_value,
             {"results[", std::int64_t(i), "]: needs \"size\" and out_of_place {\"time\", \"alg_bw\", \"bus_bw\"}"},
             field);
    }
    row.time = time * 1e-6;
    if (const nlohmann::json* op = member(r, "redop"); op && op->is_string()) row.redop = op->get<std::string>();
    table.rows.push_back(row);
  }
  if (results->size() > 1024) refuse(code::too_large, {"more than 1,024 results"}, field);
  return {table};
}

}  // namespace parascope::detail
