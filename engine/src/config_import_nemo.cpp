// NeMo 2 / Megatron-Bridge recipe YAML -> a step request (config_import_formats.hpp). Megatron-Bridge's model keys are
// Megatron-Core's TransformerConfig / ModelParallelConfig fields (megatron/core/transformer/transformer_config.py,
// model_parallel_config.py at core_v0.14.0), the very fields Megatron-LM's flags set (arguments.py
// core_transformer_config_from_args): each key becomes its flag and import_megatron_launch reads them, so the two
// formats share one meaning; every listing then names the YAML key. Bridge's own keys and defaults as
// NVIDIA-NeMo/Megatron-Bridge v0.6.0 (51885cf) defines them: training/config.py (ConfigContainer, the sections),
// models/gpt_provider.py (GPTModelProvider: seq_length, vocab_size, should_pad_vocab), training/mixed_precision.py
// (MixedPrecisionConfig and its named recipes), recipes/common.py (_pretrain_common: mixed_precision "bf16_mixed").
#include <cctype>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "config_doc.hpp"
#include "config_import_formats.hpp"
#include "json_text.hpp"
#include "megatron_launch.hpp"
#include "request_reader.hpp"
#include "yaml_reader.hpp"

namespace parascope::detail {

namespace {

using nlohmann::json;

enum class Kind { value, on, off };  ///< a flag with the key's value; a switch given when true; one given when false

struct Key {
  const char* yaml;
  const char* flag;
  Kind kind;
};

// The keys read as Megatron-LM flags. model.*: TransformerConfig / ModelParallelConfig (core_v0.14.0) and
// GPTModelProvider (gpt_provider.py @ v0.6.0: seq_length, vocab_size, make_vocab_size_divisible_by,
// share_embeddings_and_output_weights, position_embedding_type, moe_grouped_gemm); train.*: TrainingConfig; ddp.*:
// DistributedDataParallelConfig; comm_overlap.*: CommOverlapConfig; mixed_precision.*: MixedPrecisionConfig.
constexpr Key kKeys[] = {
    {"model.num_layers", "--num-layers", Kind::value},
    {"model.hidden_size", "--hidden-size", Kind::value},
    {"model.ffn_hidden_size", "--ffn-hidden-size", Kind::value},
    {"model.num_attention_heads", "--num-attention-heads", Kind::value},
    {"model.num_query_groups", "--num-query-groups", Kind::value},
    {"model.kv_channels", "--kv-channels", Kind::value},
    {"model.seq_length", "--seq-length", Kind::value},
    {"model.vocab_size", "--vocab-size", Kind::value},
    {"model.make_vocab_size_divisible_by", "--make-vocab-size-divisible-by", Kind::value},
    {"model.gated_linear_unit", "--swiglu", Kind::on},
    {"model.normalization", "--normalization", Kind::value},
    {"model.position_embedding_type", "--position-embedding-type", Kind::value},
    {"model.share_embeddings_and_output_weights", "--untie-embeddings-and-output-weights", Kind::off},
    {"model.add_bias_linear", "--disable-bias-linear", Kind::off},
    {"model.add_qkv_bias", "--add-qkv-bias", Kind::on},
    {"model.hidden_dropout", "--hidden-dropout", Kind::value},
    {"model.attention_dropout", "--attention-dropout", Kind::value},
    {"model.multi_latent_attention", "--multi-latent-attention", Kind::on},
    {"model.q_lora_rank", "--q-lora-rank", Kind::value},
    {"model.kv_lora_rank", "--kv-lora-rank", Kind::value},
    {"model.qk_head_dim", "--qk-head-dim", Kind::value},
    {"model.qk_pos_emb_head_dim", "--qk-pos-emb-head-dim", Kind::value},
    {"model.v_head_dim", "--v-head-dim", Kind::value},
    {"model.num_moe_experts", "--num-experts", Kind::value},
    {"model.moe_router_topk", "--moe-router-topk", Kind::value},
    {"model.moe_ffn_hidden_size", "--moe-ffn-hidden-size", Kind::value},
    {"model.moe_shared_expert_intermediate_size", "--moe-shared-expert-intermediate-size", Kind::value},
    {"model.moe_layer_freq", "--moe-layer-freq", Kind::value},
    {"model.moe_grouped_gemm", "--moe-grouped-gemm", Kind::on},
    {"model.tensor_model_parallel_size", "--tensor-model-parallel-size", Kind::value},
    {"model.pipeline_model_parallel_size", "--pipeline-model-parallel-size", Kind::value},
    {"model.virtual_pipeline_model_parallel_size", "--num-virtual-stages-per-pipeline-rank", Kind::value},
    {"model.context_parallel_size", "--context-parallel-size", Kind::value},
    {"model.expert_model_parallel_size", "--expert-model-parallel-size", Kind::value},
    {"model.expert_tensor_parallel_size", "--expert-tensor-parallel-size", Kind::value},
    {"model.sequence_parallel", "--sequence-parallel", Kind::on},
    {"model.num_layers_in_first_pipeline_stage", "--decoder-first-pipeline-num-layers", Kind::value},
    {"model.num_layers_in_last_pipeline_stage", "--decoder-last-pipeline-num-layers", Kind::value},
    {"model.account_for_embedding_in_pipeline_split", "--account-for-embedding-in-pipeline-split", Kind::on},
    {"model.account_for_loss_in_pipeline_split", "--account-for-loss-in-pipeline-split", Kind::on},
    {"model.recompute_granularity", "--recompute-granularity", Kind::value},
    {"model.recompute_method", "--recompute-method", Kind::value},
    {"model.recompute_num_layers", "--recompute-num-layers", Kind::value},
    {"model.recompute_modules", "--recompute-modules", Kind::value},
    {"model.distribute_saved_activations", "--distribute-saved-activations", Kind::on},
    {"model.tp_comm_overlap", "--tp-comm-overlap", Kind::on},
    {"comm_overlap.tp_comm_overlap", "--tp-comm-overlap", Kind::on},
    {"train.global_batch_size", "--global-batch-size", Kind::value},
    {"train.micro_batch_size", "--micro-batch-size", Kind::value},
    {"train.rampup_batch_size", "--rampup-batch-size", Kind::value},
    {"ddp.use_distributed_optimizer", "--use-distributed-optimizer", Kind::on},
    {"optimizer.use_distributed_optimizer", "--use-distributed-optimizer", Kind::on},
    {"ddp.use_megatron_fsdp", "--use-megatron-fsdp", Kind::on},
    {"ddp.data_parallel_sharding_strategy", "--data-parallel-sharding-strategy", Kind::value},
    {"ddp.overlap_grad_reduce", "--overlap-grad-reduce", Kind::on},
    {"ddp.overlap_param_gather", "--overlap-param-gather", Kind::on},
    {"mixed_precision.bf16", "--bf16", Kind::on},
    {"mixed_precision.fp16", "--fp16", Kind::on},
    {"mixed_precision.fp8", "--fp8-format", Kind::value},
    {"mixed_precision.fp8_recipe", "--fp8-recipe", Kind::value},
    {"model.bf16", "--bf16", Kind::on},
    {"model.fp16", "--fp16", Kind::on},
    {"model.fp8", "--fp8-format", Kind::value},
    {"model.fp8_recipe", "--fp8-recipe", Kind::value},
};

/// Keys with no bearing on a step's cost, by section or by the words in a model key; each with its reason.
const char* ignored_reason(const std::string& key) {
  static const std::map<std::string, const char*> sections = {
      {"rng", "the random seed"},
      {"rerun_state_machine", "fault detection by re-running steps"},
      {"optimizer", "the optimiser's hyperparameters (the engine costs AdamW's states)"},
      {"optimizer_config_override_provider", "the optimiser's hyperparameters"},
      {"validation", "evaluation: not a training step"},
      {"scheduler", "the learning-rate schedule"},
      {"logger", "logging"},
      {"tokenizer", "the tokenizer (the vocabulary is model.vocab_size)"},
      {"checkpoint", "checkpointing: not part of a training step"},
      {"dist", "process-group set-up"},
      {"ft", "fault tolerance"},
      {"straggler", "straggler detection"},
      {"nvrx_straggler", "straggler detection"},
      {"profiling", "profiling"},
      {"env_vars", "the process environment"},
      {"tensor_inspect", "tensor inspection"},
      {"inprocess_restart", "fault tolerance"},
      {"dataset", "the data (its seq_length must equal model.seq_length)"},
      {"train", "the run's length and housekeeping: the engine costs one step"},
      {"ddp", "the gradient buffers' layout and checks"},
      {"comm_overlap", "userbuffers tuning: the engine's overlaps are tp_comm_overlap and ddp.overlap_grad_reduce"},
      {"mixed_precision", "an FP8 or loss-scaling detail: the same tensor-core rate"}};
  static const std::vector<std::pair<const char*, const char*>> model_words = {
      {"fusion", "a kernel fusion switch"},
      {"init", "initialisation"},
      {"rotary", "rotary frequencies"},
      {"rope", "rotary frequencies"},
      {"yarn", "rotary frequencies"},
      {"cuda_graph", "CUDA graphs"},
      {"layernorm_", "the norm's epsilon or form"},
      {"softmax", "the softmax's numerics"},
      {"dtype", "a storage or communication type (the precision is mixed_precision's)"},
      {"moe_router_", "the router's settings"},
      {"loss_coeff", "the router's loss"},
      {"moe_token_", "the token dispatcher"},
      {"fp8_", "an FP8 detail"},
      {"hf_model", "where the weights come from"},
      {"transformer_impl", "the kernels' library"},
      {"attention_backend", "the attention kernel"},
      {"activation_func", "the MLP's nonlinearity: the same FLOPs"},
      {"cross_entropy", "the loss kernel"},
      {"deallocate_pipeline_outputs", "a memory detail"},
      {"parallel_output", "the output layer's layout"},
      {"scatter_embedding", "the embedding's layout"},
      {"persist_layer_norm", "a kernel choice"},
      {"autocast", "a numerics detail"},
      {"deterministic", "determinism"},
      {"use_cpu_initialization", "initialisation"},
      {"perform_initialization", "initialisation"},
      {"use_te_rng_tracker", "the random-number tracker"},
      {"apply_query_key_layer_scaling", "the softmax's numerics"},
      {"qk_layernorm", "norms on queries and keys: small kernels"}};
  const std::string section = key.substr(0, key.find('.'));
  if (key.find("._target_") != std::string::npos || key.find("._call_") != std::string::npos) {
    return "the class the dump rebuilds the value as";
  }
  if (section == "model") {
    for (const auto& [word, why] : model_words) {
      if (key.find(word) != std::string::npos) return why;
    }
    return nullptr;
  }
  const auto s = sections.find(section);
  return s != sections.end() ? s->second : nullptr;
}

/// The document and its leaves' lines; each key read is marked, the rest listed at the end.
struct Doc {
  json doc, lines;
  std::map<std::string, bool> read;
  std::vector<LaunchArg> args;
  std::map<std::string, std::string> names;  ///< flag -> the YAML key it came from
  ImportedRequest& out;

