// Links in requests and responses: preset links, explicit alpha-beta numbers, and fields that exclude each other.
#include "link_json.hpp"

#include "json_out.hpp"

namespace parascope::detail {

NamedLink preset_link(const Hardware& h, bool intra) {
  return intra ? NamedLink{h.intra_link, {h.intra_bandwidth, h.intra_latency}}
               : NamedLink{h.inter_link, {h.inter_bandwidth, h.inter_latency}};
}

NamedLink read_bandwidth_latency(RequestReader& request) {
  NamedLink l;
  l.link.bandwidth = request.number("bandwidth", 1, 1e16);  // ≥ 1 byte/s: no time overflows
  l.link.latency = request.number("latency", 0, 1.0);
  return l;
}

void refuse_present(RequestReader& request, std::initializer_list<const char*> keys, const std::string& why) {
  for (const char* k : keys) {
    request.accept(k);
    if (request.has(k)) refuse(code::conflicting_fields, {k, ": ", why}, k);
  }
}

json link_json(const NamedLink& l) {
  json j;
  put(j, "bandwidth", l.link.bandwidth);
  put(j, "latency", l.link.latency);
  if (!l.name.empty()) put(j, "name", l.name);
  return j;
}

}  // namespace parascope::detail
