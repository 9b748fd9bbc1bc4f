/// Reading one link from a request, shared by the collective ops and moe_route: a preset's intra- or inter-node link,
/// or explicit bandwidth + latency.
#pragma once

#include <initializer_list>
#include <string>

#include "parascope/collectives.hpp"
#include "parascope/hardware.hpp"
#include "request_reader.hpp"

namespace parascope::detail {

/// A link as responses report it: its name (from a preset; empty otherwise) and its two numbers.
struct NamedLink {
  std::string name;
  Link link;
};

/// The preset's link inside a node (intra) or across nodes.
NamedLink preset_link(const Hardware& hardware, bool intra);

/// "bandwidth" (bytes/s, one direction, per GPU; > 0, ≤ 1e16) and "latency" (seconds per step; 0 to 1), both required.
NamedLink read_bandwidth_latency(RequestReader& request);

/// Marks each of `keys` as taken by this op and refuses the first one present: it excludes a field already chosen.
void refuse_present(RequestReader& request, std::initializer_list<const char*> keys, const std::string& why);

json link_json(const NamedLink& link);

}  // namespace parascope::detail