  const json* get(const std::string& dotted) {
    if (!lines.contains(dotted)) return nullptr;
    read[dotted] = true;
    const json* at = &doc;
    std::size_t from = 0;
    for (std::size_t dot; (dot = dotted.find('.', from)) != std::string::npos; from = dot + 1) {
      at = &(*at)[dotted.substr(from, dot - from)];
    }
    return &(*at)[dotted.substr(from)];
  }
  std::size_t line(const std::string& dotted) const {
    return lines.contains(dotted) ? lines[dotted].get<std::size_t>() : 1;
  }
  std::string where(const std::string& dotted) const {
    return lines.contains(dotted) ? dotted + " (line " + std::to_string(line(dotted)) + ")" : dotted;
  }
  /// Adds `flag` (with `values`) as if the key `from` had given it.
  void flag(const std::string& name, const std::string& from, std::vector<std::string> values = {}) {
    LaunchArg a{name, {}, line(from), false};
    for (std::string& v : values) a.values.push_back({std::move(v), a.line, true});
    args.push_back(std::move(a));
    names[name] = from;
  }
  [[noreturn]] void bad(const std::string& dotted, const std::string& want) const {
    refuse(code::invalid_value, {where(dotted), " must be ", want}, "text");
  }
};

std::string word(const json& v) {
  if (v.is_string()) return v.get<std::string>();
  return dump_text(v);
}

/// One table key as its flag: a switch when true (or false), else the flag with the value's words.
void translate(Doc& d, const Key& k) {
  if (d.names.count(k.flag)) {  // set already: by a key read with another (precision, GQA, ...) or a twin key
    if (d.lines.contains(k.yaml) && !d.read.count(k.yaml)) {
      d.get(k.yaml);
      d.out.ignored.push_back(
          {{"key", d.where(k.yaml)}, {"why", "the setting " + d.names[k.flag] + " sets: read there"}});
    }
    return;
  }
  const json* v = d.get(k.yaml);
  if (v == nullptr || v->is_null()) return;
  if (k.kind != Kind::value) {
    if (!v->is_boolean()) d.bad(k.yaml, "true or false");
    if (v->get<bool>() == (k.kind == Kind::on)) d.flag(k.flag, k.yaml);
    return;
  }
  if (v->is_object()) d.bad(k.yaml, "one value, not a map");
  std::vector<std::string> values;
  const std::string yaml = k.yaml;
  if (v->is_array() && (yaml == "model.recompute_modules" || yaml == "train.rampup_batch_size")) {
    if (*v == json::array({"core_attn"})) return;  // TransformerConfig's default: the attention core
    for (const json& x : *v) values.push_back(word(x));
  } else if (v->is_array() && yaml != "model.moe_layer_freq") {
    d.bad(k.yaml, "one value, not a list");
  } else {
    values.push_back(word(*v));
  }
  d.flag(k.flag, k.yaml, values);
}

bool is_precision(const Key& k) {
  const std::string f = k.flag;
  return f == "--bf16" || f == "--fp16" || f == "--fp8-format" || f == "--fp8-recipe";
}

/// A named recipe of mixed_precision.py (v0.6.0), hyphens or underscores, as its fp8 format and recipe; "" when none.
bool named_recipe(Doc& d, const std::string& name) {
  std::string n = name;
  for (char& c : n) c = c == '-' ? '_' : c;
  const bool fp16 = n.rfind("fp16", 0) == 0;
  d.flag(fp16 ? "--fp16" : "--bf16", "mixed_precision");
  struct Fp8 {
    const char* suffix;
    const char* format;
    const char* recipe;
  };
  for (const Fp8& f : {Fp8{"_mixed", "", ""},
                       {"_with_fp8_delayed_scaling_mixed", "hybrid", "delayed"},
                       {"_with_mxfp8_mixed", "e4m3", "mxfp8"},
                       {"_with_fp8_current_scaling_mixed", "hybrid", "tensorwise"},
                       {"_with_fp8_subchannel_scaling_mixed", "hybrid", "blockwise"}}) {
    if (n != std::string(fp16 ? "fp16" : "bf16") + f.suffix) continue;
    if (*f.format) {
      d.flag("--fp8-format", "mixed_precision", {f.format});
      d.flag("--fp8-recipe", "mixed_precision", {f.recipe});
    }
    if (std::string(f.recipe) == "tensorwise") {
      d.out.unmapped.push_back({{"key", d.where("mixed_precision")},
                                {"why", n + " keeps the first and last layers in bf16: costed as every layer FP8"}});
    }
    return true;
  }
  return false;
}

/// mixed_precision: a recipe's name or its fields (MixedPrecisionConfig); model.bf16 / fp16 / fp8 without it.
void precision(Doc& d) {
  const json* mp = d.get("mixed_precision");
  if (mp != nullptr && mp->is_string()) {
    if (!named_recipe(d, mp->get<std::string>())) {
      d.out.unmapped.push_back({{"key", d.where("mixed_precision")},
                                {"why", "\"" + mp->get<std::string>() +
                                            "\" is not one of mixed_precision.py's general "
                                            "recipes (bf16/fp16 with fp8 delayed, current, subchannel scaling or "
                                            "mxfp8): costed as bf16"}});
    }
    return;
  }
  const bool fields = d.lines.contains("mixed_precision.bf16") || d.lines.contains("mixed_precision.fp16") ||
                      d.lines.contains("mixed_precision.fp8");
  const std::string from = fields ? "mixed_precision." : "model.";
  for (const Key& k : kKeys) {
    if (std::string(k.yaml).rfind(from, 0) == 0 && is_precision(k)) translate(d, k);
  }
  if (d.names.count("--fp8-format") && !d.names.count("--fp8-recipe")) {
    d.flag("--fp8-recipe", d.names["--fp8-format"], {"tensorwise"});  // MixedPrecisionConfig's default recipe
  }
  for (const char* k : {"mixed_precision.fp4", "model.fp4"}) {
    const json* v = d.get(k);
    if (v && !v->is_null())
      d.out.unmapped.push_back({{"key", d.where(k)}, {"why", "FP4 (NVFP4): costed as FP8 or bf16"}});
  }
  const json* first_last = d.get("mixed_precision.first_last_layers_bf16");
  if (first_last && *first_last == true) {
    d.out.unmapped.push_back({{"key", d.where("mixed_precision.first_last_layers_bf16")},
                              {"why", "the first and last layers in bf16: costed as every layer at the precision"}});
  }
  const bool said_no = d.lines.contains(from + "bf16") || d.lines.contains(from + "fp16");
  if (!d.names.count("--bf16") && !d.names.count("--fp16") && !said_no) {
    d.flag("--bf16", "mixed_precision");
    assume(d.out, "precision",
           "no mixed_precision.bf16 or fp16: the recipes' \"bf16_mixed\" (recipes/common.py _pretrain_common)");
  }
}

const json* integer_at(Doc& d, const std::string& key) {
  const json* v = d.get(key);
  return v != nullptr && v->is_number_integer() ? v : nullptr;
}

/// The keys whose flags depend on other keys: GQA, the sequence, the vocabulary's padding, the FFN's default, YaRN.
void model_specials(Doc& d) {
  const json* groups = d.get("model.num_query_groups");
  if (groups && !groups->is_null()) d.flag("--group-query-attention", "model.num_query_groups");
  const json* seq = d.get("model.seq_length");
  const json* data_seq = d.get("dataset.seq_length");
  if (seq && data_seq && *seq != *data_seq) {
    refuse(code::inconsistent,
           {d.where("model.seq_length"), " and ", d.where("dataset.seq_length"),
            " differ: Megatron-Bridge requires them equal (config.py ConfigContainer.validate)"},
           "text");
  }
  if (!seq && data_seq) d.flag("--seq-length", "dataset.seq_length", {word(*data_seq)});
  // gpt_provider.py provide(): the vocabulary is padded only when should_pad_vocab (default false).
  const json* pad = d.get("model.should_pad_vocab");
  if (pad && !pad->is_boolean() && !pad->is_null()) d.bad("model.should_pad_vocab", "true or false");
  if (!pad || *pad != true) {
    if (d.get("model.make_vocab_size_divisible_by")) {
      d.out.ignored.push_back({{"key", d.where("model.make_vocab_size_divisible_by")},
                               {"why", "read only with model.should_pad_vocab: true (gpt_provider.py provide)"}});
    }
    d.names["--make-vocab-size-divisible-by"] = "model.should_pad_vocab";  // not a flag: import_nemo's pad_vocab
  }
  const json* hidden = integer_at(d, "model.hidden_size");
  const json* ffn = d.get("model.ffn_hidden_size");
  if (hidden && (!ffn || ffn->is_null())) {
    d.flag("--ffn-hidden-size", "model.hidden_size", {std::to_string(4 * hidden->get<long long>())});
    assume(d.out, "ffn", "no model.ffn_hidden_size: TransformerConfig's default, 4 × hidden_size");
  }
  const json* position = d.get("model.position_embedding_type");
  if (position && *position == "yarn") {
    d.flag("--position-embedding-type", "model.position_embedding_type", {"rope"});
    d.out.unmapped.push_back(
        {{"key", d.where("model.position_embedding_type")}, {"why", "YaRN: costed as RoPE (the same FLOPs)"}});
  }
}

/// A recipe does not say how many GPUs (the launcher does): one data-parallel replica of the split, more if the
/// experts need them (ep·etp divides tp·cp·dp, run_json.cpp).
long long default_gpus(Doc& d) {
  auto degree = [&d](const char* key, long long fallback) {
    const json* v = d.lines.contains(key) ? integer_at(d, key) : nullptr;
    d.read.erase(key);  // read again by translate
    return v != nullptr && v->get<long long>() > 0 ? v->get<long long>() : fallback;
  };
  const long long tp = degree("model.tensor_model_parallel_size", 1),
                  pp = degree("model.pipeline_model_parallel_size", 1), cp = degree("model.context_parallel_size", 1),
                  ep = degree("model.expert_model_parallel_size", 1),
                  etp = degree("model.expert_tensor_parallel_size", tp);
  long long dp = 1;
  while (dp < 4096 && (tp * cp * dp) % (ep * etp) != 0) ++dp;
  return tp * pp * cp * dp;
}

/// `text` with each flag named by its YAML key ("--num-layers (line 3)" -> "model.num_layers (line 3)").
std::string renamed(std::string text, const Doc& d) {
  std::map<std::string, std::string> names = {{"--group-query-attention", "model.num_query_groups"}};
  for (const Key& k : kKeys) names.emplace(k.flag, k.yaml);
  for (const auto& [flag, key] : d.names) names[flag] = key;
  for (const auto& [flag, key] : names) {
    for (std::size_t at = 0; (at = text.find(flag, at)) != std::string::npos;) {
      const std::size_t end = at + flag.size();
      const bool whole =
          end == text.size() || !(std::isalnum(static_cast<unsigned char>(text[end])) || text[end] == '-');
      if (whole) text.replace(at, flag.size(), key);
      at += whole ? key.size() : flag.size();
    }
  }
  for (const auto& [from, to] :
       {std::pair{"the arguments map", "the recipe maps"}, {"the arguments give", "the recipe gives"}}) {
    for (std::size_t at; (at = text.find(from)) != std::string::npos;) text.replace(at, std::string(from).size(), to);
  }
  return text;
}

void append_renamed(json& into, const json& from, const char* name, const Doc& d) {
  for (json e : from) {
    e[name] = renamed(e[name].get<std::string>(), d);
    e["why"] = renamed(e["why"].get<std::string>(), d);
    into.push_back(std::move(e));
  }
}

/// Every leaf never read: ignored with its section's reason, else unmapped.
void finish(Doc& d) {
  for (const auto& [key, line] : d.lines.items()) {
    if (d.read.count(key)) continue;
    const bool precision_twin =
        key == "model.bf16" || key == "model.fp16" || key == "model.fp8" || key == "model.fp8_recipe";
    if (const char* why = precision_twin ? "mixed_precision's fields win (mixed_precision.py "
                                           "update_config_with_precision_overrides)"
                                         : ignored_reason(key)) {
      d.out.ignored.push_back({{"key", d.where(key)}, {"why", why}});
    } else {
      d.out.unmapped.push_back({{"key", d.where(key)},
                                {"why",
                                 "a key the importer does not read (not one of Megatron-Bridge's at v0.6.0, "
                                 "or not a cost setting)"}});
    }
  }
}

/// hardware and cluster: `base`'s, else assumed (a recipe names neither).
json base_of(Doc& d, const ImportOptions& o) {
  json base = o.base;
  if (!base.contains("hardware")) {
    base["hardware"] = "h100-sxm";
    assume(d.out, "hardware", "a recipe does not name the GPU: h100-sxm, until you give `base`");
  }
  if (!base.contains("cluster")) {
    const long long gpus = default_gpus(d);
    base["cluster"] = {{"gpus", gpus}};
    assume(d.out, "cluster.gpus",
           "a recipe does not say how many GPUs (the launcher does): " + std::to_string(gpus) +
               ", one data-parallel replica of its split, until you give base.cluster");
  }
  return base;
}

}  // namespace

ImportedRequest import_nemo(const std::string& text, const ImportOptions& o) {
  ImportedRequest out;
  Doc d{json::object(), json::object(), {}, {}, {}, out};
  d.doc = read_yaml(text, &d.lines);
  if (!d.doc.is_object()) {
    refuse(code::wrong_type, {"a recipe YAML holds one map of sections (model, train, ddp, ...)"}, "text");
  }
  const json base = base_of(d, o);
  precision(d);
  model_specials(d);
  for (const Key& k : kKeys) {
    if (!is_precision(k)) translate(d, k);
  }
  finish(d);
  LaunchLine launch;
  launch.args = d.args;
  ImportedRequest m;
  try {
    const json* pad = d.get("model.should_pad_vocab");
    m = import_megatron_launch(launch, {base, true, o.seq, o.vocab, pad != nullptr && *pad == true});
  } catch (const RequestError& e) {
    throw RequestError(e.code, renamed(e.message, d), e.field);
  }
  append_renamed(out.unmapped, m.unmapped, "key", d);
  append_renamed(out.ignored, m.ignored, "key", d);
  append_renamed(out.assumed, m.assumed, "field", d);
  out.request = std::move(m.request);
  return out;
}

std::string nemo_key_of_flag(const std::string& flag) {
  for (const Key& k : kKeys) {
    if (flag == k.flag) return k.yaml;
  }
  return "";
}

}  // namespace parascope::detail
