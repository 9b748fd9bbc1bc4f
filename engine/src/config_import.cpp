// Hugging Face config.json -> the engine's model shape (config_import.hpp). Key names as transformers' configuration
// classes define them (LlamaConfig, MistralConfig, MixtralConfig, Qwen2/Qwen3 (MoE), DeepseekV3Config, GemmaConfig,
// GPT2Config, GPTNeoXConfig, OPTConfig at transformers v4.57); a key none of them has is listed as unmapped.
#include "config_import.hpp"

#include <initializer_list>
#include <set>
#include <utility>
#include <vector>

#include "parascope/error.hpp"

namespace parascope::detail {

namespace {

using nlohmann::json;

bool one_of(const std::string& s, std::initializer_list<const char*> names) {
  for (const char* n : names) {
    if (s == n) return true;
  }
  return false;
}

/// Model types whose MLP is gated (gate, up and down matrices: the engine's "swiglu" shape, whatever the nonlinearity).
bool gated(const std::string& type) {
  return one_of(type, {"llama", "mistral", "mixtral", "qwen2", "qwen2_moe", "qwen3", "qwen3_moe", "deepseek_v2",
                       "deepseek_v3", "gemma", "gemma2", "gemma3_text", "olmo2", "granite", "phi3", "gpt_oss"});
}

/// Model types with biases on every matrix and dropout (the engine's `bias`), and a learned position table.
bool gpt_style(const std::string& type) { return one_of(type, {"gpt2", "opt"}); }

/// Keys read for nothing: their reason, one per group.
const char* ignored_reason(const std::string& key) {
  struct Group {
    std::vector<const char*> keys;  // owned: an initializer_list member would outlive its array
    const char* why;
  };
  static const Group groups[] = {
      {{"architectures", "model_type", "_name_or_path", "transformers_version", "auto_map", "tokenizer_class"},
       "metadata: no bearing on cost"},
      {{"torch_dtype", "dtype"}, "the checkpoint's storage type: the training precision is the request's `precision`"},
      {{"bos_token_id", "eos_token_id", "pad_token_id", "sep_token_id", "decoder_start_token_id"}, "token ids"},
      {{"initializer_range", "initializer_factor"}, "initialisation: no bearing on cost"},
      {{"use_cache", "cache_implementation"}, "the inference key-value cache"},
      {{"rope_theta", "rope_scaling", "rope_parameters", "rope_interleave", "partial_rotary_factor", "rotary_pct",
        "rotary_emb_base", "rotary_dim", "initial_context_length"},
       "rotary frequencies and scaling: the same kernels and FLOPs"},
      {{"rms_norm_eps", "layer_norm_eps", "layer_norm_epsilon", "norm_eps"}, "read for the norm's kind (`norm`)"},
      {{"attention_dropout", "hidden_dropout", "resid_pdrop", "embd_pdrop", "attn_pdrop", "dropout",
        "activation_dropout", "classifier_dropout"},
       "dropout probabilities: the engine counts dropout with `bias` (GPT-style models train with it)"},
      {{"pretraining_tp"}, "Meta's reference slicing of the matrices for tensor parallelism: the same model"},
      {{"output_router_logits", "router_aux_loss_coef", "router_jitter_noise", "norm_topk_prob",
        "routed_scaling_factor", "scoring_func", "topk_method", "n_group", "topk_group", "aux_loss_alpha", "seq_aux",
        "ep_size"},
       "the router's rule and loss: the engine's routing cost does not depend on them"},
      {{"use_qk_norm", "qk_layernorm"}, "per-head norms of queries and keys: a few small kernels, not counted"},
      {{"use_parallel_residual"}, "attention and MLP in parallel (GPT-NeoX): the same matrices and FLOPs"},
      {{"max_window_layers", "use_sliding_window"}, "read with `sliding_window`"},
      // configuration_gemma2.py: tanh caps on the attention and output logits, the attention's scale.
      {{"attn_logit_softcapping", "final_logit_softcapping"}, "a tanh cap on logits: a few element-wise kernels"},
      {{"query_pre_attn_scalar"}, "the attention's scale: the same FLOPs"},
      // configuration_gpt_oss.py: the gated MLP's inputs clamped to ±swiglu_limit.
      {{"swiglu_limit"}, "a clamp inside the gated MLP: the same FLOPs"},
      {{"scale_embedding", "embed_scale"}, "a scalar on the embeddings"},
      {{"summary_activation", "summary_first_dropout", "summary_proj_to_labels", "summary_type", "summary_use_proj"},
       "the sequence-classification head's settings: not part of language-model training"},
      {{"task_specific_params"}, "generation settings"},
  };
  for (const auto& [keys, why] : groups) {
    for (const char* k : keys) {
      if (key == k) return why;
    }
  }
  return nullptr;
}

/// Reads a config object, keeping track of the keys it used.
class Config {
 public:
  Config(const json& c, ImportedModel& out) : c_(c), out_(out) {}

