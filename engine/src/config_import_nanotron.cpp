// nanotron config (YAML) -> a step request (config_import_formats.hpp). Keys and defaults as nanotron's
// config/config.py, config/parallelism_config.py and config/models_config.py define them at 2411b02
// (huggingface/nanotron); its examples/config_tiny_llama.yaml is the test's fixture.
#include <cctype>
#include <map>
#include <string>
#include <utility>

#include "config_doc.hpp"
#include "config_import_formats.hpp"
#include "request_reader.hpp"
#include "yaml_reader.hpp"

namespace parascope::detail {

namespace {

using nlohmann::json;

/// Keys read for nothing, by section (all of its keys) or by key; each with its reason.
const char* ignored_reason(const std::string& key) {
  static const std::map<std::string, const char*> sections = {
      {"general", "the run's name, seed and bookkeeping"},
      {"checkpoints", "checkpointing: not part of a training step"},
      {"data_stages", "the data"},
      {"logging", "logging"},
      {"metrics_logging", "logging"},
      {"profiler", "profiling"},
      {"tokenizer", "the tokenizer"},
      {"lighteval", "evaluation"},
      {"s3_upload", "where checkpoints are uploaded"},
      {"kill_switch_path", "a file that stops the run"}};
  static const std::map<std::string, const char*> keys = {
      {"model.init_method.std", "the weights' initialisation"},
      {"model.init_method.path", "the weights' initialisation"},
      {"model.init_method.use_mup", "the weights' initialisation"},
      {"model.ddp_bucket_cap_mb", "DDP's bucket size: the same bytes reduced per step"},
      {"model.model_config.bos_token_id", "a token id"},
      {"model.model_config.eos_token_id", "a token id"},
      {"model.model_config.pad_token_id", "a token id"},
      {"model.model_config.initializer_range", "the weights' initialisation"},
      {"model.model_config.is_llama_config", "read as the model's family (a Llama: RMSNorm, rotary, SwiGLU)"},
      {"model.model_config.max_position_embeddings", "the rotary table's length; the run's is tokens.sequence_length"},
      {"model.model_config.pretraining_tp", "a Hugging Face conversion setting"},
      {"model.model_config.rms_norm_eps", "a numerical constant"},
      {"model.model_config.rope_theta", "the rotary base: the same FLOPs"},
      {"model.model_config.rope_scaling", "the rotary scaling: the same FLOPs"},
      {"model.model_config.rope_interleaved", "the rotary layout: the same FLOPs"},
      {"model.model_config.use_cache", "inference's KV cache"},
      {"model.model_config._attn_implementation", "the attention kernel: the stack's FlashAttention-2"},
      {"model.model_config.z_loss_enabled", "a regularisation term: a few small kernels"},
      {"model.model_config.z_loss_coefficient", "a regularisation term: a few small kernels"},
      {"optimizer.clip_grad", "gradient clipping: a few small kernels"},
      {"optimizer.weight_decay", "the optimiser's hyperparameters (the engine costs AdamW's states)"},
      {"optimizer.learning_rate_scheduler", "the learning-rate schedule"},
      {"optimizer.optimizer_factory", "the optimiser's hyperparameters (the engine costs AdamW's states)"},
      {"optimizer.accumulate_grad_in_fp32", "read as the stack: nanotron's fp32 accumulation buffers"},
      {"tokens.train_steps", "the engine costs one step"},
      {"tokens.val_check_interval", "validation"},
      {"tokens.limit_val_batches", "validation"},
      {"tokens.limit_test_batches", "testing"}};
  const auto k = keys.find(key);
  if (k != keys.end()) return k->second;
  for (const auto& [prefix, why] : keys) {
    if (key.rfind(prefix + ".", 0) == 0) return why;
  }
  const auto s = sections.find(key.substr(0, key.find('.')));
  return s != sections.end() ? s->second : nullptr;
}

/// model.model_config: a Llama or Qwen2 shape (nanotron's LlamaConfig, Qwen2Config), the sequence from tokens.
json model(ConfigDoc& d) {
  const std::string c = "model.model_config.";
  const long long heads = d.integer(c + "num_attention_heads", 32, 1);
  json m = {{"layers", d.integer(c + "num_hidden_layers", 32, 1)},
            {"hidden", d.integer(c + "hidden_size", 4096, 1)},
            {"heads", heads},
            {"ffn", d.integer(c + "intermediate_size", 11008, 1)},
            {"vocab", d.integer(c + "vocab_size", 32000, 1)},
            {"seq", d.integer("tokens.sequence_length", 2048, 1)},
            {"norm", "rmsnorm"},
            {"position_embedding", "rope"},
            {"bias", d.flag(c + "attention_bias", false)},
            {"tied_embeddings", d.flag(c + "tie_word_embeddings", false)}};
  const long long kv = d.integer(c + "num_key_value_heads", heads, 1);
  if (kv != heads) m["kv_heads"] = kv;
  // LlamaMLP is gated (gate_up_proj, then act(gate) * up): SwiGLU with silu, GeGLU with gelu.
  m["activation"] = "swiglu";
  const std::string act = d.text(c + "hidden_act", "silu");
  if (act != "silu") d.unmap(c + "hidden_act", act + " in a gated MLP: costed as SwiGLU (the same GEMMs)");
  // The vocabulary padded to a multiple of make_vocab_size_divisible_by × tp (helpers.py, _vocab_size_with_padding).
  const long long divisible = d.integer("model.make_vocab_size_divisible_by", 1, 1);
  const long long tp = d.integer("parallelism.tp", 1, 1);
  const long long unit = divisible * tp;
  m["vocab"] = (m["vocab"].get<long long>() + unit - 1) / unit * unit;
  if (d.get(c + "moe_config") != nullptr) {
    d.unmap(c + "moe_config", "nanotron's MoE block: costed as the dense model");
  }
  return m;
}

/// parallelism and tokens: the split, the batch, the pipeline engine, sequence parallelism (and its linears'
/// communication, into `efficiency`) and recomputation.
json parallel(ConfigDoc& d, json& cluster, json& efficiency) {
  const long long dp = d.integer("parallelism.dp", 1, 1), tp = d.integer("parallelism.tp", 1, 1),
                  pp = d.integer("parallelism.pp", 1, 1), cp = d.integer("parallelism.context_parallel_size", 1, 1),
                  ep = d.integer("parallelism.expert_parallel_size", 1, 1);
  cluster["gpus"] = dp * tp * pp * cp;
  const long long mbs = d.integer("tokens.micro_batch_size", 1, 1);
  const long long accumulation = d.integer("tokens.batch_accumulation_per_replica", 1, 1);
  json p = {{"dp", dp}, {"microbatch_size", mbs}, {"global_batch", dp * mbs * accumulation}};
  for (const auto& [key, v] : {std::pair{"tp", tp}, {"pp", pp}, {"cp", cp}}) {
    if (v > 1) p[key] = v;
  }
  if (ep > 1) d.unmap("parallelism.expert_parallel_size", "experts: nanotron's MoE is costed as the dense model");
  // pp_engine: "1f1b" (OneForwardOneBackwardPipelineEngine) or "afab" (all forward, all backward: GPipe); nanotron's
  // default when absent is AFAB (ParallelismArgs.__post_init__).
  const std::string engine = d.text("parallelism.pp_engine", "afab");
  if (engine != "1f1b" && engine != "afab") d.bad("parallelism.pp_engine", "\"1f1b\" or \"afab\"");
  if (pp > 1) p["schedule"] = engine == "1f1b" ? "1f1b" : "gpipe";
  // tp_mode REDUCE_SCATTER is sequence parallelism; ALL_REDUCE (the default) is not.
  std::string mode = d.text("parallelism.tp_mode", "ALL_REDUCE");
  for (char& ch : mode) ch = char(std::toupper(static_cast<unsigned char>(ch)));
  if (mode != "ALL_REDUCE" && mode != "REDUCE_SCATTER") d.bad("parallelism.tp_mode", "ALL_REDUCE or REDUCE_SCATTER");
  if (tp > 1 && mode == "REDUCE_SCATTER") p["sequence_parallel"] = true;
  // tp_linear_async_communication (default false): TensorParallelRowLinear refuses it in ALL_REDUCE mode
  // (parallel/tensor_parallel/nn.py). tp_recompute_allgather (default true): the backward re-gathers each
  // column-parallel GEMM's input; false keeps the gathered input instead (Efficiency, cost_types.hpp).
  const bool async = d.flag("parallelism.tp_linear_async_communication", false);
  if (async && mode == "ALL_REDUCE")
    d.bad("parallelism.tp_linear_async_communication",
          "false with tp_mode ALL_REDUCE (nanotron runs it only in REDUCE_SCATTER mode)");
  if (tp > 1 && async) efficiency["tp_async_shards"] = true;
  if (!d.flag("parallelism.tp_recompute_allgather", true) && tp > 1 && mode == "REDUCE_SCATTER") {
    efficiency["tp_backward_allgather"] = false;
    d.unmap("parallelism.tp_recompute_allgather",
            "false: no re-gather is costed, but the gathered inputs it keeps (tp times the sharded bytes) are not");
  }
  if (d.flag("parallelism.recompute_layer", false)) p["recompute"] = "full";
  const long long zero = d.integer("optimizer.zero_stage", 0, 0);
  if (zero > 1) d.bad("optimizer.zero_stage", "0 or 1 (nanotron shards the optimizer's states only)");
  if (zero == 1) p["zero"] = 1;
  return p;
}

}  // namespace

ImportedRequest import_nanotron(const std::string& text, const ImportOptions& o) {
  ImportedRequest out;
  json lines;
  json doc = read_yaml(text, &lines);
  if (!doc.is_object()) refuse(code::invalid_value, {"a nanotron config is a YAML map of sections"}, "text");
  ConfigDoc d(std::move(doc), std::move(lines), out);
  json r = o.base;
  r["op"] = "step";
  if (!r.contains("hardware")) {
    r["hardware"] = "h100-sxm";
    assume(out, "hardware", "a nanotron config does not name the GPU: h100-sxm, until you give `base`");
  }
  r["model"] = model(d);
  json cluster = o.base.value("cluster", json::object());
  json efficiency = o.base.value("efficiency", json::object());
  r["parallel"] = parallel(d, cluster, efficiency);
  r["cluster"] = cluster;
  if (!efficiency.empty()) r["efficiency"] = efficiency;
  const std::string dtype = d.text("model.dtype", "bfloat16");
  if (dtype != "bfloat16") d.unmap("model.dtype", dtype + ": costed as bf16");
  r["software"] = "nanotron";
  d.finish(ignored_reason,
           "a key the importer does not read (not one of nanotron's at 2411b02, or not a cost setting)");
  check_imported(r, "the config");
  out.request = std::move(r);
  return out;
}

}  // namespace parascope::detail
