/// Transformer shapes and what follows from them alone: parameter counts and FLOPs per token.
#pragma once

#include <cstdint>
#include <string>

namespace parascope {

enum class Activation { gelu, swiglu };  ///< gelu: 2 FFN matrices; swiglu: 3 (gate, up, down)
enum class Norm { layernorm, rmsnorm };
enum class PositionEmbedding { learned, rope, none };

/// A decoder-only transformer as published. Field names match the JSON API ("kv_heads", "ffn", ...).
struct ModelShape {
  std::string id;
  std::string name;
  std::int64_t layers = 0;
  std::int64_t hidden = 0;
  std::int64_t heads = 0;
  std::int64_t kv_heads = 0;  ///< = heads for multi-head attention, 1 for multi-query, in between for GQA
  std::int64_t head_dim = 0;
  std::int64_t ffn = 0;  ///< FFN width of dense layers
  Activation activation = Activation::gelu;
  std::int64_t vocab = 0;
  std::int64_t seq = 0;                 ///< training context length in tokens
  std::int64_t experts = 1;             ///< routed experts per MoE layer; 1 = dense
  std::int64_t top_k = 1;               ///< routed experts each token visits
  std::int64_t expert_ffn = 0;          ///< FFN width of one expert (default: ffn)
  std::int64_t shared_experts = 0;      ///< always-on experts per MoE layer (DeepSeek-MoE)
  std::int64_t first_dense_layers = 0;  ///< leading layers with a dense FFN in an MoE model (DeepSeek-V3: 3)
  std::int64_t moe_layer_freq = 1;      ///< after those, every k-th layer is an MoE layer (Llama 4 Maverick: 2)
  std::int64_t q_lora_rank = 0;         ///< MLA query compression rank (DeepSeek-V2/V3); 0 = plain attention
  std::int64_t kv_lora_rank = 0;        ///< MLA key/value compression rank; > 0 selects MLA
  std::int64_t rope_head_dim = 0;       ///< MLA decoupled RoPE width per head
  bool bias = false;
  Norm norm = Norm::rmsnorm;
  PositionEmbedding position_embedding = PositionEmbedding::rope;
  bool tied_embeddings = false;
  double published_params = 0;  ///< the paper's total, for display and checks (0 = not given)
  std::string source;

  bool is_moe() const { return experts > 1; }
  bool is_mla() const { return kv_lora_rank > 0; }
  /// Whether layer i (0-based) has a routed-expert FFN: past the first_dense_layers, the k-th, 2k-th, ... layer
  /// (k = moe_layer_freq; Hugging Face Llama 4: layer i is MoE when (i + 1) % interleave_moe_layer_step == 0).
  bool is_moe_layer(std::int64_t i) const {
    return is_moe() && i >= first_dense_layers && (i - first_dense_layers + 1) % moe_layer_freq == 0;
  }
  /// MoE layers in the model: floor((layers − first_dense_layers) / moe_layer_freq).
  std::int64_t moe_layers() const { return is_moe() ? (layers - first_dense_layers) / moe_layer_freq : 0; }
  /// MoE layers among [first, end).
  std::int64_t moe_layers_in(std::int64_t first, std::int64_t end) const {
    auto upto = [&](std::int64_t n) {  // MoE layers among [0, n)
      return is_moe() && n > first_dense_layers ? (n - first_dense_layers) / moe_layer_freq : std::int64_t{0};
    };
    return upto(end) - upto(first);
  }
};

/// Parameter counts, in parameters (elements, not bytes).
struct ParamCounts {
  double attention_per_layer = 0;  ///< projections (+ biases)
  double dense_ffn_per_layer = 0;  ///< one dense FFN (+ biases)
  double expert_ffn = 0;           ///< one expert's FFN
  double router_per_layer = 0;
  double norms_per_layer = 0;
  double embedding = 0;  ///< token embedding (and the output head when untied)
  double position = 0;   ///< learned position table (excluded from the 6N of MFU)
  double final_norm = 0;
  double total = 0;         ///< every parameter stored
  double active = 0;        ///< parameters a token's forward pass touches (MoE: top_k + shared experts)
  double flops_params = 0;  ///< N in 6N: active parameters without the position table
};

ParamCounts count_params(const ModelShape& m);

enum class AttentionFlops { full, causal };
/// What the backward recomputes (Korthikanti et al. 2022, Sec. 5): nothing; the attention core (selective); the whole
/// layer (full); or torchtitan's per-op policy (op: each block saves its matmul outputs but every second one, and the
/// attention's output, and recomputes the rest; torchtitan/models/llama3/parallelize_llama.py `_save_list` at
/// 820504e, dense blocks only).
enum class Recompute { none, selective, full, op };

/// Weights per layer whose matmul the per-op policy recomputes (every second mm of the block, in forward order:
/// wq, wk, wv, wo, then w1, w3, w2 with SwiGLU or w1, w2 without; the 2nd, 4th and 6th): wk, wo and w3 (SwiGLU) or
/// w2 (GELU), in parameters.
double op_recomputed_params_per_layer(const ModelShape& m);

/// FLOPs per token of one training step (forward + backward), and the convention they follow.
struct FlopsPerToken {
  double model = 0;     ///< what MFU counts: 6N + attention (no recomputation)
  double hardware = 0;  ///< what HFU counts: model + the recomputed forward work
  std::string formula;
};

/// PaLM (Chowdhery et al. 2022, App. B) and nanoGPT's estimate_mfu: 6N + 12·L·H·Q·T per token, T = context length.
/// Causal attention halves the attention term (FlashAttention-2, Dao 2023, Sec. 4.1, counts only the unmasked half).
FlopsPerToken flops_per_token(const ModelShape& m, AttentionFlops attention, Recompute recompute);

}  // namespace parascope
