// Context parallelism step by step: zig-zag chunks, the blocks each ring step computes, the P2P ring's and the
// all-gather variant's transfers on the cp group's link, what they leave exposed, and where the ring starts to hide.
#include "context_ring.hpp"

#include <cmath>

#include "layer_part.hpp"
#include "layer_work.hpp"
#include "parascope/collectives.hpp"
#include "step_core.hpp"

namespace parascope::detail {

HeldChunks held_chunks(std::int64_t cp, std::int64_t gpu, bool zigzag) {
  if (zigzag) return {gpu, 2 * cp - 1 - gpu};
  return {2 * gpu, 2 * gpu + 1};
}

double ring_blocks(std::int64_t cp, std::int64_t gpu, std::int64_t step, bool zigzag, bool causal_skip) {
  const HeldChunks q = held_chunks(cp, gpu, zigzag), k = held_chunks(cp, kv_source(cp, gpu, step), zigzag);
  if (!causal_skip) return 4.0;
  // A query chunk attends to every key chunk before it whole and to its own chunk's lower triangle.
  const auto block = [](std::int64_t query, std::int64_t key) { return query > key ? 1.0 : query == key ? 0.5 : 0.0; };
  return block(q.first, k.first) + block(q.first, k.second) + block(q.second, k.first) + block(q.second, k.second);
}

namespace {

/// Appends one ring step of `compute` seconds (`flops` on the busiest GPU) to `pass`: beside every step but the last a
/// transfer of `bytes` in `transfer` seconds, exposed by what it exceeds the step's compute. Returns that exposed time.
double add_step(RingPass& pass, bool last, double flops, double compute, double bytes, double transfer) {
  RingStep s;
  s.compute_flops = flops;
  s.compute_time = compute;
  if (!last) {
    s.transfer_bytes = bytes;
    s.transfer_time = transfer;
    s.exposed = std::max(0.0, transfer - compute);
  }
  pass.compute_time += s.compute_time;
  pass.transfer_time += s.transfer_time;
  pass.transfer_bytes += s.transfer_bytes;
  pass.steps.push_back(s);
  return s.exposed;
}

/// One pass around the P2P ring: cp steps of `compute` seconds (`flops` on the busiest GPU), a transfer of `bytes` in
/// `transfer` seconds beside each but the last. Its exposed time is ring_exposed's, the cost model's.
RingPass ring_pass(std::int64_t cp, double flops, double compute, double bytes, double transfer) {
  RingPass pass;
  for (std::int64_t i = 0; i < cp; ++i) add_step(pass, i == cp - 1, flops, compute, bytes, transfer);
  pass.exposed = ring_exposed(cp, transfer, compute);
  return pass;
}

/// One pass around the ring whose steps differ (contiguous chunks): step i computes `blocks[i]` blocks on its busiest
/// GPU at `block_flops` and `block_time` each, and a transfer of `bytes` in `transfer` seconds travels beside each step
/// but the last, hidden by that step's compute: exposed Σ_{i<cp−1} max(0, transfer − blocks[i]·block_time). Under a
/// causal kernel blocks = (2, 4, …, 4), so the pass computes (4cp − 2) blocks against zig-zag's 2cp: the causal ring's
/// imbalance that Striped Attention (Brandon et al. 2023, Sec. 3) and the zig-zag split remove; ring attention itself
/// is Liu et al. 2023.
RingPass uneven_ring_pass(const std::vector<double>& blocks, double block_flops, double block_time, double bytes,
                          double transfer) {
  RingPass pass;
  for (std::size_t i = 0; i < blocks.size(); ++i) {
    pass.exposed +=
        add_step(pass, i + 1 == blocks.size(), blocks[i] * block_flops, blocks[i] * block_time, bytes, transfer);
  }
  return pass;
}

/// The sequence length from which a forward step's compute covers its transfer at the run's link: compute grows with
/// the chunk's square (P·x² at x times the run's chunk), the transfer with its length (α + K·x), so the ring hides from
/// x = (K + √(K² + 4Pα)) / 2P; and the bandwidth that covers it at the run's length, kv / (P − α) (none when P ≤ α).
/// The attention kernel is taken at its rate at the run's shape.
RingBreakEven break_even(double seq, double compute, double transfer, double latency, double kv) {
  RingBreakEven out;
  const double k = transfer - latency;
  if (compute > 0) out.sequence = seq * (k + std::sqrt(k * k + 4.0 * compute * latency)) / (2.0 * compute);
  out.bandwidth = compute > latency ? kv / (compute - latency) : 0.0;
  return out;
}

/// The all-gather variant at the run's link: the forward all-gathers the cp blocks of K/V, the backward
/// reduce-scatters their gradients; full recomputation gathers again.
AllGatherPass all_gather_pass(const TrainingRun& run, double kv, const Link& link) {
  const std::int64_t cp = run.parallel.cp;
  AllGatherPass a;
  const CollectiveCost gather = ring_allgather(cp, double(cp) * kv, link);
  const CollectiveCost scatter = ring_reducescatter(cp, double(cp) * kv, link);
  a.gather_time = gather.time;
  a.gather_bytes = gather.bytes_sent_per_gpu;
  a.scatter_time = scatter.time;
  a.scatter_bytes = scatter.bytes_sent_per_gpu;
  a.gathered_bytes = double(cp) * kv;
  a.exposed = gather.time + scatter.time + (run.parallel.recompute == Recompute::full ? gather.time : 0.0);
  return a;
}

/// The attention on the gathered K/V (Llama 3's all-gather CP, Dubey et al. 2024 Sec. 3.3.2: each GPU attends its own
/// query chunks to the whole gathered K/V; TE's AttnFuncWithCPAndKVAllGather at 9c61cd7): the busiest GPU's blocks
/// over the pass at `block_time` each, forward, and twice that backward (the ring's ratio). Under zig-zag every GPU
/// computes 2cp blocks with a causal kernel, the ring's cp steps of 2; contiguous, the last GPU 4cp − 2.
void all_gather_compute(AllGatherPass& a, const ContextRing& r, double block_time) {
  const auto most = [](const std::vector<double>& v) { return *std::max_element(v.begin(), v.end()); };
  a.forward_compute = most(r.zigzag_blocks) * block_time;
  a.backward_compute = 2.0 * a.forward_compute;
  a.contiguous_forward_compute = most(r.contiguous_blocks) * block_time;
  a.contiguous_backward_compute = 2.0 * a.contiguous_forward_compute;
}

/// Each GPU's blocks over one pass and the pass's critical path, zig-zag and contiguous.
void block_balance(ContextRing& r) {
  const std::int64_t cp = r.cp;
  r.zigzag_blocks.assign(std::size_t(cp), 0.0);
  r.contiguous_blocks.assign(std::size_t(cp), 0.0);
  for (std::int64_t i = 0; i < cp; ++i) {
    double zigzag_most = 0, contiguous_most = 0;
    for (std::int64_t g = 0; g < cp; ++g) {
      const double zigzag = ring_blocks(cp, g, i, true, r.causal_skip);
      const double contiguous = ring_blocks(cp, g, i, false, r.causal_skip);
      r.zigzag_blocks[std::size_t(g)] += zigzag;
      r.contiguous_blocks[std::size_t(g)] += contiguous;
      zigzag_most = std::max(zigzag_most, zigzag);
      contiguous_most = std::max(contiguous_most, contiguous);
    }
    r.zigzag_ring_blocks += zigzag_most;
    r.contiguous_ring_blocks += contiguous_most;
  }
}

}  // namespace

std::vector<double> busiest_blocks_per_step(std::int64_t cp, bool zigzag, bool causal_skip) {
  std::vector<double> most(std::size_t(cp), 0.0);
  for (std::int64_t i = 0; i < cp; ++i) {
    for (std::int64_t g = 0; g < cp; ++g) {
      most[std::size_t(i)] = std::max(most[std::size_t(i)], ring_blocks(cp, g, i, zigzag, causal_skip));
    }
  }
  return most;
}

ContextRing context_ring(const TrainingRun& run, const Efficiency& eff) {
  const ModelShape& m = run.model;
  const ParallelConfig& p = run.parallel;
  ContextRing r;
  r.cp = p.cp;
  LayerPart scratch;
  const LayerPart& part = layer_part(run, eff, nullptr, scratch);
  const ChunkTimes& layer = 2 * m.moe_layers() > m.layers ? part.kinds.moe : part.kinds.dense;
  r.causal_skip = eff.flash_attention;
  r.chunk_tokens = double(m.seq) / double(2 * p.cp);
  // The layer's attention core is cp steps of equal work under zig-zag: 2 blocks each with a causal kernel, 4 without.
  r.block_flops = part.work.attention_core_flops / double((r.causal_skip ? 2 : 4) * p.cp);
  r.link = place_group(run.cluster, p, Axis::context);
  const Link link = link_of(r.link, eff);
  r.link_bandwidth = link.bandwidth;
  r.link_latency = link.latency;
  r.kv_bytes = 2.0 * part.work.tokens * double(m.kv_heads * m.head_dim) * 2.0 / double(p.tp);
  const double step_blocks = r.causal_skip ? 2.0 : 4.0;
  const double compute = layer.attn_fwd / double(p.cp);
  r.forward = ring_pass(p.cp, step_blocks * r.block_flops, compute, r.kv_bytes, part.comm.cp_step_fwd);
  r.backward =
      ring_pass(p.cp, 2.0 * step_blocks * r.block_flops, 2.0 * compute, 2.0 * r.kv_bytes, part.comm.cp_step_bwd);
  r.recomputed_exposed = p.recompute == Recompute::full ? r.forward.exposed : 0.0;
  // Contiguous chunks: a block takes the zig-zag step's time over its blocks; each step as long as its busiest GPU.
  const double block_time = compute / step_blocks;
  const std::vector<double> contiguous = busiest_blocks_per_step(p.cp, false, r.causal_skip);
  r.contiguous_forward = uneven_ring_pass(contiguous, r.block_flops, block_time, r.kv_bytes, part.comm.cp_step_fwd);
  r.contiguous_backward =
      uneven_ring_pass(contiguous, 2.0 * r.block_flops, 2.0 * block_time, 2.0 * r.kv_bytes, part.comm.cp_step_bwd);
  r.contiguous_recomputed_exposed = p.recompute == Recompute::full ? r.contiguous_forward.exposed : 0.0;
  r.all_gather = all_gather_pass(run, r.kv_bytes, link);

  // Per training step, as step charges it: the average chunk's exposed ring time, per microbatch and chunk.
  StepCore core;
  build_core(run, eff, core);
  const double per_gpu = core.mb * double(p.vpp);
  r.exposed_per_step = per_gpu * (core.avg.cp_fwd + core.avg.cp_bwd);
  r.all_gather_exposed_per_step = per_gpu * (double(m.layers) / double(p.pp * p.vpp)) * r.all_gather.exposed;

  ParallelConfig without = p;
  without.cp = 1;
  const double moe_share = 2 * m.moe_layers() > m.layers ? 1.0 : 0.0;
  r.activations_without_cp = activation_bytes_per_layer(m, without, eff, m.is_moe() ? moe_share : 0.0);
  r.activations = activation_bytes_per_layer(m, p, eff, m.is_moe() ? moe_share : 0.0);
  r.break_even = break_even(double(m.seq), compute, part.comm.cp_step_fwd, link.latency, r.kv_bytes);

  block_balance(r);
  all_gather_compute(r.all_gather, r, block_time);
  return r;
}

}  // namespace parascope::detail
