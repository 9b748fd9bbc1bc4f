// Rank placement: which GPUs form each parallel group and whether the group fits in one node.
#include "parascope/parallel.hpp"

#include <algorithm>

#include "network_fit.hpp"

namespace parascope {

namespace {

struct SizeStride {
  std::int64_t size, stride;
};

/// Megatron-Core orders ranks tp (fastest), cp, dp, pp (slowest); the MoE layers order the same ranks etp, ep, edp, pp
/// (parallel_state.py's expert RankGenerator; MoE parallel folding, arXiv 2504.14960).
SizeStride layout(const ParallelConfig& p, Axis axis) {
  switch (axis) {
    case Axis::tensor:
      return {p.tp, 1};
    case Axis::context:
      return {p.cp, p.tp};
    case Axis::data:
      return {p.dp, p.tp * p.cp};
    case Axis::pipeline:
      return {p.pp, p.tp * p.cp * p.dp};
    case Axis::expert:
      return {p.ep, p.expert_tp()};
  }
  return {1, 1};
}

}  // namespace

const char* axis_name(Axis axis) {
  switch (axis) {
    case Axis::tensor:
      return "tensor";
    case Axis::context:
      return "context";
    case Axis::data:
      return "data";
    case Axis::pipeline:
      return "pipeline";
    case Axis::expert:
      return "expert";
  }
  return "";
}

GroupPlacement place_group(const Cluster& cluster, const ParallelConfig& parallel, Axis axis) {
  const SizeStride g = layout(parallel, axis);
  return place_ranks(cluster, g.size, g.stride);
}

GroupPlacement place_ranks(const Cluster& cluster, std::int64_t size, std::int64_t stride) {
  const SizeStride g{size, stride};
  GroupPlacement out;
  out.size = g.size;
  out.stride = g.stride;
  const std::int64_t node = std::max<std::int64_t>(1, cluster.gpus_per_node);
  // Groups tile blocks of size·stride consecutive ranks; nodes hold `node` consecutive ranks. A group stays in one
  // node only when its block fits and the blocks tile the node exactly (otherwise some group straddles two nodes,
  // and the slowest group sets the pace). When stride ≥ node every member is on a node of its own.
  const std::int64_t block = g.size * g.stride;
  out.members_per_node = std::clamp<std::int64_t>(node / g.stride, 1, g.size);
  out.crosses_nodes = g.size > 1 && (block > node || node % block != 0);
  if (out.crosses_nodes) {
    // Each GPU has its own NIC (rail-optimized DGX / SuperPOD networks), and NCCL runs one ring per channel, each
    // crossing nodes through a different NIC: with k members of the group in a node, the k NICs carry the group's
    // traffic in parallel, so a member sees k × its NIC's bandwidth, capped by the links inside the node.
    out.bandwidth = std::min(cluster.intra_bandwidth, double(out.members_per_node) * cluster.inter_bandwidth);
    out.latency = cluster.inter_latency;
    out.link = cluster.inter_link;
    if (!cluster.measured.empty()) {
      // The cluster's own nccl-tests figures for a group of this size (network_fit.hpp): what NCCL delivered there.
      const MeasuredNetwork m = detail::measured_at(cluster.measured, g.size);
      out.bandwidth = m.bandwidth;
      out.latency = m.latency;
      out.measured = true;
    }
  } else {
    out.bandwidth = cluster.intra_bandwidth;
    out.latency = cluster.intra_latency;
    out.link = cluster.intra_link;
  }
  return out;
}

RankCoords rank_coords(const Cluster& cluster, const ParallelConfig& p, std::int64_t rank) {
  RankCoords c;
  c.rank = rank;
  c.node = rank / std::max<std::int64_t>(1, cluster.gpus_per_node);
  c.tp_rank = rank % p.tp;
  c.cp_rank = (rank / p.tp) % p.cp;
  c.dp_rank = (rank / (p.tp * p.cp)) % p.dp;
  c.pp_rank = rank / (p.tp * p.cp * p.dp);
  c.ep_rank = (rank % (p.tp * p.cp * p.dp)) / p.expert_tp() % p.ep;
  return c;
}

}  // namespace parascope
