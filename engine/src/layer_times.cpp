// One layer's seconds per microbatch: its kernels and recomputation, then the share of its TP, EP and CP
// communication that overlap leaves exposed, and what the hidden share costs the kernels it runs under.
#include "layer_times.hpp"

#include <algorithm>

#include "context_ring.hpp"
#include "kernel_model.hpp"

namespace parascope::detail {

namespace {

/// The layer's kernel seconds (GEMMs, attention, element-wise, launches) and what its recomputation repeats.
ChunkTimes kernel_times(const TrainingRun& run, const Efficiency& eff, const KernelTimes& k) {
  ChunkTimes t;
  t.gemm_fwd = k.gemm_fwd;
  t.gemm_bwd = k.gemm_dgrad + k.gemm_wgrad;
  t.gemm_wgrad = k.gemm_wgrad;
  t.attn_fwd = k.attn_fwd;
  t.mem_fwd = k.mem_fwd;
  t.launch_fwd = k.launch_fwd;
  // Recomputation (Korthikanti et al. 2022, Sec. 5): full repeats the layer's forward; selective repeats the
  // attention core and its softmax (with FlashAttention the kernel's own backward already does that).
  if (run.parallel.recompute == Recompute::full) {
    t.recompute = t.gemm_fwd + t.attn_fwd + t.mem_fwd + t.launch_fwd;
    t.recompute_mem = t.mem_fwd;
  } else if (run.parallel.recompute == Recompute::op) {
    // torchtitan's per-op policy: the recomputed matmuls' share of the forward GEMM time (at the layer's mean
    // rate) and every element-wise kernel with its launch; the saved matmuls and the attention are not re-run.
    const ParamCounts params = count_params(run.model);
    const double share =
        op_recomputed_params_per_layer(run.model) / (params.attention_per_layer + params.dense_ffn_per_layer);
    t.recompute = share * t.gemm_fwd + t.mem_fwd + t.launch_fwd;
    t.recompute_mem = t.mem_fwd;
  } else if (run.parallel.recompute == Recompute::selective && !eff.flash_attention) {
    t.recompute_mem = k.softmax_mem;
    t.recompute = t.attn_fwd + t.recompute_mem;
  }
  return t;
}

/// nanotron's asynchronous sequence-parallel linears (Efficiency::tp_async_shards): each collective is exposed by what
/// it exceeds the GEMM it runs beside, each GEMM timed on its own shape by the kernel model (KernelTimes' linears).
/// Sets t.tp_fwd and t.tp_bwd before tp_overlap.
void async_shards(const TrainingRun& run, const Efficiency& eff, const LayerComm& c, const KernelTimes& k,
                  ChunkTimes& t) {
  const double tp = double(run.parallel.tp), gather = c.tp_gather, scatter = c.tp_scatter;
  auto beyond = [](double comm, double compute) { return std::max(0.0, comm - compute); };
  double fwd = 0, bwd = 0;
  for (const LinearTimes* column : {&k.qkv, &k.up}) {
    fwd += beyond(gather, column->fwd / tp);  // the gather beside the rank's own input shard's GEMM
    bwd += (eff.tp_backward_allgather ? beyond(gather, column->dgrad) : 0.0) + beyond(scatter, column->wgrad);
  }
  for (const LinearTimes* row : {&k.out, &k.down}) {
    fwd += scatter;                          // the output's reduce-scatter, waited for
    bwd += beyond(gather, row->dgrad / tp);  // the output gradient gathered beside its own shard's input gradient
  }
  // Recomputation runs the forward's collectives again in the backward, as layer_comm.cpp counts them.
  t.tp_fwd = fwd;
  t.tp_bwd = bwd + tp_recomputed_share(run.parallel) * fwd;
}

/// Sets the exposed TP, EP and CP seconds of `t` (its kernels already set) from the layer's full communication `c`,
/// and slows its GEMMs by what the hidden rest takes from them.
void expose_comm(const TrainingRun& run, const Efficiency& eff, const LayerComm& c, const KernelTimes& k,
                 ChunkTimes& t) {
  // TransformerEngine's userbuffer overlap splits each TP GEMM into tp chunks and moves chunk i while computing
  // chunk i+1 (Wang et al. 2023, "Overlap communication with dependent computation", ASPLOS; Megatron-Core
  // --tp-comm-overlap): only the first chunk's transfer, 1/tp of it, stays exposed.
  const double tp_exposed = std::min(1.0 - eff.tp_overlap, eff.tp_comm_overlap ? 1.0 / double(run.parallel.tp) : 1.0);
  t.tp_fwd = c.tp_fwd * tp_exposed;
  t.tp_bwd = c.tp_bwd * tp_exposed;
  if (eff.tp_async_shards && !eff.tp_comm_overlap && run.parallel.sequence_parallel && run.parallel.tp > 1) {
    async_shards(run, eff, c, k, t);
    t.tp_fwd *= 1.0 - eff.tp_overlap;
    t.tp_bwd *= 1.0 - eff.tp_overlap;
  }
  t.ep_fwd = c.ep_fwd * (1.0 - eff.ep_overlap);
  t.ep_bwd = c.ep_bwd * (1.0 - eff.ep_overlap);
  if (schedule_info(run.parallel.schedule).pairs_all_to_all && run.parallel.pp > 1 && t.ep_fwd + t.ep_bwd > 0) {
    // DualPipe runs a forward chunk and a backward chunk as one pair, each one's dispatch and combine all-to-alls
    // during the other's computation (DeepSeek-V3 report, Liu et al. 2024, Sec. 3.2.1, Fig. 4): per layer, only
    // what exceeds the pair's compute shows. (Warm-up and drain ops run unpaired; that is not counted.)
    const double compute = t.math() + t.memory();
    const double shown = std::max(0.0, t.ep_fwd + t.ep_bwd - compute) / (t.ep_fwd + t.ep_bwd);
    t.ep_fwd *= shown;
    t.ep_bwd *= shown;
  }
  // Ring attention runs cp attention steps and sends the next step's K/V block beside each but the last: each
  // transfer is hidden by its own step's compute, 1/cp of the attention under the zig-zag split, and exposed by what
  // it exceeds it (context_ring.hpp, ring_exposed). Full recomputation runs the forward ring again in the backward.
  const std::int64_t cp = run.parallel.cp;
  t.cp_fwd = ring_exposed(cp, c.cp_step_fwd, t.attn_fwd / double(cp));
  t.cp_bwd = ring_exposed(cp, c.cp_step_bwd, 2.0 * t.attn_fwd / double(cp)) +
             (run.parallel.recompute == Recompute::full ? t.cp_fwd : 0.0);
  // Hidden is not free: what the collectives hide behind this layer's kernels slows them (overlap_slowdown).
  const double hidden_fwd = (c.tp_fwd - t.tp_fwd) + (c.ep_fwd - t.ep_fwd) + (c.cp_fwd - t.cp_fwd);
  const double hidden_bwd = (c.tp_bwd - t.tp_bwd) + (c.ep_bwd - t.ep_bwd) + (c.cp_bwd - t.cp_bwd);
  t.gemm_fwd += overlap_slowdown(eff, hidden_fwd);
  t.gemm_bwd += overlap_slowdown(eff, hidden_bwd);
}

}  // namespace

ChunkTimes layer_times(const TrainingRun& run, const Efficiency& eff, const LayerWork& w, const LayerComm& c) {
  const KernelTimes k = layer_kernel_times(run, eff, w);
  ChunkTimes t = kernel_times(run, eff, k);
  expose_comm(run, eff, c, k, t);
  return t;
}

}  // namespace parascope::detail
