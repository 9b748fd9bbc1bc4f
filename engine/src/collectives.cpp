// Alpha-beta costs of the collectives, and the ring all-reduce simulated round by round on integer buffers.
#include "parascope/collectives.hpp"

#include <algorithm>

#include "code_size.hpp"

namespace parascope {

namespace {

/// floor(log2 n) for n >= 1, as NCCL's log2i.
std::int64_t floor_log2(std::int64_t n) {
  std::int64_t k = 0;
  while (n > 1) {
    n >>= 1;
    ++k;
  }
  return k;
}

/// Fills algbw and busbw from time (nccl-tests PERFORMANCE.md: algbw = S / t, busbw = algbw x factor).
CollectiveCost finish(CollectiveCost c, double bytes, double bus_factor) {
  c.algbw = c.time > 0 ? bytes / c.time : 0;
  c.busbw = c.algbw * bus_factor;
  return c;
}

/// nccl-tests PERFORMANCE.md, "AllReduce": busbw = algbw x 2(n-1)/n.
double allreduce_bus_factor(std::int64_t n) { return 2.0 * double(n - 1) / double(n); }
/// nccl-tests PERFORMANCE.md, "ReduceScatter", "AllGather" (and alltoall, by the same argument): (n-1)/n.
double one_pass_bus_factor(std::int64_t n) { return double(n - 1) / double(n); }

/// The (N-1)-step, one-pass pattern shared by ring all-gather, ring reduce-scatter and pairwise all-to-all:
/// each GPU sends (N-1)/N of S in N-1 steps of S/N bytes (Thakur et al. 2005: ring all-gather, pairwise-exchange
/// reduce-scatter and all-to-all).
CollectiveCost one_pass(std::int64_t n, double bytes, const Link& link) {
  if (n <= 1) return {};
  CollectiveCost c;
  c.steps = n - 1;
  c.bytes_sent_per_gpu = one_pass_bus_factor(n) * bytes;
  c.time = double(c.steps) * link.latency + c.bytes_sent_per_gpu / link.bandwidth;
  return finish(c, bytes, one_pass_bus_factor(n));
}

}  // namespace

CollectiveCost ring_allreduce(std::int64_t gpus, double bytes, const Link& link) {
  if (gpus <= 1) return {};
  // Patarasuk & Yuan 2009 (ring = reduce-scatter + all-gather, each a Thakur et al. 2005 ring pass):
  // 2(p-1)·alpha + 2(p-1)/p · n·beta; the reduction's gamma term is left out (it overlaps the transfers on a GPU).
  CollectiveCost c;
  c.steps = 2 * (gpus - 1);
  c.bytes_sent_per_gpu = allreduce_bus_factor(gpus) * bytes;
  c.time = double(c.steps) * link.latency + c.bytes_sent_per_gpu / link.bandwidth;
  return finish(c, bytes, allreduce_bus_factor(gpus));
}

CollectiveCost tree_allreduce(std::int64_t gpus, double bytes, const Link& link) {
  if (gpus <= 1) return {};
  // NCCL src/graph/tuning.cc (ncclTopoTuneModel): tree latency 2·(log2i(nNodes)·interLat) with one GPU per node, and
  // algbw = busbw · 0.5, i.e. 2·S/B. Double binary tree: Sanders, Speck & Träff 2009; NCCL 2.4 release blog (2019).
  CollectiveCost c;
  c.steps = 2 * floor_log2(gpus);
  // Each of the two trees has N-1 edges; each edge carries half the buffer up (reduce) and half down (broadcast):
  // 2 trees x (N-1) edges x 2 directions x S/2 = 2(N-1)·S over all GPUs, the same mean per GPU as the ring.
  c.bytes_sent_per_gpu = allreduce_bus_factor(gpus) * bytes;
  c.time = double(c.steps) * link.latency + 2.0 * bytes / link.bandwidth;
  return finish(c, bytes, allreduce_bus_factor(gpus));
}

CollectiveCost hierarchical_allreduce(std::int64_t gpus, std::int64_t gpus_per_node, double bytes, const Link& intra,
                                      const Link& inter) {
  if (gpus <= 1) return {};
  // Horovod's hierarchical all-reduce since uber/horovod PR #411 (2018): NCCL ReduceScatter in the node, MPI Allreduce
  // of one 1/g shard across nodes, NCCL Allgather in the node; the two-level idea of Jia et al. 2018
  // (arXiv:1807.11205).
  const std::int64_t g = gpus <= gpus_per_node ? gpus : gpus_per_node;
  const std::int64_t nodes = gpus / g;
  const CollectiveCost scatter = ring_reducescatter(g, bytes, intra);
  const CollectiveCost across = ring_allreduce(nodes, bytes / double(g), inter);
  const CollectiveCost gather = ring_allgather(g, bytes, intra);
  CollectiveCost c;
  c.steps = scatter.steps + across.steps + gather.steps;
  c.bytes_sent_per_gpu = scatter.bytes_sent_per_gpu + across.bytes_sent_per_gpu + gather.bytes_sent_per_gpu;
  c.time = scatter.time + across.time + gather.time;
  return finish(c, bytes, allreduce_bus_factor(gpus));
}

CollectiveCost ring_allgather(std::int64_t gpus, double bytes, const Link& link) { return one_pass(gpus, bytes, link); }

CollectiveCost ring_reducescatter(std::int64_t gpus, double bytes, const Link& link) {
  return one_pass(gpus, bytes, link);
}

namespace {

/// Peers NCCL moves at once in a grouped point-to-point call: an all-to-all is ncclSend/ncclRecv to every peer inside
/// one ncclGroupStart/End, and NCCL packs up to 8 peer rounds into one batch of device work that all progress together
/// (NCCL_MAX_DEV_WORK_P2P_PER_BATCH = 8, src/include/device.h; scheduleP2pTasksToPlan in src/enqueue.cc; NCCL 2.30.7,
/// commit 5067397). So a grouped all-to-all pays one link latency per batch of 8 peers, not one per peer.
constexpr std::int64_t kPeersPerP2pBatch = 8;

}  // namespace

std::int64_t p2p_batches(std::int64_t peers) {
  return peers <= 0 ? 0 : (peers + kPeersPerP2pBatch - 1) / kPeersPerP2pBatch;
}

CollectiveCost alltoall(std::int64_t gpus, double bytes, const Link& link) {
  if (gpus <= 1) return {};
  CollectiveCost c;
  c.steps = p2p_batches(gpus - 1);
  c.bytes_sent_per_gpu = one_pass_bus_factor(gpus) * bytes;
  c.time = double(c.steps) * link.latency + c.bytes_sent_per_gpu / link.bandwidth;
  return finish(c, bytes, one_pass_bus_factor(gpus));
}

CollectiveCost alltoall_two_level(std::int64_t gpus, std::int64_t per_node, double bytes, const Link& intra,
                                  const Link& inter) {
  if (gpus <= 1) return {};
  const std::int64_t k = std::clamp<std::int64_t>(per_node, 1, gpus);
  const double piece = bytes / double(gpus);
  CollectiveCost c;
  // The node mates' and the other nodes' peers go in batches of their own (grouped point-to-point, above).
  const std::int64_t near_batches = p2p_batches(k - 1), far_batches = p2p_batches(gpus - k);
  c.steps = near_batches + far_batches;
  c.bytes_sent_per_gpu = one_pass_bus_factor(gpus) * bytes;
  const double near = double(k - 1) * piece, far = double(gpus - k) * piece;
  c.time = double(near_batches) * intra.latency + double(far_batches) * inter.latency +
           std::max(near > 0 ? near / intra.bandwidth : 0.0, far > 0 ? far / inter.bandwidth : 0.0);
  return finish(c, bytes, one_pass_bus_factor(gpus));
}

std::int64_t ring_trace_initial_value(std::int64_t gpu, std::int64_t chunk) { return gpu + 1 + chunk; }

// Not inlined into op_allreduce, whose reading and answer are optimised for size in the wasm (code_size.hpp).
PARASCOPE_NOT_INLINED RingTrace ring_allreduce_trace(std::int64_t gpus) {
  const std::int64_t n = gpus;
  RingTrace trace;
  trace.initial.assign(std::size_t(n), std::vector<std::int64_t>(std::size_t(n)));
  for (std::int64_t g = 0; g < n; ++g) {
    for (std::int64_t c = 0; c < n; ++c) trace.initial[std::size_t(g)][std::size_t(c)] = ring_trace_initial_value(g, c);
  }
  std::vector<std::vector<std::int64_t>> buffers = trace.initial;
  trace.rounds.reserve(std::size_t(2 * (n > 0 ? n - 1 : 0)));
  // Patarasuk & Yuan 2009 (the ring as NCCL runs it): in scatter-reduce round r GPU g sends chunk (g - r) mod N
  // and its neighbour adds it in, so after N-1 rounds GPU g owns the full sum of chunk (g + 1) mod N; in all-gather
  // round r GPU g forwards chunk (g + 1 - r) mod N, which its neighbour copies over its own.
  for (std::int64_t step = 0; step < 2 * (n - 1); ++step) {
    const bool reducing = step < n - 1;
    const std::int64_t r = reducing ? step : step - (n - 1);
    RingRound round;
    round.phase = reducing ? RingPhase::scatter_reduce : RingPhase::all_gather;
    round.transfers.reserve(std::size_t(n));
    for (std::int64_t g = 0; g < n; ++g) {
      const std::int64_t chunk = ((reducing ? g - r : g + 1 - r) % n + n) % n;
      round.transfers.push_back({g, (g + 1) % n, chunk});
    }
    // Every send of a round happens at once: read what is sent before anyone receives.
    std::vector<std::int64_t> sent(static_cast<std::size_t>(n));
    for (const RingTransfer& t : round.transfers) {
      sent[std::size_t(t.from)] = buffers[std::size_t(t.from)][std::size_t(t.chunk)];
    }
    for (const RingTransfer& t : round.transfers) {
      std::int64_t& cell = buffers[std::size_t(t.to)][std::size_t(t.chunk)];
      cell = reducing ? cell + sent[std::size_t(t.from)] : sent[std::size_t(t.from)];
    }
    round.buffers = buffers;
    trace.rounds.push_back(std::move(round));
  }
  return trace;
}

}  // namespace parascope