  /// The first of `keys` present and not null (marked used), or nullptr.
  const json* first(std::initializer_list<const char*> keys) {
    const json* found = nullptr;
    for (const char* k : keys) {
      const auto it = c_.find(k);
      if (it == c_.end()) continue;
      used_.insert(k);
      if (!found && !it->is_null()) found = &*it;
    }
    return found;
  }
  /// The first of `keys` as a positive integer, or 0 when none is one.
  long long integer(std::initializer_list<const char*> keys) {
    const json* v = first(keys);
    if (!v || !v->is_number()) return 0;
    const double d = v->get<double>();
    return d >= 1 && d == double((long long)d) ? (long long)d : 0;
  }
  std::string text(std::initializer_list<const char*> keys) {
    const json* v = first(keys);
    return v && v->is_string() ? v->get<std::string>() : "";
  }
  bool flag(std::initializer_list<const char*> keys, bool fallback) {
    const json* v = first(keys);
    return v && v->is_boolean() ? v->get<bool>() : fallback;
  }
  bool has(const char* key) const { return c_.contains(key) && !c_[key].is_null(); }

  void assume(const char* field, const std::string& why) { out_.assumed.push_back({{"field", field}, {"why", why}}); }
  void unmapped(const std::string& key, const std::string& why) {
    used_.insert(key);
    out_.unmapped.push_back({{"key", key}, {"why", why}});
  }
  /// Every key not used: ignored with its reason, or unmapped.
  void classify_rest() {
    for (const auto& [key, value] : c_.items()) {
      if (used_.count(key)) continue;
      if (const char* why = ignored_reason(key)) {
        out_.ignored.push_back({{"key", key}, {"why", why}});
      } else {
        out_.unmapped.push_back({{"key", key}, {"why", "not a key the importer knows"}});
      }
    }
  }

