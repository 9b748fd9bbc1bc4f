// The collective operations: "allreduce" (ring, tree, hierarchical; ring with an optional round-by-round trace),
// "allgather", "reducescatter", "alltoall". Validates the request, names the link, calls collectives.hpp.
#include <initializer_list>
#include <string>

#include "code_size.hpp"
#include "json_out.hpp"
#include "link_json.hpp"
#include "ops.hpp"
#include "parascope/collectives.hpp"
#include "parascope/presets.hpp"

namespace parascope::detail {

namespace {

constexpr std::int64_t kMaxGpus = 1'000'000;
constexpr double kMaxBytes = 1e18;
constexpr double kMaxBandwidth = 1e16;  // bytes/s: far above any link
constexpr double kMinBandwidth = 1;     // bytes/s: keeps every time finite (bytes up to 1e18 over at least 1)
constexpr double kMaxLatency = 1.0;     // seconds per step

PARASCOPE_SMALL const Hardware& preset_for(RequestReader& request) {
  const json& v = request.value("link");
  if (!v.is_string()) {
    refuse(code::wrong_type, {"link must be a hardware preset id (a string), e.g. \"h100-sxm\""}, "link");
  }
  const Hardware* h = find_hardware(v.get<std::string>());
  if (!h) {
    std::string ids;
    for (const auto& p : hardware_presets()) ids += (ids.empty() ? "" : ", ") + p.id;
    refuse(code::unknown_preset, {"link: no hardware preset \"", v.get<std::string>(), "\"; presets: ", ids}, "link");
  }
  return *h;
}

/// One link for a flat algorithm: "link" (preset id) + "link_kind" ("intra" | "inter"), or "bandwidth" + "latency".
/// A preset's intra link joins only the GPUs of one node: more than gpus_per_node of them cannot all be on it.
PARASCOPE_SMALL NamedLink read_flat_link(RequestReader& request, std::int64_t gpus) {
  const char* hierarchical_only =
      "intra_bandwidth, intra_latency, inter_bandwidth, inter_latency and gpus_per_node "
      "are for algorithm \"hierarchical\"; a flat collective takes one link";
  refuse_present(request, {"intra_bandwidth", "intra_latency", "inter_bandwidth", "inter_latency", "gpus_per_node"},
                 hierarchical_only);
  request.accept("link");
  request.accept("link_kind");
  request.accept("bandwidth");
  request.accept("latency");
  if (request.has("link")) {
    refuse_present(request, {"bandwidth", "latency"},
                   "give either link (a preset) or bandwidth with latency, not both");
    const Hardware& h = preset_for(request);
    if (!request.has("link_kind")) {
      refuse(code::missing_field,
             {"link_kind is required with link: \"intra\" (inside a node, e.g. NVLink) or \"inter\" (the "
              "network between nodes)"},
             "link_kind");
    }
    const bool intra = request.choice("link_kind", {"intra", "inter"}) == "intra";
    if (intra && h.gpus_per_node > 0 && gpus > h.gpus_per_node) {
      refuse(code::inconsistent,
             {"link_kind \"intra\" joins the accelerators of one node: ", h.id, " has ", h.gpus_per_node,
              " per node, so ", gpus, " span nodes and cross the network (link_kind \"inter\")"},
             "link_kind");
    }
    return preset_link(h, intra);
  }
  if (request.has("link_kind")) {
    refuse(code::inconsistent, {"link_kind only applies with link (a hardware preset id)"}, "link_kind");
  }
  if (!request.has("bandwidth") && !request.has("latency")) {
    refuse(code::missing_field,
           {"a link is required: link (a hardware preset id) with link_kind, or bandwidth (bytes/s, one "
            "direction, per GPU) with latency (seconds per step)"},
           "link");
  }
  return read_bandwidth_latency(request);
}

/// Both links and the node size for "hierarchical": "link" (preset: both its links, gpus_per_node defaulting to the
/// preset's), or intra_bandwidth, intra_latency, inter_bandwidth, inter_latency and gpus_per_node.
struct TwoLevel {
  NamedLink intra, inter;
  std::int64_t gpus_per_node = 0;
};

PARASCOPE_SMALL TwoLevel read_two_level(RequestReader& request, std::int64_t gpus) {
  refuse_present(request, {"bandwidth", "latency", "link_kind"},
                 "algorithm \"hierarchical\" uses two links: give link (a preset: both its links) or intra_bandwidth, "
                 "intra_latency, inter_bandwidth and inter_latency");
  request.accept("link");
  TwoLevel t;
  if (request.has("link")) {
    refuse_present(request, {"intra_bandwidth", "intra_latency", "inter_bandwidth", "inter_latency"},
                   "give either link (a preset) or the four intra_/inter_ numbers, not both");
    const Hardware& h = preset_for(request);
    t.intra = {h.intra_link, {h.intra_bandwidth, h.intra_latency}};
    t.inter = {h.inter_link, {h.inter_bandwidth, h.inter_latency}};
    t.gpus_per_node = request.integer_or("gpus_per_node", h.gpus_per_node, 1, kMaxGpus);
  } else {
    request.accept("intra_bandwidth");
    if (!request.has("intra_bandwidth") && !request.has("inter_bandwidth")) {
      refuse(code::missing_field,
             {"algorithm \"hierarchical\" needs link (a hardware preset id) or intra_bandwidth, "
              "intra_latency, inter_bandwidth, inter_latency and gpus_per_node"},
             "link");
    }
    t.intra.link = {request.number("intra_bandwidth", kMinBandwidth, kMaxBandwidth),
                    request.number("intra_latency", 0, kMaxLatency)};
    t.inter.link = {request.number("inter_bandwidth", kMinBandwidth, kMaxBandwidth),
                    request.number("inter_latency", 0, kMaxLatency)};
    t.gpus_per_node = request.integer("gpus_per_node", 1, kMaxGpus);
  }
  if (gpus > t.gpus_per_node && gpus % t.gpus_per_node != 0) {
    refuse(code::inconsistent,
           {"gpus (", gpus, ") must be a multiple of gpus_per_node (", t.gpus_per_node, "), or at most one node"},
           "gpus_per_node");
  }
  return t;
}

json cost_json(const CollectiveCost& c) {
  json out;
  put(out, "time", c.time);
  put(out, "algbw", c.algbw);
  put(out, "busbw", c.busbw);
  put(out, "bytes_sent_per_gpu", c.bytes_sent_per_gpu);
  put(out, "steps", c.steps);
  return out;
}

const char* phase_name(RingPhase p) { return p == RingPhase::scatter_reduce ? "scatter-reduce" : "all-gather"; }

PARASCOPE_NOT_INLINED json trace_json(const RingTrace& trace, double bytes, std::int64_t gpus) {
  json out;
  put(out, "chunk_bytes", bytes / double(gpus));
  put(out, "initial", trace.initial);
  json& rounds = put_array(out, "rounds");
  for (const RingRound& r : trace.rounds) {
    json& round = push_object(rounds);
    put(round, "phase", phase_name(r.phase));
    json& transfers = put_array(round, "transfers");
    for (const RingTransfer& t : r.transfers) {
      json& transfer = push_object(transfers);
      put(transfer, "from", t.from);
      put(transfer, "to", t.to);
      put(transfer, "chunk", t.chunk);
    }
    put(round, "buffers", r.buffers);
  }
  return out;
}

/// The fields every collective shares: gpus (1 to 10^6) and bytes (> 0).
std::int64_t read_gpus(RequestReader& request) { return request.integer("gpus", 1, kMaxGpus); }
double read_bytes(RequestReader& request) { return request.number("bytes", 0, kMaxBytes, true); }

/// A one-pass collective (all-gather, reduce-scatter, all-to-all): one algorithm, one link.
PARASCOPE_SMALL json one_pass_op(RequestReader& request, const char* algorithm,
                                 CollectiveCost (*cost)(std::int64_t, double, const Link&), const char* formula) {
  request.choice_or("algorithm", algorithm, {algorithm});
  const std::int64_t gpus = read_gpus(request);
  const double bytes = read_bytes(request);
  const NamedLink link = read_flat_link(request, gpus);
  request.finish();
  json r = cost_json(cost(gpus, bytes, link.link));
  put(r, "algorithm", algorithm);
  put(r, "link", link_json(link));
  put(r, "formula", formula);
  return r;
}

}  // namespace

// Reading and the answer around the trace (-O3, trace_json and ring_allreduce_trace): optimised for size in the wasm.
PARASCOPE_SMALL json op_allreduce(RequestReader& request) {
  const std::string algorithm = request.choice("algorithm", {"ring", "tree", "hierarchical"});
  const std::int64_t gpus = read_gpus(request);
  const double bytes = read_bytes(request);
  const bool trace = request.boolean_or("trace", false);
  json r;
  if (algorithm == "hierarchical") {
    const TwoLevel t = read_two_level(request, gpus);
    request.finish();
    r = cost_json(hierarchical_allreduce(gpus, t.gpus_per_node, bytes, t.intra.link, t.inter.link));
    put(r, "intra", link_json(t.intra));
    put(r, "inter", link_json(t.inter));
    put(r, "gpus_per_node", t.gpus_per_node);
    put(r, "formula",
        "ring reduce-scatter in each node of g GPUs + ring all-reduce of S/g across N/g nodes + ring all-gather in the "
        "node: 2(g-1)·α_intra + 2(g-1)/g·S/B_intra + 2(N/g-1)·α_inter + 2(N/g-1)/(N/g)·(S/g)/B_inter (Horovod "
        "hierarchical all-reduce, PR #411; Jia et al. 2018)");
  } else {
    const NamedLink link = read_flat_link(request, gpus);
    request.finish();
    const bool ring = algorithm == "ring";
    r = cost_json(ring ? ring_allreduce(gpus, bytes, link.link) : tree_allreduce(gpus, bytes, link.link));
    put(r, "link", link_json(link));
    put(r, "formula",
        ring ? "2(N-1)·α + 2(N-1)/N·S/B (ring: Patarasuk & Yuan 2009; Thakur et al. 2005)"
             : "2·floor(log2 N)·α + 2·S/B (double binary tree as NCCL's tuning model costs it, "
               "src/graph/tuning.cc)");
  }
  if (trace) {
    if (algorithm != "ring") {
      refuse(code::inconsistent, {"trace is drawn for algorithm \"ring\" only"}, "trace");
    }
    if (gpus > kMaxTraceGpus) {
      refuse(code::too_large,
             {"trace is for teaching: at most ", kMaxTraceGpus, " GPUs; got ", gpus,
              " (the cost alone works up to 10^6 without trace)"},
             "gpus");
    }
    r.update(trace_json(ring_allreduce_trace(gpus), bytes, gpus));
  }
  put(r, "algorithm", algorithm);
  return r;
}

json op_allgather(RequestReader& request) {
  return one_pass_op(request, "ring", ring_allgather,
                     "(N-1)·α + (N-1)/N·S/B, S = the gathered buffer (ring all-gather, Thakur et al. 2005)");
}

json op_reducescatter(RequestReader& request) {
  return one_pass_op(request, "ring", ring_reducescatter,
                     "(N-1)·α + (N-1)/N·S/B, S = the full input buffer (ring reduce-scatter, Thakur et al. 2005)");
}

json op_alltoall(RequestReader& request) {
  return one_pass_op(request, "pairwise", alltoall,
                     "(N-1)·α + (N-1)/N·S/B, S = each GPU's send buffer (pairwise exchange, Thakur et al. 2005)");
}

}  // namespace parascope::detail
