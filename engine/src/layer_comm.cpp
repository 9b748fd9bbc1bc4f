// One layer's communication per microbatch: Megatron's TP all-reduces (or SP's reduce-scatter + all-gather), the MoE
// dispatch and combine all-to-alls (node-limited routing included), ring attention's K/V steps.
#include "layer_comm.hpp"

#include <algorithm>

#include "powers.hpp"

namespace parascope::detail {

namespace {

/// Bytes of one microbatch's bf16 activations of one layer on this GPU (what a TP collective moves).
double activation_bytes(const ModelShape& m, const LayerWork& w) { return w.tokens * double(m.hidden) * 2.0; }

/// The tensor-parallel collectives: tp_fwd, tp_bwd, tp_bytes, tp_count of `c`.
void tp_comm(const TrainingRun& run, const Efficiency& eff, const LayerWork& w, LayerComm& c) {
  const ParallelConfig& p = run.parallel;
  const double tp_recomputed = tp_recomputed_share(p);
  const double activation = activation_bytes(run.model, w);
  // Megatron: 2 all-reduces forward (after attention and MLP) and 2 backward (Shoeybi et al. 2019, Sec. 3);
  // with sequence parallelism each all-reduce becomes a reduce-scatter + all-gather of the same total
  // (Korthikanti et al. 2022, Sec. 4.2.2). Full recomputation repeats the forward pair in the backward.
  const Link link = link_of(place_group(run.cluster, p, Axis::tensor), eff);
  CollectiveCost one = ring_allreduce(p.tp, activation, link);
  CollectiveCost ag;
  if (p.sequence_parallel) {
    // In FP8 runs TransformerEngine gathers 1-byte tensors: LayerNormLinear quantizes the norm's output before its
    // all-gather (transformer_engine 1.8 module/layernorm_linear.py: ln_out is FP8 when gathered; 2.8: "quantized
    // AG", input_quantizer applied before gather_along_first_dim), and the backward casts the row-parallel GEMMs'
    // output gradients before gathering them (1.8 module/base.py grad_output_preprocess: cast_to_fp8, then
    // gather_along_first_dim). The reduce-scatters stay bf16.
    const bool fp8 = eff.fp8_gathers && eff.precision == Precision::fp8;
    ag = ring_allgather(p.tp, fp8 ? activation / 2.0 : activation, link);
    const CollectiveCost rs = ring_reducescatter(p.tp, activation, link);
    one.time = ag.time + rs.time;
    one.bytes_sent_per_gpu = ag.bytes_sent_per_gpu + rs.bytes_sent_per_gpu;
    c.tp_gather = ag.time;
    c.tp_scatter = rs.time;
  }
  const double per_pass = 2.0;
  c.tp_fwd = per_pass * one.time;
  c.tp_bwd = per_pass * one.time * (1.0 + tp_recomputed);
  // Each of the two column-parallel GEMMs (QKV, the MLP's up) gathering its sharded input again for its weight
  // gradient (Efficiency::tp_backward_allgather).
  const double regathers = eff.tp_backward_allgather && p.sequence_parallel && p.tp > 1 ? per_pass : 0.0;
  c.tp_bwd += regathers * ag.time;
  const double collectives = per_pass * (2.0 + tp_recomputed) * (p.sequence_parallel ? 2.0 : 1.0);
  c.tp_count = collectives + regathers;
  c.tp_bytes = per_pass * (2.0 + tp_recomputed) * one.bytes_sent_per_gpu + regathers * ag.bytes_sent_per_gpu;
}

/// One all-to-all of an expert group that spans nodes under node-limited routing (DeepSeek-V3, Liu et al. 2024
/// Sec. 2.1.2 and 3.2.2): a token goes to experts on at most M nodes, crosses the network once per destination node
/// (to the GPU with its own in-node index) and is forwarded there over NVLink. With n = ep / k nodes in the group and
/// top_k experts drawn evenly, a token reaches (n − 1)·(1 − (1 − 1/n)^top_k) other nodes on average; the network
/// carries min(M, that) rows per token, NVLink the top_k·(k − 1)/k rows whose expert is not on the receiving GPU.
CollectiveCost node_limited_alltoall(const TrainingRun& run, const GroupPlacement& g, const LayerWork& w, double row,
                                     const Link& intra, const Link& inter) {
  const ModelShape& m = run.model;
  const ParallelConfig& p = run.parallel;
  CollectiveCost one;
  const double k = double(g.members_per_node), nodes = double(p.ep) / k;
  const double reached = (nodes - 1.0) * (1.0 - whole_power(1.0 - 1.0 / nodes, m.top_k));
  const double far = w.dispatched_tokens * row * std::min(double(p.moe_max_nodes_per_token), reached);
  const double near = w.dispatched_tokens * row * double(m.top_k) * (k - 1.0) / k;
  one.time = double(p2p_batches(std::int64_t(k) - 1)) * intra.latency +
             double(p2p_batches(p.ep - std::int64_t(k))) * inter.latency +
             std::max(near / intra.bandwidth, far / inter.bandwidth);
  one.bytes_sent_per_gpu = near + far;
  return one;
}

/// The expert all-to-alls: ep_fwd, ep_bwd, ep_bytes, ep_count of `c`.
void ep_comm(const TrainingRun& run, const Efficiency& eff, const LayerWork& w, LayerComm& c) {
  const ModelShape& m = run.model;
  const ParallelConfig& p = run.parallel;
  const bool full_recompute = p.recompute == Recompute::full;
  // Dispatch and combine all-to-alls per MoE layer, forward and backward (Lepikhin et al. 2021, GShard, Sec. 2.2;
  // Fedus et al. 2022, Sec. 2.2): each token's hidden state goes to top_k experts. The busiest rank sets the pace.
  // A group that spans nodes sends to node mates over NVLink and to the rest through each GPU's own NIC at once
  // (alltoall_two_level); the k-NICs-in-parallel bandwidth of place_group holds for rings, not for all-to-all.
  // Under MoE parallel folding each GPU dispatches its t·etp/tp tokens (layer_work.cpp).
  const GroupPlacement g = place_group(run.cluster, p, Axis::expert);
  const double row = double(m.hidden) * 2.0 * eff.router_imbalance;  // one token's bf16 hidden state
  const double bytes = w.dispatched_tokens * double(m.top_k) * row;
  const Link intra{run.cluster.intra_bandwidth * eff.link_efficiency, run.cluster.intra_latency};
  const Link inter{run.cluster.inter_bandwidth * eff.link_efficiency, run.cluster.inter_latency};
  CollectiveCost one = g.crosses_nodes ? alltoall_two_level(p.ep, g.members_per_node, bytes, intra, inter)
                                       : alltoall(p.ep, bytes, link_of(g, eff));
  if (g.crosses_nodes && p.moe_max_nodes_per_token > 0) one = node_limited_alltoall(run, g, w, row, intra, inter);
  c.ep_fwd = w.moe_layer_share * 2.0 * one.time;
  c.ep_bwd = w.moe_layer_share * 2.0 * one.time * (full_recompute ? 2.0 : 1.0);
  c.ep_count = w.moe_layer_share * (full_recompute ? 6.0 : 4.0);
  c.ep_bytes = c.ep_count * one.bytes_sent_per_gpu;
}

/// Ring attention's K/V steps: cp_fwd, cp_bwd, cp_bytes, cp_count of `c`.
void cp_comm(const TrainingRun& run, const Efficiency& eff, const LayerWork& w, LayerComm& c) {
  const ModelShape& m = run.model;
  const ParallelConfig& p = run.parallel;
  const bool full_recompute = p.recompute == Recompute::full;
  // Ring attention (Liu et al. 2023; Megatron-Core context parallelism): cp − 1 point-to-point steps pass the
  // local K and V blocks forward; the backward passes K, V and their gradients (twice the bytes).
  const Link link = link_of(place_group(run.cluster, p, Axis::context), eff);
  const double kv = 2.0 * w.tokens * double(m.kv_heads * m.head_dim) * 2.0 / double(p.tp);
  const double steps = double(p.cp - 1);
  c.cp_step_fwd = link.latency + kv / link.bandwidth;
  c.cp_step_bwd = link.latency + 2.0 * kv / link.bandwidth;
  c.cp_fwd = steps * c.cp_step_fwd;
  c.cp_bwd = steps * c.cp_step_bwd + (full_recompute ? c.cp_fwd : 0.0);
  c.cp_count = steps * (full_recompute ? 4.0 : 3.0);
  c.cp_bytes = steps * kv * (full_recompute ? 4.0 : 3.0);
}

}  // namespace

LayerComm layer_comm(const TrainingRun& run, const Efficiency& eff, const LayerWork& w) {
  const ParallelConfig& p = run.parallel;
  LayerComm c;
  if (p.tp > 1) tp_comm(run, eff, w, c);
  if (p.ep > 1 && run.model.is_moe()) ep_comm(run, eff, w, c);
  if (p.cp > 1) cp_comm(run, eff, w, c);
  return c;
}

}  // namespace parascope::detail
