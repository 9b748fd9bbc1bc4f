// The "moe_route" operation: route tokens with a skewed router, report expert and rank loads, drops, all-to-all time.
#include <initializer_list>

#include "json_out.hpp"
#include "link_json.hpp"
#include "ops.hpp"
#include "parascope/cost_types.hpp"
#include "parascope/moe.hpp"
#include "parascope/presets.hpp"
#include "spec_json.hpp"

namespace parascope::detail {

namespace {

constexpr std::int64_t kMaxTokens = 1 << 22;
constexpr std::int64_t kMaxAssignments = 1 << 22;  // tokens · top_k: bounds the work (engine/API.md, cost model)
constexpr std::int64_t kMaxExperts = 4096;
constexpr std::int64_t kMaxEp = 256;  // the send matrix is ep × ep numbers
constexpr double kMaxSkew = 10;
constexpr std::int64_t kMaxSeed = std::int64_t(1) << 53;  // exact in a JSON double

/// The links of the all-to-all: the one link (a preset's, or bandwidth + latency), and with ranks_per_node k between
/// 2 and ep − 1 the preset's intra-node link for node mates as well.
struct RouteLinks {
  NamedLink link;   ///< between nodes, or the only link
  NamedLink intra;  ///< inside a node, when the group is split over nodes (ranks_per_node > 1)
  std::int64_t ranks_per_node = 1;
};

/// "hardware" with "ranks_per_node": EP ranks r and q share a node when r / k == q / k; the preset gives both links.
RouteLinks read_split_links(RequestReader& request, std::int64_t ep) {
  refuse_present(request, {"bandwidth", "latency"},
                 "give either hardware (its links) or bandwidth with latency, not both");
  refuse_present(request, {"link_kind"},
                 "give either ranks_per_node (which ranks share a node) or link_kind, not both");
  const std::int64_t k = request.integer("ranks_per_node", 1, kMaxEp);
  if (ep % k != 0) {
    refuse(code::inconsistent, {"ranks_per_node = ", k, " must divide ep = ", ep, " (nodes hold equal shares)"},
           "ranks_per_node");
  }
  const Hardware h = resolve_hardware(request, "hardware");
  RouteLinks out;
  out.ranks_per_node = k;
  for (const bool intra : {false, true}) {
    if (intra ? k == 1 : k == ep) continue;  // a link no rank uses need not exist
    const NamedLink l = preset_link(h, intra);
    if (l.link.bandwidth <= 0) {
      refuse(code::missing_field,
             {"hardware gives no ", (intra ? "intra" : "inter"),
              "_bandwidth: add it to the hardware object, or give bandwidth and latency"},
             "hardware");
    }
    (intra && k < ep ? out.intra : out.link) = l;
  }
  if (k == ep) out.ranks_per_node = 1;  // the whole group in one node: one link, the intra one
  return out;
}

/// "hardware" (preset id or object) with optional "link_kind" or "ranks_per_node", or "bandwidth" + "latency"
/// (bytes/s one way; s per step).
RouteLinks read_link(RequestReader& request, std::int64_t ep) {
  request.accept("hardware");
  request.accept("bandwidth");
  request.accept("latency");
  request.accept("link_kind");
  request.accept("ranks_per_node");
  if (request.has("hardware") && request.has("ranks_per_node")) return read_split_links(request, ep);
  if (request.has("ranks_per_node")) {
    refuse(code::inconsistent, {"ranks_per_node only applies with hardware"}, "ranks_per_node");
  }
  if (request.has("hardware")) {
    refuse_present(request, {"bandwidth", "latency"},
                   "give either hardware (its links) or bandwidth with latency, not both");
    const Hardware h = resolve_hardware(request, "hardware");
    // Default: the EP group of consecutive ranks stays in one node when it fits (and tiles it), as place_group says.
    const bool fits = h.gpus_per_node > 0 && ep <= h.gpus_per_node && h.gpus_per_node % ep == 0;
    const bool intra = request.choice_or("link_kind", fits ? "intra" : "inter", {"intra", "inter"}) == "intra";
    NamedLink l = preset_link(h, intra);
    if (l.link.bandwidth <= 0) {
      refuse(code::missing_field,
             {"hardware gives no ", (intra ? "intra" : "inter"),
              "_bandwidth: add it to the hardware object, or give bandwidth and latency"},
             "hardware");
    }
    return {l, {}, 1};
  }
  if (request.has("link_kind")) {
    refuse(code::inconsistent, {"link_kind only applies with hardware"}, "link_kind");
  }
  if (!request.has("bandwidth")) {
    refuse(code::missing_field,
           {"a link is required: hardware (a preset id or object, optionally with link_kind \"intra\" or "
            "\"inter\"), or bandwidth (bytes/s, one direction, per GPU) with latency (seconds per step)"},
           "hardware");
  }
  return {read_bandwidth_latency(request), {}, 1};
}

/// "bytes_per_token", or "hidden" × "bytes_per_element" (default 2: BF16 activations).
double read_bytes_per_token(RequestReader& request) {
  request.accept("hidden");
  request.accept("bytes_per_element");
  request.accept("bytes_per_token");
  if (request.has("bytes_per_token")) {
    refuse_present(request, {"hidden", "bytes_per_element"},
                   "give either bytes_per_token or hidden (with bytes_per_element), not both");
    return request.number("bytes_per_token", 0, 1e12, true);
  }
  if (!request.has("hidden")) {
    refuse(code::missing_field,
           {"hidden (the model width; one token's activation is hidden · bytes_per_element bytes) or "
            "bytes_per_token is required"},
           "hidden");
  }
  const double hidden = double(request.integer("hidden", 1, 1'000'000));
  return hidden * request.number_or("bytes_per_element", 2, 0, 16, true);
}

}  // namespace

json op_moe_route(RequestReader& request) {
  RouteSpec spec;
  spec.tokens = request.integer("tokens", 1, kMaxTokens);
  spec.experts = request.integer("experts", 1, kMaxExperts);
  spec.top_k = request.integer("top_k", 1, kMaxExperts);
  if (spec.top_k > spec.experts) {
    refuse(code::inconsistent,
           {"top_k = ", spec.top_k, " distinct experts per token, but there are only ", spec.experts, " experts"},
           "top_k");
  }
  if (spec.tokens * spec.top_k > kMaxAssignments) {
    refuse(code::too_large,
           {"tokens · top_k = ", spec.tokens * spec.top_k, " assignments; at most ", kMaxAssignments,
            " are routed in one request"},
           "tokens");
  }
  spec.ep = request.integer_or("ep", 1, 1, kMaxEp);
  if (spec.experts % spec.ep != 0) {
    refuse(code::inconsistent,
           {"ep = ", spec.ep, " must divide experts = ", spec.experts, " (each rank holds experts / ep whole experts)"},
           "ep");
  }
  spec.skew = request.number_or("skew", 0, 0, kMaxSkew);
  spec.capacity_factor = request.number_or("capacity_factor", 0, 0, 1000);
  spec.seed = std::uint64_t(request.integer_or("seed", 0, 0, kMaxSeed));
  AllToAllLoad load;
  load.bytes_per_token = read_bytes_per_token(request);
  const RouteLinks links = read_link(request, spec.ep);
  // The share of each link's bandwidth the all-to-all reaches: step's default (efficiency.link_efficiency), so the
  // router's dispatch and step's are timed on the same links.
  const double link_efficiency = request.number_or("link_efficiency", Efficiency{}.link_efficiency, 0.01, 1);
  load.link = {links.link.link.bandwidth * link_efficiency, links.link.link.latency};
  load.intra = {links.intra.link.bandwidth * link_efficiency, links.intra.link.latency};
  load.ranks_per_node = links.ranks_per_node;
  request.finish();

  const Routing routing = route_tokens(spec);
  const CollectiveCost routed = routed_alltoall(routing, spec.ep, load);
  const CollectiveCost balanced = balanced_alltoall(spec.tokens, spec.top_k, spec.ep, load);
  json out;
  put(out, "expert_load", routing.expert_load);
  put(out, "kept_load", routing.kept_load);
  put(out, "rank_load", routing.rank_load);
  put(out, "send_matrix", routing.send_matrix);
  put(out, "max_over_mean", routing.max_over_mean);
  put(out, "capacity", routing.capacity);
  put(out, "dropped", routing.dropped);
  put(out, "hot_expert", routing.hot_expert);
  put(out, "hot_rank", routing.hot_rank);
  put(out, "hot_rank_bytes", busiest_rank_bytes(routing, load.bytes_per_token));
  put(out, "bytes_per_token", load.bytes_per_token);
  put(out, "time", routed.time);
  put(out, "balanced_time", balanced.time);
  put(out, "router_imbalance", alltoall_imbalance(routed, balanced, spec.ep, load));
  put(out, "link_efficiency", link_efficiency);
  put(out, "link", link_json(links.link));
  put(out, "router",
      "Zipf: the expert of popularity rank i has weight 1/(i+1)^skew (ranks dealt by a seeded shuffle); "
      "top_k distinct experts drawn without replacement in proportion to weight");
  if (links.ranks_per_node > 1) {
    put(out, "intra_link", link_json(links.intra));
    put(out, "ranks_per_node", links.ranks_per_node);
  }
  return out;
}

}  // namespace parascope::detail
