// Parameter counts and training FLOPs per token for decoder-only transformers (dense, GQA/MQA, MLA, MoE).
#include "parascope/model.hpp"

namespace parascope {

namespace {

/// One FFN of width `width`: GELU uses up + down (2 d·f), SwiGLU gate + up + down (3 d·f). Shazeer 2020, Eq. 6.
double ffn_params(const ModelShape& m, std::int64_t width) {
  double d = double(m.hidden), f = double(width);
  double matrices = (m.activation == Activation::swiglu ? 3.0 : 2.0) * d * f;
  double biases = m.bias ? (m.activation == Activation::swiglu ? 2.0 : 1.0) * f + d : 0.0;
  return matrices + biases;
}

/// Attention projections. Plain: Q (d × H·hd), K and V (d × KV·hd each), O (H·hd × d).
/// MLA (DeepSeek-V2, arXiv 2405.04434, Sec. 2.1): Q down/up, joint KV down (+ shared RoPE key), K/V up, O.
double attention_params(const ModelShape& m) {
  double d = double(m.hidden), h = double(m.heads), hd = double(m.head_dim);
  if (m.is_mla()) {
    double rope = double(m.rope_head_dim), qr = double(m.q_lora_rank), kvr = double(m.kv_lora_rank);
    double q = m.q_lora_rank > 0 ? d * qr + qr + qr * h * (hd + rope) : d * h * (hd + rope);
    double kv = d * (kvr + rope) + kvr + kvr * h * (hd + hd);
    double o = h * hd * d;
    return q + kv + o;
  }
  double kv = double(m.kv_heads);
  double matrices = d * h * hd + 2.0 * d * kv * hd + h * hd * d;
  double biases = m.bias ? h * hd + 2.0 * kv * hd + d : 0.0;
  return matrices + biases;
}

double norm_params(const ModelShape& m) { return double(m.hidden) * (m.norm == Norm::layernorm && m.bias ? 2.0 : 1.0); }

}  // namespace

ParamCounts count_params(const ModelShape& m) {
  ParamCounts p;
  p.attention_per_layer = attention_params(m);
  p.dense_ffn_per_layer = ffn_params(m, m.ffn);
  p.expert_ffn = m.is_moe() ? ffn_params(m, m.expert_ffn > 0 ? m.expert_ffn : m.ffn) : 0.0;
  p.router_per_layer = m.is_moe() ? double(m.hidden) * double(m.experts) : 0.0;
  p.norms_per_layer = 2.0 * norm_params(m);
  p.embedding = double(m.vocab) * double(m.hidden) * (m.tied_embeddings ? 1.0 : 2.0);
  p.position = m.position_embedding == PositionEmbedding::learned ? double(m.seq) * double(m.hidden) : 0.0;
  p.final_norm = norm_params(m);

  double dense_layers = double(m.layers - m.moe_layers());
  double moe_layers = double(m.moe_layers());
  double shared = double(m.shared_experts);
  double common = double(m.layers) * (p.attention_per_layer + p.norms_per_layer) +
                  dense_layers * p.dense_ffn_per_layer + moe_layers * p.router_per_layer + p.embedding + p.final_norm;
  p.total = common + moe_layers * (double(m.experts) + shared) * p.expert_ffn + p.position;
  p.active = common + moe_layers * (double(m.top_k) + shared) * p.expert_ffn + p.position;
  p.flops_params = p.active - p.position;
  return p;
}

double op_recomputed_params_per_layer(const ModelShape& m) {
  // torchtitan's `_custom_policy` counts aten.mm calls per block and recomputes the even ones: of wq, wk, wv, wo,
  // w1, w3, w2 (SwiGLU: w2(silu(w1(x)) * w3(x)), evaluated in that order) the 2nd, 4th and 6th.
  const double h = double(m.hidden);
  const double q = double(m.heads * m.head_dim), kv = double(m.kv_heads * m.head_dim), f = double(m.ffn);
  return h * kv + q * h + h * f;  // wk, wo, and w3 (SwiGLU) or w2 (GELU): h·f either way
}

FlopsPerToken flops_per_token(const ModelShape& m, AttentionFlops attention, Recompute recompute) {
  const double n = count_params(m).flops_params;
  // The attention score (Q·K^T) and value (A·V) matmuls: 2·T·H·width FLOPs each per token in the forward pass,
  // x3 for forward + backward. With Q·K^T and A·V of width Q this is PaLM's 12·L·H·Q·T. MLA's scores are
  // (head_dim + rope_head_dim) wide and its values head_dim wide.
  const double qk_width = double(m.head_dim + (m.is_mla() ? m.rope_head_dim : 0));
  const double v_width = double(m.head_dim);
  const double causal_factor = attention == AttentionFlops::causal ? 0.5 : 1.0;
  const double attn_fwd =
      2.0 * double(m.layers) * double(m.heads) * double(m.seq) * (qk_width + v_width) * causal_factor;

  FlopsPerToken f;
  f.model = 6.0 * n + 3.0 * attn_fwd;
  // Recomputation repeats forward work in the backward pass (Korthikanti et al. 2022, Sec. 5; PaLM App. B: HFU
  // counts it). Full: the whole forward again (2N + attention forward), Narayanan et al. 2021 Eq. 3's 96 vs 72.
  // Selective: only the attention core (scores, softmax, A·V) again.
  // Per-op (torchtitan): the recomputed matmuls' forward again, 2 FLOPs per weight per token.
  double extra = 0.0;
  if (recompute == Recompute::full) extra = 2.0 * n + attn_fwd;
  if (recompute == Recompute::selective) extra = attn_fwd;
  if (recompute == Recompute::op) extra = 2.0 * double(m.layers) * op_recomputed_params_per_layer(m);
  f.hardware = f.model + extra;
  f.formula = std::string("6N + ") + (attention == AttentionFlops::causal ? "6" : "12") +
              "·L·H·Q·T per token (PaLM, Chowdhery et al. 2022, App. B; nanoGPT estimate_mfu)" +
              (attention == AttentionFlops::causal ? ", attention halved for the causal mask" : ", full attention") +
              "; N = active parameters without the position table";
  return f;
}

}  // namespace parascope
