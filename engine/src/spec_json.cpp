// JSON <-> ModelShape / Hardware, with the validation shared by presets and requests.
#include "spec_json.hpp"

#include <algorithm>

#include "json_out.hpp"
#include "json_text.hpp"
#include "names.hpp"
#include "parascope/presets.hpp"

namespace parascope::detail {

namespace {

constexpr std::int64_t kMaxWidth = 1'000'000;  // hidden, ffn, head_dim: far above any published model
constexpr std::int64_t kMaxLayers = 10'000;
constexpr std::int64_t kMaxVocab = 100'000'000;
constexpr std::int64_t kMaxSeq = 100'000'000;
constexpr std::int64_t kMaxExperts = 1'000'000;
constexpr double kMaxFlops = 1e21;  // per GPU: a zettaFLOP/s
constexpr double kMaxBytes = 1e18;
constexpr double kMaxBandwidth = 1e16;
// The smallest FLOP/s and bytes/s a request may give: 1. Far below any device, and what keeps every time and ratio the
// engine derives finite (work up to ~1e45 over a speed of at least 1, never over 1e-300).
constexpr double kMinSpeed = 1;

const char* name_of(Activation a) { return a == Activation::swiglu ? "swiglu" : "gelu"; }
const char* name_of(Norm n) { return n == Norm::layernorm ? "layernorm" : "rmsnorm"; }
const char* name_of(PositionEmbedding p) {
  return p == PositionEmbedding::learned ? "learned" : p == PositionEmbedding::rope ? "rope" : "none";
}

}  // namespace

ModelShape read_model_shape(RequestReader& r) {
  ModelShape m;
  m.id = r.text_or("id", "");
  m.name = r.text_or("name", m.id.empty() ? "custom model" : m.id);
  m.source = r.text_or("source", "");
  r.ignore("derived");  // output-only counts from the presets op: a preset can be passed back as it came
  m.layers = r.integer("layers", 1, kMaxLayers);
  m.hidden = r.integer("hidden", 1, kMaxWidth);
  m.heads = r.integer("heads", 1, m.hidden);
  m.kv_heads = r.integer_or("kv_heads", m.heads, 1, m.heads);
  if (m.heads % m.kv_heads != 0) {
    refuse(code::inconsistent, {r.path_of("kv_heads"), " must divide heads (", m.heads, "); got ", m.kv_heads},
           r.path_of("kv_heads"));
  }
  if (!r.has("head_dim") && m.hidden % m.heads != 0) {
    refuse(code::inconsistent,
           {r.path_of("heads"), " must divide hidden when head_dim is not given (head_dim = hidden / heads)"},
           r.path_of("heads"));
  }
  m.head_dim = r.integer_or("head_dim", m.hidden / m.heads, 1, kMaxWidth);
  m.ffn = r.integer_or("ffn", 4 * m.hidden, 1, kMaxWidth);
  m.activation =
      r.choice_or("activation", "gelu", {"gelu", "swiglu"}) == "swiglu" ? Activation::swiglu : Activation::gelu;
  m.vocab = r.integer("vocab", 1, kMaxVocab);
  m.seq = r.integer("seq", 1, kMaxSeq);
  m.experts = r.integer_or("experts", 1, 1, kMaxExperts);
  m.top_k = r.integer_or("top_k", 1, 1, kMaxExperts);
  if (m.top_k > m.experts) {
    refuse(code::inconsistent, {r.path_of("top_k"), " must be at most experts (", m.experts, "); got ", m.top_k},
           r.path_of("top_k"));
  }
  m.expert_ffn = r.integer_or("expert_ffn", m.ffn, 1, kMaxWidth);
  m.shared_experts = r.integer_or("shared_experts", 0, 0, kMaxExperts);
  // `dense_layers` is the earlier name of `first_dense_layers`, still read so saved requests keep working.
  if (r.has("first_dense_layers") && r.has("dense_layers")) {
    refuse(code::conflicting_fields,
           {r.path_of("dense_layers"), " is the old name of first_dense_layers: give only one of them"},
           r.path_of("dense_layers"));
  }
  const char* dense_key = r.has("dense_layers") ? "dense_layers" : "first_dense_layers";
  m.first_dense_layers = r.integer_or(dense_key, 0, 0, m.layers);
  m.moe_layer_freq = r.integer_or("moe_layer_freq", 1, 1, m.layers);
  if (!m.is_moe() && (m.shared_experts > 0 || m.first_dense_layers > 0 || m.moe_layer_freq > 1)) {
    const char* key = m.shared_experts > 0 ? "shared_experts" : m.first_dense_layers > 0 ? dense_key : "moe_layer_freq";
    refuse(code::inconsistent,
           {r.path_of(key),
            ": shared_experts, first_dense_layers and moe_layer_freq apply only to MoE "
            "models (experts > 1)"},
           r.path_of(key));
  }
  m.q_lora_rank = r.integer_or("q_lora_rank", 0, 0, kMaxWidth);
  m.kv_lora_rank = r.integer_or("kv_lora_rank", 0, 0, kMaxWidth);
  m.rope_head_dim = r.integer_or("rope_head_dim", 0, 0, kMaxWidth);
  if (!m.is_mla() && (m.q_lora_rank > 0 || m.rope_head_dim > 0)) {
    refuse(code::inconsistent, {"q_lora_rank and rope_head_dim describe MLA and need kv_lora_rank > 0"},
           r.path_of(m.q_lora_rank > 0 ? "q_lora_rank" : "rope_head_dim"));
  }
  m.bias = r.boolean_or("bias", false);
  m.norm = r.choice_or("norm", "rmsnorm", {"layernorm", "rmsnorm"}) == "layernorm" ? Norm::layernorm : Norm::rmsnorm;
  std::string pos = r.choice_or("position_embedding", "rope", {"learned", "rope", "none"});
  m.position_embedding = pos == "learned" ? PositionEmbedding::learned
                         : pos == "rope"  ? PositionEmbedding::rope
                                          : PositionEmbedding::none;
  m.tied_embeddings = r.boolean_or("tied_embeddings", false);
  m.published_params = r.number_or("published_params", 0, 0, 1e16);
  r.finish();
  return m;
}

double read_power_limit(RequestReader& r, double fallback, const Hardware& hw) {
  const double limit = r.number_or("power_limit", fallback, 1, 1e5);
  if (hw.board_power > 0 && limit > hw.board_power) {
    refuse(code::invalid_value,
           {r.path_of("power_limit"), " is ", limit, " W, above the board power of ", hw.name, " (", hw.board_power,
            " W): a GPU cannot be allowed more than its board power"},
           r.path_of("power_limit"));
  }
  return limit;
}

Hardware read_hardware(RequestReader& r) {
  Hardware h;
  h.id = r.text_or("id", "");
  h.name = r.text_or("name", h.id.empty() ? "custom hardware" : h.id);
  h.kind = r.choice_or("kind", "gpu", {"gpu", "tpu"});
  h.peak_flops = r.number("peak_flops", kMinSpeed, kMaxFlops);
  h.memory_bytes = r.number_or("memory_bytes", 0, 0, kMaxBytes, true);
  h.memory_bandwidth = r.number_or("memory_bandwidth", 0, kMinSpeed, kMaxBandwidth);
  h.gpus_per_node = int(r.integer_or("gpus_per_node", 0, 1, 1'000'000));
  h.intra_link = r.text_or("intra_link", "");
  h.intra_bandwidth = r.number_or("intra_bandwidth", 0, kMinSpeed, kMaxBandwidth);
  h.intra_latency = r.number_or("intra_latency", 0, 0, 1.0);
  h.inter_link = r.text_or("inter_link", "");
  h.inter_bandwidth = r.number_or("inter_bandwidth", 0, kMinSpeed, kMaxBandwidth);
  h.inter_latency = r.number_or("inter_latency", 0, 0, 1.0);
  h.nvlink_multicast = r.boolean_or("nvlink_multicast", false);
  h.peak_flops_fp8 = r.number_or("peak_flops_fp8", 0, 0, kMaxFlops, true);
  h.compute_units = int(r.integer_or("compute_units", 0, 1, 100'000));
  h.gemm_efficiency = r.number_or("gemm_efficiency", 0, 0, 1, true);
  h.gemm_efficiency_fp8 = r.number_or("gemm_efficiency_fp8", 0, 0, 1, true);
  h.attention_efficiency = r.number_or("attention_efficiency", 0, 0, 1, true);
  h.attention_efficiency_fa2 = r.number_or("attention_efficiency_fa2", 0, 0, 1, true);
  h.memory_efficiency = r.number_or("memory_efficiency", 0, 0, 1, true);
  h.board_power = r.number_or("board_power", 0, 1, 1e5);
  h.power_limit = read_power_limit(r, h.board_power, h);
  h.host_bandwidth = r.number_or("host_bandwidth", 0, kMinSpeed, kMaxBandwidth);
  h.host_memory_bandwidth = r.number_or("host_memory_bandwidth", 0, kMinSpeed, kMaxBandwidth);
  if (r.has("fp8_block_scaling")) {
    // A list of block-scaling formats, each one the engine knows (fp8_block_format_ids), no repeats.
    const json& formats = r.value("fp8_block_scaling");
    const std::string field = r.path_of("fp8_block_scaling");
    if (!formats.is_array()) {
      refuse(code::wrong_type, {field, " must be a list of format names, e.g. [\"mxfp8\"]"}, field);
    }
    for (const json& f : formats) {
      const auto& known = fp8_block_format_ids();
      if (!f.is_string() || std::find(known.begin(), known.end(), f.get<std::string>()) == known.end()) {
        refuse(code::invalid_value, {field, " entries must be one of \"mxfp8\"; got ", dump_text(f)}, field);
      }
      if (std::find(h.fp8_block_scaling.begin(), h.fp8_block_scaling.end(), f.get<std::string>()) !=
          h.fp8_block_scaling.end()) {
        refuse(code::invalid_value, {field, " lists ", dump_text(f), " twice"}, field);
      }
      h.fp8_block_scaling.push_back(f.get<std::string>());
    }
  }
  if (r.has("sources")) {
    RequestReader s = r.object("sources");
    for (const auto& [key, value] : r.value("sources").items()) {
      h.sources[key] = s.text_or(key.c_str(), "");
    }
    s.finish();
  }
  r.finish();
  return h;
}

namespace {

/// A request field holding a preset id (looked up in `presets`) or an object (read by `read`).
template <typename T, typename Read>
T resolve(RequestReader& request, const char* key, const char* kind, const std::vector<T>& presets, Read read) {
  const json& v = request.value(key);
  if (!v.is_string()) {
    RequestReader r = request.object(key);
    return read(r);
  }
  const std::string id = v.get<std::string>();
  std::string ids;
  for (const T& p : presets) {
    if (p.id == id) return p;
    ids += (ids.empty() ? "" : ", ") + p.id;
  }
  refuse(code::unknown_preset, {request.path_of(key), ": no ", kind, " preset \"", id, "\"; presets: ", ids},
         request.path_of(key));
}

}  // namespace

ModelShape resolve_model(RequestReader& request, const char* key) {
  return resolve(request, key, "model", model_presets(), read_model_shape);
}

Hardware resolve_hardware(RequestReader& request, const char* key) {
  return resolve(request, key, "hardware", hardware_presets(), read_hardware);
}

json model_to_json(const ModelShape& m) {
  json j;
  put(j, "id", m.id);
  put(j, "name", m.name);
  put(j, "layers", m.layers);
  put(j, "hidden", m.hidden);
  put(j, "heads", m.heads);
  put(j, "kv_heads", m.kv_heads);
  put(j, "head_dim", m.head_dim);
  put(j, "ffn", m.ffn);
  put(j, "activation", name_of(m.activation));
  put(j, "vocab", m.vocab);
  put(j, "seq", m.seq);
  put(j, "experts", m.experts);
  put(j, "top_k", m.top_k);
  put(j, "bias", m.bias);
  put(j, "norm", name_of(m.norm));
  put(j, "position_embedding", name_of(m.position_embedding));
  put(j, "tied_embeddings", m.tied_embeddings);
  if (m.is_moe()) {
    put(j, "expert_ffn", m.expert_ffn);
    put(j, "shared_experts", m.shared_experts);
    put(j, "first_dense_layers", m.first_dense_layers);
    put(j, "moe_layer_freq", m.moe_layer_freq);
  }
  if (m.is_mla()) {
    put(j, "q_lora_rank", m.q_lora_rank);
    put(j, "kv_lora_rank", m.kv_lora_rank);
    put(j, "rope_head_dim", m.rope_head_dim);
  }
  if (m.published_params > 0) put(j, "published_params", m.published_params);
  if (!m.source.empty()) put(j, "source", m.source);
  return j;
}

json hardware_to_json(const Hardware& h) {
  json j;
  put(j, "id", h.id);
  put(j, "name", h.name);
  put(j, "kind", h.kind);
  put(j, "peak_flops", h.peak_flops);
  // Optional numbers: written when given (positive).
  const std::pair<const char*, double> positive[] = {{"memory_bytes", h.memory_bytes},
                                                     {"memory_bandwidth", h.memory_bandwidth},
                                                     {"intra_bandwidth", h.intra_bandwidth},
                                                     {"intra_latency", h.intra_latency},
                                                     {"inter_bandwidth", h.inter_bandwidth},
                                                     {"inter_latency", h.inter_latency},
                                                     {"peak_flops_fp8", h.peak_flops_fp8},
                                                     {"gemm_efficiency", h.gemm_efficiency},
                                                     {"gemm_efficiency_fp8", h.gemm_efficiency_fp8},
                                                     {"attention_efficiency", h.attention_efficiency},
                                                     {"attention_efficiency_fa2", h.attention_efficiency_fa2},
                                                     {"memory_efficiency", h.memory_efficiency},
                                                     {"board_power", h.board_power},
                                                     {"power_limit", h.power_limit},
                                                     {"host_bandwidth", h.host_bandwidth},
                                                     {"host_memory_bandwidth", h.host_memory_bandwidth}};
  for (const auto& [key, v] : positive) {
    if (v > 0) put(j, key, v);
  }
  if (h.gpus_per_node > 0) put(j, "gpus_per_node", h.gpus_per_node);
  if (!h.intra_link.empty()) put(j, "intra_link", h.intra_link);
  if (!h.inter_link.empty()) put(j, "inter_link", h.inter_link);
  if (h.nvlink_multicast) put(j, "nvlink_multicast", true);
  if (h.compute_units > 0) put(j, "compute_units", h.compute_units);
  if (!h.fp8_block_scaling.empty()) {
    json& formats = put_array(j, "fp8_block_scaling");
    for (const std::string& f : h.fp8_block_scaling) formats.push_back(f);
  }
  if (!h.sources.empty()) put(j, "sources", h.sources);
  return j;
}

}  // namespace parascope::detail
