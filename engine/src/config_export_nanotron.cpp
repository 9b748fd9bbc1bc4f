// A step request as a nanotron config YAML (config_export_formats.hpp): sections and keys as nanotron's
// config/config.py, parallelism_config.py and models_config.py define them at 2411b02 (huggingface/nanotron), the
// inverse of config_import_nanotron.cpp.
#include <algorithm>
#include <string>

#include "config_export_formats.hpp"
#include "parascope/schedule.hpp"

namespace parascope::detail {

namespace {

using nlohmann::json;

struct Yaml {
  std::string text;
  json notes = json::array();
  int depth = 0;
  void section(const std::string& name) {
    text += std::string(2 * depth, ' ') + name + ":\n";
    ++depth;
  }
  void end() { --depth; }
  void value(const std::string& key, const std::string& v) {
    text += std::string(2 * depth, ' ') + key + ": " + v + "\n";
  }
  void num(const std::string& key, long long v) { value(key, std::to_string(v)); }
  void flag(const std::string& key, bool v) { value(key, v ? "true" : "false"); }
  void note(const std::string& setting, const std::string& why) {
    notes.push_back({{"setting", setting}, {"why", why}});
  }
};

/// What nanotron's Llama (LlamaConfig: RMSNorm, rotary, a gated MLP, heads of hidden / heads) cannot say of `m`.
void shape_notes(const ModelShape& m, Yaml& y) {
  if (m.norm != Norm::rmsnorm) y.note("model.norm", "nanotron's Llama normalises with RMSNorm");
  if (m.position_embedding != PositionEmbedding::rope)
    y.note("model.position_embedding", "nanotron's Llama encodes positions with rotary embeddings");
  if (m.activation != Activation::swiglu) y.note("model.activation", "nanotron's Llama MLP is gated SiLU (SwiGLU)");
  if (m.bias) y.note("model.bias", "written as attention_bias (q, k, v and o); nanotron's MLP has no biases");
  if (m.head_dim > 0 && m.head_dim * m.heads != m.hidden)
    y.note("model.head_dim", "nanotron's heads are hidden_size / num_attention_heads wide");
  if (m.is_moe()) y.note("model.experts", "written as the dense Llama: nanotron's MoE block has its own config");
  if (m.is_mla()) y.note("model.kv_lora_rank", "multi-head latent attention: nanotron's Llama has none");
}

void model_section(const StepRequest& s, Yaml& y) {
  const ModelShape& m = s.run.model;
  y.section("model");
  y.num("ddp_bucket_cap_mb", 25);
  y.value("dtype", "bfloat16");
  y.section("init_method");
  y.value("std", "0.02");
  y.end();
  // The vocabulary as given; nanotron still pads it to a multiple of tp (helpers.py, _vocab_size_with_padding).
  y.num("make_vocab_size_divisible_by", 1);
  y.section("model_config");
  y.flag("attention_bias", m.bias);
  y.value("hidden_act", "silu");
  y.num("hidden_size", m.hidden);
  y.num("intermediate_size", m.ffn);
  y.flag("is_llama_config", true);
  y.num("max_position_embeddings", m.seq);
  y.num("num_attention_heads", m.heads);
  y.num("num_hidden_layers", m.layers);
  y.num("num_key_value_heads", m.kv_heads > 0 ? m.kv_heads : m.heads);
  y.flag("tie_word_embeddings", m.tied_embeddings);
  y.num("vocab_size", m.vocab);
  y.end();
  y.end();
  shape_notes(m, y);
  const long long tp = s.run.parallel.tp;
  if (m.vocab % tp != 0) {
    y.note("model.vocab",
           "nanotron pads the vocabulary to a multiple of tp: " + std::to_string((m.vocab + tp - 1) / tp * tp));
  }
}

void optimizer_section(const StepRequest& s, Yaml& y) {
  const ParallelConfig& p = s.run.parallel;
  y.section("optimizer");
  y.flag("accumulate_grad_in_fp32", true);
  y.value("clip_grad", "1.0");
  y.section("learning_rate_scheduler");
  y.value("learning_rate", "0.0003");
  y.value("lr_decay_style", "cosine");
  y.num("lr_warmup_steps", 100);
  y.value("lr_warmup_style", "linear");
  y.value("min_decay_lr", "1.0e-05");
  y.end();
  y.section("optimizer_factory");
  y.value("adam_beta1", "0.9");
  y.value("adam_beta2", "0.95");
  y.value("adam_eps", "1.0e-08");
  y.value("name", "adamW");
  y.flag("torch_adam_is_fused", true);
  y.end();
  y.value("weight_decay", "0.01");
  y.num("zero_stage", std::min(p.zero, 1));
  y.end();
  if (p.zero > 1) y.note("zero", "nanotron shards the optimizer's states only (ZeRO 1): written as zero_stage 1");
  if (p.offload_optimizer > 0) y.note("offload_optimizer", "nanotron keeps the optimizer's states on the GPU");
}

/// parallelism: the split, the pipeline engine (1f1b or afab), sequence parallelism (tp_mode) and recomputation.
void parallel_section(const StepRequest& s, Yaml& y) {
  const ParallelConfig& p = s.run.parallel;
  y.section("parallelism");
  y.num("context_parallel_size", p.cp);
  y.num("dp", p.dp);
  y.num("expert_parallel_size", 1);
  y.num("pp", p.pp);
  y.value("pp_engine", p.schedule == Schedule::gpipe ? "afab" : "1f1b");
  y.flag("recompute_layer", p.recompute == Recompute::full);
  y.num("tp", p.tp);
  const bool async = p.tp > 1 && p.sequence_parallel && s.efficiency.tp_async_shards;
  y.flag("tp_linear_async_communication", async);
  y.value("tp_mode", p.sequence_parallel ? "REDUCE_SCATTER" : "ALL_REDUCE");
  y.flag("tp_recompute_allgather", s.efficiency.tp_backward_allgather || p.tp == 1 || !p.sequence_parallel);
  y.end();
  if (p.schedule != Schedule::gpipe && p.schedule != Schedule::one_f_one_b)
    y.note("schedule", std::string(schedule_id(p.schedule)) + ": nanotron runs 1F1B or AFAB, written as 1f1b");
  if (p.vpp > 1) y.note("vpp", "nanotron's pipeline has one stage per GPU: no interleaving");
  if (p.ep > 1) y.note("ep", "expert parallelism: written as 1 with the dense Llama");
  if (p.recompute == Recompute::selective || p.recompute == Recompute::op)
    y.note("recompute", "nanotron recomputes whole layers (recompute_layer) or nothing: written as nothing");
  if (p.tp > 1 && s.efficiency.tp_comm_overlap)
    y.note("efficiency.tp_comm_overlap",
           "the engine costed TransformerEngine's pipelined TP overlap; nanotron overlaps only with "
           "tp_linear_async_communication (written when the engine costed it: efficiency.tp_async_shards)");
  if (p.tp > 1 && s.efficiency.tp_async_shards && !p.sequence_parallel)
    y.note("efficiency.tp_async_shards", "nanotron's asynchronous linears need tp_mode REDUCE_SCATTER");
  if (p.tp > 1 && p.sequence_parallel && !s.efficiency.tp_backward_allgather)
    y.note("efficiency.tp_backward_allgather",
           "written as tp_recompute_allgather: true (nanotron's default), which re-gathers in the backward");
}

void tokens_section(const StepRequest& s, Yaml& y) {
  const ParallelConfig& p = s.run.parallel;
  y.section("tokens");
  y.num("batch_accumulation_per_replica", p.global_batch / (p.dp * p.microbatch_size));
  y.num("micro_batch_size", p.microbatch_size);
  y.num("sequence_length", s.run.model.seq);
  y.num("train_steps", 1000);
  y.end();
}

}  // namespace

json export_nanotron(const StepRequest& s) {
  Yaml y;
  const std::int64_t per_node = std::min(s.run.cluster.gpus_per_node, s.run.cluster.gpus);
  const std::int64_t nodes = (s.run.cluster.gpus + per_node - 1) / per_node;
  y.text =
      "# nanotron config (keys as nanotron's config/config.py defines them at 2411b02)\n"
      "# launch on " +
      std::to_string(s.run.cluster.gpus) + " GPUs: torchrun --nproc-per-node " + std::to_string(per_node) +
      " --nnodes " + std::to_string(nodes) + " run_train.py --config-file <this file>\n" +
      (s.run.parallel.tp > 1 ? "# with CUDA_DEVICE_MAX_CONNECTIONS=1 (nanotron's tensor-parallel linears assert it)\n"
                             : "") +
      "# add your tokenizer, data_stages and checkpoints sections; the learning-rate schedule and train_steps are\n"
      "# placeholders (the engine costs one step, not the schedule)\n";
  y.section("general");
  y.value("project", "parascope");
  y.num("seed", 42);
  y.end();
  model_section(s, y);
  optimizer_section(s, y);
  parallel_section(s, y);
  tokens_section(s, y);
  if (s.efficiency.precision == Precision::fp8) y.note("precision", "written as bfloat16, nanotron's dtype here");
  if (s.software != "nanotron")
    y.note("software", "the engine costed \"" + s.software + "\"; nanotron runs its own stack");
  return {{"text", y.text}, {"notes", y.notes}};
}

}  // namespace parascope::detail