 private:
  const json& c_;
  ImportedModel& out_;
  std::set<std::string> used_;
};

void read_widths(Config& c, json& m, const std::string& type) {
  m["hidden"] = c.integer({"hidden_size", "n_embd", "d_model"});
  m["layers"] = c.integer({"num_hidden_layers", "n_layer", "num_layers"});
  m["heads"] = c.integer({"num_attention_heads", "n_head"});
  const long long kv = c.integer({"num_key_value_heads", "num_kv_heads"});
  if (kv > 0) {
    m["kv_heads"] = kv;
  } else {
    c.assume("kv_heads", "the file gives no num_key_value_heads: multi-head attention, kv_heads = heads");
  }
  if (const long long head_dim = c.integer({"head_dim"})) m["head_dim"] = head_dim;
  long long ffn = c.integer({"intermediate_size", "n_inner", "ffn_dim"});
  if (ffn == 0 && m["hidden"].get<long long>() > 0) {
    ffn = 4 * m["hidden"].get<long long>();
    c.assume("ffn", "no intermediate size in the file (GPT-2's n_inner null): 4 × hidden, as " + type + " builds it");
  }
  m["ffn"] = ffn;
  m["vocab"] = c.integer({"vocab_size"});
}

/// The widths a model cannot do without, each named by the keys that give it.
void require_widths(const json& m) {
  const std::pair<const char*, const char*> required[] = {{"hidden", "hidden_size (or n_embd)"},
                                                          {"layers", "num_hidden_layers (or n_layer)"},
                                                          {"heads", "num_attention_heads (or n_head)"},
                                                          {"vocab", "vocab_size"}};
  for (const auto& [field, keys] : required) {
    if (m[field].get<long long>() <= 0) {
      throw RequestError(code::missing_field, std::string("the config gives no positive integer ") + keys, "text");
    }
  }
}

void read_kinds(Config& c, json& m, const std::string& type) {
  const std::string act = c.text({"hidden_act", "activation_function", "hidden_activation"});
  m["activation"] = gated(type) ? "swiglu" : "gelu";
  if (gated(type) && act != "silu" && act != "swish" && !act.empty()) {
    c.assume("activation", "a gated MLP with " + act + ": the same three matrices and FLOPs as SwiGLU (\"swiglu\")");
  }
  const bool rms = c.has("rms_norm_eps") || (c.has("norm_eps") && !gpt_style(type));
  const bool ln = c.has("layer_norm_eps") || c.has("layer_norm_epsilon");
  m["norm"] = rms || !ln ? "rmsnorm" : "layernorm";
  c.first({"rms_norm_eps", "layer_norm_eps", "layer_norm_epsilon", "norm_eps"});
  m["position_embedding"] = gpt_style(type) ? "learned" : "rope";
  c.first({"n_positions", "n_ctx"});
  const bool biased = gpt_style(type) || type == "gpt_neox";
  m["bias"] = biased;
  // GPT-NeoX's attention_bias defaults true (configuration_gpt_neox.py); GPT-OSS sets it on a gated model.
  const bool attention_bias = c.flag({"attention_bias"}, biased), mlp_bias = c.flag({"mlp_bias"}, biased);
  if (attention_bias != biased || mlp_bias != biased) {
    c.unmapped(attention_bias != biased ? "attention_bias" : "mlp_bias",
               "biases on some matrices only: the engine's `bias` puts them on all (with dropout)");
  }
  if (type == "qwen2" || type == "qwen2_moe") {
    c.assume("bias", "Qwen2 adds biases to q, k and v only (a few thousand parameters a layer): not counted");
  }
  const bool tied_default = one_of(type, {"gpt2", "opt", "gemma", "gemma2", "gemma3_text"});
  if (!c.has("tie_word_embeddings")) {
    c.assume("tied_embeddings", std::string("no tie_word_embeddings in the file: ") + type + "'s default, " +
                                    (tied_default ? "tied" : "untied"));
  }
  m["tied_embeddings"] = c.flag({"tie_word_embeddings"}, tied_default);
}

void read_experts(Config& c, json& m) {
  const long long experts = c.integer({"num_local_experts", "num_experts", "n_routed_experts"});
  if (experts <= 1) return;
  m["experts"] = experts;
  m["top_k"] = c.integer({"num_experts_per_tok", "experts_per_token", "num_experts_per_token"});
  const long long expert_ffn = c.integer({"moe_intermediate_size"});
  m["expert_ffn"] = expert_ffn > 0 ? expert_ffn : m["ffn"].get<long long>();  // Mixtral: intermediate_size
  if (const long long shared = c.integer({"n_shared_experts"})) m["shared_experts"] = shared;
  if (const long long width = c.integer({"shared_expert_intermediate_size"})) {
    if (width % m["expert_ffn"].get<long long>() == 0) {
      m["shared_experts"] = width / m["expert_ffn"].get<long long>();
    } else {
      c.unmapped("shared_expert_intermediate_size",
                 "a shared expert whose width is not a multiple of the routed "
                 "experts': the engine's shared experts have the routed width");
    }
  }
  if (const long long dense = c.integer({"first_k_dense_replace"})) m["first_dense_layers"] = dense;
  const long long freq = c.integer({"moe_layer_freq", "decoder_sparse_step"});
  if (freq > 1) m["moe_layer_freq"] = freq;
  if (const json* only = c.first({"mlp_only_layers"}); only && only->is_array() && !only->empty()) {
    c.unmapped("mlp_only_layers", "dense layers listed one by one: the engine takes a count of leading dense layers");
  }
}

void read_mla(Config& c, json& m) {
  const long long kv_rank = c.integer({"kv_lora_rank"});
  const long long q_rank = c.integer({"q_lora_rank"});
  const long long rope = c.integer({"qk_rope_head_dim"});
  const long long nope = c.integer({"qk_nope_head_dim"});
  const long long v = c.integer({"v_head_dim"});
  if (kv_rank == 0) return;
  m["kv_lora_rank"] = kv_rank;
  if (q_rank > 0) m["q_lora_rank"] = q_rank;
  if (rope > 0) m["rope_head_dim"] = rope;
  if (nope > 0) m["head_dim"] = nope;
  if (v > 0 && v != nope) {
    c.unmapped("v_head_dim",
               "values of another width than the keys' no-position part: the engine's MLA has one "
               "head_dim for both");
  }
}

void read_unmodelled(Config& c, long long seq) {
  if (const json* w = c.first({"sliding_window"});
      w && w->is_number() && w->get<double>() < double(seq) && c.flag({"use_sliding_window"}, true)) {
    c.unmapped("sliding_window", "sliding-window attention: the engine's attention spans the whole sequence");
  }
  if (c.integer({"num_nextn_predict_layers"}) > 0) {
    c.unmapped("num_nextn_predict_layers", "multi-token prediction modules (DeepSeek-V3): not modelled");
  }
  // transformers v4.57: Qwen2/Qwen3 (MoE), Gemma 2/3 and GPT-OSS list each layer's attention kind.
  if (const json* kinds = c.first({"layer_types"}); kinds && kinds->is_array()) {
    long long sliding = 0;
    for (const json& k : *kinds) sliding += k == "sliding_attention" ? 1 : 0;
    if (sliding > 0) {
      c.unmapped("layer_types", std::to_string(sliding) + " of " + std::to_string(kinds->size()) +
                                    " layers attend over a sliding window: costed as full attention");
    }
  }
  if (c.has("quantization_config")) {
    c.unmapped("quantization_config", "weights quantised for inference: training precision is the request's");
  }
}

}  // namespace

ImportedModel import_huggingface(const json& config, long long seq) {
  ImportedModel out;
  Config c(config, out);
  const std::string type = c.text({"model_type"});
  json& m = out.model;
  read_widths(c, m, type.empty() ? "the model" : type);
  require_widths(m);
  read_kinds(c, m, type);
  read_experts(c, m);
  read_mla(c, m);
  const long long context = c.integer({"max_position_embeddings", "n_positions", "n_ctx"});
  if (seq <= 0) {
    seq = context;
    c.assume("seq",
             "the training sequence length is not in a config.json: max_position_embeddings (the longest "
             "context), give `seq` for yours");
  }
  if (seq <= 0) {
    throw RequestError(code::missing_field, "the config gives no max_position_embeddings: give `seq`", "seq");
  }
  m["seq"] = seq;
  read_unmodelled(c, seq);
  c.classify_rest();
  return out;
}

}  // namespace parascope::detail
