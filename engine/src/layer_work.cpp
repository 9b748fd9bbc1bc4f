// FLOPs, HBM traffic and stored activations of one transformer layer on one GPU, from the shape and the split.
#include "layer_work.hpp"

#include <algorithm>

namespace parascope::detail {

namespace {

constexpr double kBf16 = 2.0;  // bytes per activation element

}  // namespace

bool has_dropout(const ModelShape& model) { return model.bias; }

double eager_extra_bytes(const ModelShape& m, const ParallelConfig& p, double ffn_active, bool fused_rmsnorm) {
  // PyTorch eager, op by op (torchtitan at b5bcd76: torchtitan/models/common/nn_modules.py RMSNorm = nn.RMSNorm,
  // rope.py apply_rotary_emb, feed_forward.py w2(F.silu(w1(x)) * w3(x))), forward bytes per element:
  // - RMSNorm composite: to fp32 (read 2, write 4), pow (4, 4), mean (read 4), x·rsqrt (4, 4), to bf16 (4, 2),
  //   × weight (2, 2): 32, against a fused kernel's 4 (read 2, write 2): +28 per hidden element, two norms;
  // - rotary as a complex product: q.float() (2, 4), × the cache (4, 4), type_as (4, 2): 20 against 4 in place: +16
  //   per element of Q and K;
  // - SwiGLU as two kernels: silu (2, 2), multiply (2 + 2, 2): 10 against a fused 6: +4 per FFN element.
  // LayerNorm has its own fused kernel in eager PyTorch (torch.nn.functional.layer_norm): no extra.
  const double h = double(m.hidden), tp = double(p.tp);
  const double norms = m.norm == Norm::rmsnorm && !fused_rmsnorm ? 2.0 * 28.0 * h : 0.0;
  const double rope = m.position_embedding == PositionEmbedding::rope
                          ? 16.0 * double(m.heads * m.head_dim + m.kv_heads * m.head_dim) / tp
                          : 0.0;
  const double glu = m.activation == Activation::swiglu ? 4.0 * ffn_active / tp : 0.0;
  return (p.sequence_parallel ? norms / tp : norms) + rope + glu;
}

LayerWork layer_work(const TrainingRun& run, const Efficiency& eff) {
  const ModelShape& m = run.model;
  const ParallelConfig& p = run.parallel;
  const ParamCounts params = count_params(m);
  const double tp = double(p.tp);
  const double h = double(m.hidden);
  const double attn_width = double(m.heads * m.head_dim);  // H·Q
  const double kv_width = double(m.kv_heads * m.head_dim);

  LayerWork w;
  w.tokens = double(p.microbatch_size) * double(m.seq) / double(p.cp);
  const double t = w.tokens;
  w.moe_layer_share = double(m.moe_layers()) / double(m.layers);
  const double dense_share = 1.0 - w.moe_layer_share;

  // A GEMM of m·k·n costs 2·m·k·n FLOPs; a weight matrix of P parameters applied to t tokens costs 2·t·P (Kaplan et
  // al. 2020, Table 1). Megatron splits each layer's matrices over tp ranks (Shoeybi et al. 2019, Sec. 3).
  w.attn_proj_flops = 2.0 * t * params.attention_per_layer / tp;
  w.dense_ffn_flops = dense_share * 2.0 * t * params.dense_ffn_per_layer / tp;
  if (m.is_moe()) {
    const double active_experts = double(m.top_k + m.shared_experts);
    w.expert_ffn_flops = w.moe_layer_share * eff.router_imbalance *
                         (2.0 * t * (active_experts * params.expert_ffn + params.router_per_layer)) / tp;
    // MoE parallel folding (arXiv 2504.14960): each expert's FFN is split over etp ranks and replicated over
    // edp = tp·cp·dp / (ep·etp) ranks that share the stage's dp·mbs·seq tokens of a microbatch, so one expert shard
    // sees dp·mbs·seq·top_k / (experts·edp) = t·top_k·ep·etp / (experts·tp) tokens (ep·t·top_k / experts when
    // etp = tp). The FLOPs per GPU do not depend on the folding: t·top_k·2P/tp either way.
    const double etp = double(p.expert_tp());
    const double tokens_per_expert = t * double(m.top_k) * double(p.ep) * etp / (double(m.experts) * tp);
    w.tokens_per_expert = tokens_per_expert * eff.router_imbalance;  // the busiest expert's rows
    w.local_experts = double(m.experts) / double(p.ep);
    // The tokens this GPU dispatches: t·etp/tp (with sequence parallelism each tp rank holds t/tp; with etp = tp
    // every tensor rank of the group dispatches the whole t, as Megatron-Core's all-to-all dispatcher does).
    w.dispatched_tokens = t * etp / tp;
  }

  // Attention core: Q·K^T and A·V, 2·t·s·H·width each (PaLM App. B's 12·L·H·Q·T counts these three times over).
  // FlashAttention skips fully masked blocks of a causal mask (Dao 2023, Sec. 3.1); unfused kernels compute all.
  const double qk_width = double(m.head_dim + (m.is_mla() ? m.rope_head_dim : 0));
  const double core = 2.0 * t * double(m.seq) * double(m.heads) * (qk_width + double(m.head_dim)) / tp;
  w.attention_core_flops = eff.flash_attention ? 0.5 * core : core;

  // Element-wise kernels, in elements read + written per token. Replicated over the tp ranks unless sequence
  // parallelism splits them (Korthikanti et al. 2022, Sec. 4.2.2): 2 norms (read h, write h), 2 residual adds
  // (read 2h, write h), dropout after attention and MLP (read h, write h, plus a 1-byte mask, counted as h/2).
  const double dropout = has_dropout(m) ? 2.0 * (2.0 * h + 0.5 * h) : 0.0;
  const double replicated = 2.0 * 2.0 * h + 2.0 * 3.0 * h + dropout;
  // Split by tp always: the activation function over the FFN width (GELU reads f, writes f; SwiGLU reads 2f,
  // writes f) and rotary embeddings on Q and K (read + write).
  const double ffn_active =
      dense_share * double(m.ffn) +
      (m.is_moe() ? w.moe_layer_share * double(m.top_k + m.shared_experts) * double(m.expert_ffn) : 0);
  const double act = (m.activation == Activation::swiglu ? 3.0 : 2.0) * ffn_active;
  const double rope = m.position_embedding == PositionEmbedding::rope ? 2.0 * (attn_width + kv_width) : 0.0;
  w.elementwise_bytes = kBf16 * t * ((p.sequence_parallel ? replicated / tp : replicated) + (act + rope) / tp);
  if (eff.eager_elementwise) w.elementwise_bytes += t * eager_extra_bytes(m, p, ffn_active, eff.fused_rmsnorm);
  if (eff.unpadded_attention && eff.flash_attention) {
    // FlashAttention's varlen path behind a padding mask (flash_attn.bert_padding; llm-foundry's flash_attn_fn in
    // llmfoundry/models/layers/attention.py at 5e85bd62d): unpad_input gathers Q, K and V out of the padded batch
    // (index_first_axis: each read and written) and pad_input scatters the output into zeros (zeros written, the
    // output read and written): 2(q + 2kv) + 3q elements per token forward. The backward mirrors them: the output
    // gradient gathered (2q), Q's, K's and V's gradients scattered into zeros (3(q + 2kv)). Charged as forward bytes
    // whose 1 + 1.5 (the backward's element-wise share) make the 5(q + 2kv) + 5q: (4q + 4kv) elements.
    w.elementwise_bytes += kBf16 * t * (4.0 * attn_width + 4.0 * kv_width) / tp;
  }
  if (p.cp > 1 && eff.flash_attention) {
    // Ring attention's bookkeeping (TransformerEngine context_parallel.py, AttnFuncWithCPAndKVP2P): each of the cp
    // steps leaves a partial output, and flash_attn_fwd_out_correction rescales and adds it into the running output
    // (read the step's output, read and write the sum: 3 BF16 passes over t × H·Q per step). The backward accumulates
    // dQ and dK/dV per step the same way; the engine's 1.5× backward traffic covers it (GQA: dK/dV are smaller).
    w.elementwise_bytes += 3.0 * kBf16 * double(p.cp) * t * attn_width / tp;
  }
  if (m.is_moe()) {
    // Router and token permutation, memory-bound (Megatron-Core moe_utils.py permute/unpermute, the token dispatcher
    // of arXiv 2504.14960): the router's scores, softmax and top-k read and write
    // t·E fp32 values three times (12 bytes each); permute reads each dispatched token and writes top_k copies,
    // unpermute reads the top_k expert outputs and writes the weighted sum: 2·(1 + top_k) token rows in bf16.
    const double d = w.dispatched_tokens;
    const double router = 12.0 * d * double(m.experts);
    const double permutation = kBf16 * 2.0 * (1.0 + double(m.top_k)) * d * h;
    w.elementwise_bytes += w.moe_layer_share * (router + permutation);
  }

  // Unfused attention writes the s×s scores and reads them back: scale+mask+softmax (read 2, write 2 bytes),
  // dropout (read 2, write 2, mask 1): 9 bytes per score (Korthikanti et al. 2022, Sec. 4.1: 5·a·s²·b bytes kept).
  w.softmax_bytes = eff.flash_attention ? 0.0 : 9.0 * t * double(m.seq) * double(m.heads) / tp;
  return w;
}

TrainingRun with_layer_kind(const TrainingRun& run, bool moe) {
  TrainingRun out = run;
  out.model.first_dense_layers = moe ? 0 : run.model.layers;
  out.model.moe_layer_freq = 1;
  return out;
}

LogitsWork logits_work(const TrainingRun& run, const Efficiency& eff) {
  const ModelShape& m = run.model;
  const ParallelConfig& p = run.parallel;
  const double t = double(p.microbatch_size) * double(m.seq) / double(p.cp);
  const double tp = double(p.tp);
  const double logits = t * double(m.vocab) / tp;
  LogitsWork l;
  // Output layer t·h·V, vocabulary split over tp (Shoeybi et al. 2019, Sec. 3); the cross-entropy's passes over the
  // logits as the stack's code runs them (loss_traffic_bytes_per_logit, cost_types.hpp).
  l.flops = 2.0 * t * double(m.hidden) * double(m.vocab) / tp;
  l.bytes = eff.loss_traffic_bytes_per_logit * logits;
  l.backward_bytes = eff.loss_backward_traffic_bytes_per_logit * logits;
  return l;
}

double activation_bytes_per_layer(const TrainingRun& run, const Efficiency& eff) {
  const ModelShape& m = run.model;
  return activation_bytes_per_layer(m, run.parallel, eff, double(m.moe_layers()) / double(m.layers));
}

double op_saved_bytes_per_layer(const ModelShape& m, const ParallelConfig& p) {
  // torchtitan's per-op policy (`_save_list` at 820504e: aten.mm but every second one, the flash/efficient SDPA,
  // reduce_scatter_tensor) keeps, beside the block's input (2sbh, /tp with SP), the outputs of wq (2sb·Hq/tp), wv
  // (2sb·kv/tp), the attention (2sb·Hq/tp; its log-sum-exp is per row), w1 (2sbf/tp) and, with SwiGLU, w2 (its
  // row-parallel output is whole on every tp rank: 2sbh), and with sequence parallelism the two reduce-scatters'
  // outputs (2·2sbh/tp). Everything else, element-wise fp32 intermediates included, is recomputed.
  const double sb = double(m.seq) / double(p.cp) * double(p.microbatch_size);
  const double h = double(m.hidden), tp = double(p.tp);
  const double q = double(m.heads * m.head_dim), kv = double(m.kv_heads * m.head_dim);
  const bool sp = p.sequence_parallel && p.tp > 1;
  const double input = 2.0 * sb * h / (sp ? tp : 1.0);
  const double saved = 2.0 * sb * (2.0 * q + kv + double(m.ffn)) / tp;
  const double down = m.activation == Activation::swiglu ? 2.0 * sb * h : 0.0;
  const double scattered = sp ? 2.0 * 2.0 * sb * h / tp : 0.0;
  return input + saved + down + scattered;
}

double activation_bytes_per_layer(const ModelShape& m, const ParallelConfig& p, const Efficiency& eff,
                                  double moe_share) {
  const double s = double(m.seq) / double(p.cp);
  const double b = double(p.microbatch_size);
  const double h = double(m.hidden);
  const double tp = double(p.tp);
  const double sb = s * b;
  // Full recomputation keeps only each layer's input (Korthikanti et al. 2022, Table 2: 2sbh, /t with SP).
  if (p.recompute == Recompute::full) return 2.0 * sb * h / (p.sequence_parallel ? tp : 1.0);
  if (p.recompute == Recompute::op) return op_saved_bytes_per_layer(m, p);

  // Korthikanti Sec. 4.1, per layer: attention 11sbh + 5as²b, MLP 19sbh, norms 4sbh = sbh(34 + 5as/h).
  // Kept whole on every tp rank without SP: norm inputs 4sbh, QKV and MLP inputs 2sbh each, dropout masks sbh each.
  const double dropout_masks = has_dropout(m) ? 2.0 * sb * h : 0.0;
  const double replicated = 4.0 * sb * h + 2.0 * sb * h + 2.0 * sb * h + dropout_masks;
  // Split over tp: Q, K, V (2 bytes each; K and V at kv_heads for GQA), the output projection's input, and the
  // FFN internals (GELU: input of the activation and of the second matrix, 2·2sbf; SwiGLU: gate and up outputs and
  // the product, 3·2sbf), averaged over dense and MoE layers with top_k + shared experts active.
  const double attn_width = double(m.heads * m.head_dim);
  const double kv_width = double(m.kv_heads * m.head_dim);
  const double ffn_active = (1.0 - moe_share) * double(m.ffn) +
                            (m.is_moe() ? moe_share * double(m.top_k + m.shared_experts) * double(m.expert_ffn) : 0);
  const double ffn_bytes = (m.activation == Activation::swiglu ? 6.0 : 4.0) * sb * ffn_active;
  const double split = 2.0 * sb * (attn_width + 2.0 * kv_width) + 2.0 * sb * attn_width + ffn_bytes;
  double bytes = (p.sequence_parallel ? replicated / tp : replicated) + split / tp;
  if (eff.precision == Precision::fp8 && eff.fp8_saves_gemm_inputs) {
    // FP8 with TransformerEngine: the QKV and FC1 inputs (the norms' outputs) and FC2's input (the activation's
    // output, ffn wide) are kept as FP8 casts, 1 byte less per element; the output projection keeps an FP8 copy of
    // the attention's output beside the bf16 one the fused attention saves for its own backward, 1 byte more.
    const double gemm_inputs = 2.0 * sb * h;
    bytes -= (p.sequence_parallel ? gemm_inputs / tp : gemm_inputs) + sb * (ffn_active - attn_width) / tp;
  }
  if (eff.eager_elementwise) {
    // Eager autograd saves the fp32 intermediates: RMSNorm's fp32 input (4) and its bf16 output for the weight's
    // product (2) against a fused norm's bf16 input (2), +4 per hidden element and norm; the rotary product saves
    // its fp32 complex input, +4 per element of Q and K (eager_extra_bytes lists the ops).
    const double norms = m.norm == Norm::rmsnorm && !eff.fused_rmsnorm ? 2.0 * 4.0 * sb * h : 0.0;
    const double rope = m.position_embedding == PositionEmbedding::rope ? 4.0 * sb * (attn_width + kv_width) / tp : 0.0;
    bytes += (p.sequence_parallel ? norms / tp : norms) + rope;
  }
  // The s×s scores, softmax output and dropout mask: 5·a·s²·b (Korthikanti Sec. 4.1); gone with selective
  // recomputation (Sec. 5) or FlashAttention, which keeps only per-row statistics.
  if (p.recompute == Recompute::none && !eff.flash_attention) {
    bytes += 5.0 * double(m.heads) * s * double(m.seq) * b / tp;
  }
  return bytes;
}

}  // namespace parascope::detail
