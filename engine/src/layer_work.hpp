/// What one transformer layer asks of one GPU for one microbatch, before any timing: FLOPs, HBM traffic, bytes kept.
#pragma once

#include "parascope/cost_types.hpp"

namespace parascope::detail {

/// Forward-pass work of one average layer on one GPU for one microbatch (backward ≈ 2× forward, Narayanan et al.
/// 2021 Sec. 5.1). GEMM FLOPs are split by what sets their shape, so each can get its own efficiency.
struct LayerWork {
  double tokens = 0;            ///< tokens of the microbatch on this GPU: microbatch_size · seq / cp
  double attn_proj_flops = 0;   ///< Q, K, V and output projections
  double dense_ffn_flops = 0;   ///< dense FFN (averaged over dense and MoE layers)
  double expert_ffn_flops = 0;  ///< routed + shared experts (averaged over layers; × router imbalance)
  double tokens_per_expert =
      0;  ///< tokens one local expert shard processes per microbatch (grouped-GEMM rows; × router imbalance)
  double local_experts = 0;         ///< routed experts on this GPU (the grouped GEMM's groups)
  double attention_core_flops = 0;  ///< Q·K^T and A·V as the kernel computes them
  double elementwise_bytes = 0;     ///< norms, residuals, dropout, activation function, RoPE
  double softmax_bytes = 0;         ///< the s×s score traffic of unfused attention (0 with FlashAttention)
  double moe_layer_share = 0;       ///< fraction of layers that are MoE layers
  double dispatched_tokens = 0;     ///< tokens this GPU sends through the all-to-all per MoE layer (MoE only)
};

LayerWork layer_work(const TrainingRun& run, const Efficiency& efficiency);

/// The run with every layer of one kind: all dense-FFN layers (moe = false) or all MoE layers (moe = true; a dense
/// model stays dense). layer_work and activation_bytes_per_layer of these are the two kinds of layer a stage mixes.
TrainingRun with_layer_kind(const TrainingRun& run, bool moe);

/// Work of the output layer (logits) for one microbatch on one GPU: forward GEMM FLOPs and the cross-entropy's HBM
/// traffic, forward and backward (Efficiency's loss_traffic_bytes_per_logit and its backward twin).
struct LogitsWork {
  double flops = 0, bytes = 0, backward_bytes = 0;
};
LogitsWork logits_work(const TrainingRun& run, const Efficiency& eff);

/// Activation bytes one layer keeps for one microbatch until its backward (Korthikanti et al. 2022, Sec. 4,
/// Table 2, generalised to GQA, SwiGLU and MoE), under the run's recomputation, sequence parallelism and attention.
double activation_bytes_per_layer(const TrainingRun& run, const Efficiency& efficiency);
/// The same for `moe_share` of the layers MoE (0: a dense-FFN layer, 1: an MoE layer of an MoE model), without
/// copying the run as with_layer_kind does: with_layer_kind(run, moe) gives the same bytes as share 0 or 1.
double activation_bytes_per_layer(const ModelShape& model, const ParallelConfig& parallel, const Efficiency& efficiency,
                                  double moe_share);

/// Bytes one dense layer keeps for one microbatch under torchtitan's per-op recomputation (Recompute::op).
double op_saved_bytes_per_layer(const ModelShape& model, const ParallelConfig& parallel);

/// Whether the model trains with dropout: GPT-style models with biases do; PaLM, Llama, Mixtral and DeepSeek do not.
bool has_dropout(const ModelShape& model);
/// Extra HBM bytes per token of one layer's forward when PyTorch eager runs the element-wise ops one by one (RMSNorm,
/// rotary, SwiGLU) instead of fused (Efficiency::eager_elementwise); `ffn_active` the FFN width a token passes;
/// `fused_rmsnorm`: the norms run as one fused kernel even so (Efficiency::fused_rmsnorm).
double eager_extra_bytes(const ModelShape& model, const ParallelConfig& parallel, double ffn_active,
                         bool fused_rmsnorm);

}  // namespace parascope::detail
