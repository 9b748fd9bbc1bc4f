/// Collective communication: alpha-beta costs of all-reduce (ring, tree, hierarchical), all-gather, reduce-scatter and
/// all-to-all, and a round-by-round trace of the ring all-reduce whose buffers really add up.
#pragma once

#include <cstdint>
#include <vector>

namespace parascope {

/// One link in the alpha-beta (Hockney) model: sending m bytes over one step costs latency + m / bandwidth.
struct Link {
  double bandwidth = 0;  ///< bytes/s, one direction, per GPU
  double latency = 0;    ///< seconds per step (alpha)
};

/// What one collective costs. algbw = bytes / time; busbw follows nccl-tests' PERFORMANCE.md (algbw times the
/// collective's bus factor), so it can be compared with the link's bandwidth whatever the GPU count.
struct CollectiveCost {
  double time = 0;                ///< seconds
  double algbw = 0;               ///< bytes/s: the request's bytes / time; 0 when time is 0 (one GPU)
  double busbw = 0;               ///< bytes/s: algbw x bus factor (2(N-1)/N for all-reduce, (N-1)/N for the others)
  double bytes_sent_per_gpu = 0;  ///< bytes each GPU puts on the wire (the mean over GPUs for the tree)
  std::int64_t steps = 0;         ///< latency terms paid one after another (the count that multiplies alpha)
};

// Preconditions of every cost function (the op file validates requests; these functions do not):
// gpus >= 1, bytes > 0 and finite, link.bandwidth > 0, link.latency >= 0. With gpus == 1 nothing moves: all zero.
// O(1), no allocation: the cost model calls them many times per evaluation.

/// Ring all-reduce = ring reduce-scatter + ring all-gather (Patarasuk & Yuan 2009, JPDC 69(2), the bandwidth-optimal
/// ring; the ring all-gather and reduce-scatter costs of Thakur, Rabenseifner & Gropp 2005, IJHPCA 19(1), added): time
/// = 2(N-1)·alpha + 2(N-1)/N · S/B, 2(N-1) steps, 2(N-1)/N · S bytes sent per GPU.
CollectiveCost ring_allreduce(std::int64_t gpus, double bytes, const Link& link);

/// NCCL's double binary tree (Sanders, Speck & Träff 2009; NCCL 2.4), costed as NCCL's tuning model does
/// (src/graph/tuning.cc: tree algbw = busbw / 2, latency 2·log2(nodes)·alpha with one GPU per node):
/// time = 2·floor(log2 N)·alpha + 2·S/B, 2·floor(log2 N) steps.
CollectiveCost tree_allreduce(std::int64_t gpus, double bytes, const Link& link);

/// Two-level all-reduce (Horovod's HOROVOD_HIERARCHICAL_ALLREDUCE as of uber/horovod PR #411, 2018; the hierarchical
/// all-reduce of Jia et al. 2018, arXiv:1807.11205): ring reduce-scatter inside each node of g GPUs, ring all-reduce of
/// the S/g shard across the n = N/g nodes (g such rings in parallel, one per local rank, each on its own NIC), ring
/// all-gather inside the node: time = 2(g-1)·a_intra + 2(g-1)/g · S/B_intra + 2(n-1)·a_inter + 2(n-1)/n ·
/// (S/g)/B_inter. Extra precondition: gpus_per_node >= 1 and (gpus <= gpus_per_node, meaning one node of `gpus` GPUs,
/// or gpus % gpus_per_node == 0).
CollectiveCost hierarchical_allreduce(std::int64_t gpus, std::int64_t gpus_per_node, double bytes, const Link& intra,
                                      const Link& inter);

/// Ring all-gather; bytes = the gathered (full) buffer per GPU, nccl-tests' size (Thakur et al. 2005, ring all-gather:
/// (p-1)·alpha + (p-1)/p · n·beta):
/// time = (N-1)·alpha + (N-1)/N · S/B.
CollectiveCost ring_allgather(std::int64_t gpus, double bytes, const Link& link);

/// Ring reduce-scatter; bytes = the full input buffer per GPU, nccl-tests' size (Thakur et al. 2005, pairwise-exchange
/// reduce-scatter for long messages, gamma left out): time = (N-1)·alpha + (N-1)/N · S/B (the reduction's arithmetic is
/// not counted).
CollectiveCost ring_reducescatter(std::int64_t gpus, double bytes, const Link& link);

/// All-to-all as NCCL runs it, every peer's send and receive in one group; bytes = each GPU's full send buffer, S/N to
/// each peer: time = ceil((N-1)/8)·alpha + (N-1)/N · S/B (the bandwidth term of Thakur et al. 2005's pairwise
/// exchange; the latency of NCCL's batches of 8 concurrent peers, p2p_batches).
CollectiveCost alltoall(std::int64_t gpus, double bytes, const Link& link);
/// Latency steps of one grouped send/receive to `peers` peers as NCCL runs it: one per batch of 8 peers that progress
/// together (NCCL_MAX_DEV_WORK_P2P_PER_BATCH; engine/API.md, "allreduce, allgather, reducescatter, alltoall").
std::int64_t p2p_batches(std::int64_t peers);

/// Pairwise all-to-all over a group spread across nodes, `per_node` members in each (1 ≤ per_node ≤ gpus, dividing
/// it): each GPU sends S/N to each of its per_node − 1 node mates over `intra` and to each of its N − per_node other
/// peers through its own NIC over `inter`, both at once (NCCL groups every send and receive of an all-to-all;
/// DeepSeek-V3, Liu et al. 2024 Sec. 3.2.2, sizes its all-to-all by the IB part for this reason):
/// time = (per_node − 1)·α_intra + (N − per_node)·α_inter + max((per_node − 1)·S/N / B_intra, (N − per_node)·S/N /
/// B_inter). per_node = N is alltoall(N, S, intra); per_node = 1 is alltoall(N, S, inter).
CollectiveCost alltoall_two_level(std::int64_t gpus, std::int64_t per_node, double bytes, const Link& intra,
                                  const Link& inter);

// ---- The ring all-reduce, round by round (for teaching: small N) ----

/// The largest N the trace is built for: 2(N-1) rounds of N x N cells is about 0.5 M numbers at 64.
inline constexpr std::int64_t kMaxTraceGpus = 64;

enum class RingPhase { scatter_reduce, all_gather };

/// GPU `from` sends its copy of chunk `chunk` (S/N bytes) to `to` = (from + 1) mod N.
struct RingTransfer {
  std::int64_t from = 0, to = 0, chunk = 0;
};

struct RingRound {
  RingPhase phase = RingPhase::scatter_reduce;
  std::vector<RingTransfer> transfers;             ///< N transfers, one sent by each GPU
  std::vector<std::vector<std::int64_t>> buffers;  ///< buffers[gpu][chunk] after this round
};

struct RingTrace {
  std::vector<std::vector<std::int64_t>> initial;  ///< buffers[gpu][chunk] before the first round
  std::vector<RingRound> rounds;                   ///< 2(N-1): N-1 scatter-reduce, then N-1 all-gather
};

/// The value GPU `gpu` starts with in every element of chunk `chunk`: gpu + 1 + chunk, small and distinct per chunk,
/// so chunk c sums to N(N+1)/2 + N·c.
std::int64_t ring_trace_initial_value(std::int64_t gpu, std::int64_t chunk);

/// Runs the ring all-reduce on integer buffers: every round each GPU sends one chunk to its clockwise neighbour, who
/// adds it in (scatter-reduce) or overwrites its copy (all-gather). Precondition: 1 <= gpus <= kMaxTraceGpus.
RingTrace ring_allreduce_trace(std::int64_t gpus);

}  // namespace parascope
