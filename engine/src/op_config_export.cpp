// The "config_export" op: a step request as the settings to launch it with — Megatron-LM's arguments (flags as
// megatron/training/arguments.py defines them at core_v0.14.0) and the torchrun line, or another format's file — with a
// note for every part of the configuration the target cannot express (engine/API.md, "config_export").
#include <string>
#include <vector>

#include "config_export_formats.hpp"
#include "json_out.hpp"
#include "names.hpp"
#include "ops.hpp"
#include "parascope/schedule.hpp"
#include "step_json.hpp"

namespace parascope::detail {

namespace {

struct Launch {
  std::vector<std::string> args;
  json notes = json::array();  ///< {setting, why}
  void flag(const std::string& name) { args.push_back(name); }
  void value(const std::string& name, long long v) { args.push_back(name + " " + std::to_string(v)); }
  void value(const std::string& name, const std::string& v) { args.push_back(name + " " + v); }
  void note(const std::string& setting, const std::string& why) {
    notes.push_back({{"setting", setting}, {"why", why}});
  }
};

/// Megatron's --moe-layer-freq as a Python list of 0/1 per layer, where the pattern is not every layer MoE.
std::string moe_pattern(const ModelShape& m) {
  std::string out = "[";
  for (std::int64_t i = 0; i < m.layers; ++i) out += std::string(i ? "," : "") + (m.is_moe_layer(i) ? "1" : "0");
  return out + "]";
}

void model_args(const ModelShape& m, Launch& l) {
  l.value("--num-layers", m.layers);
  l.value("--hidden-size", m.hidden);
  l.value("--ffn-hidden-size", m.ffn);
  l.value("--num-attention-heads", m.heads);
  if (m.kv_heads < m.heads) {
    l.flag("--group-query-attention");
    l.value("--num-query-groups", m.kv_heads);
  }
  if (!m.is_mla() && m.head_dim * m.heads != m.hidden) l.value("--kv-channels", m.head_dim);
  l.value("--seq-length", m.seq);
  l.value("--max-position-embeddings", m.seq);
  // Megatron pads the vocabulary to a multiple of 128 × tp by default; 1 keeps it exact where tp divides it.
  l.value("--vocab-size", m.vocab);
  l.value("--make-vocab-size-divisible-by", 1);
  if (m.activation == Activation::swiglu) l.flag("--swiglu");
  l.value("--normalization", m.norm == Norm::rmsnorm ? "RMSNorm" : "LayerNorm");
  const char* position = m.position_embedding == PositionEmbedding::rope      ? "rope"
                         : m.position_embedding == PositionEmbedding::learned ? "learned_absolute"
                                                                              : "none";
  l.value("--position-embedding-type", position);
  if (!m.tied_embeddings) l.flag("--untie-embeddings-and-output-weights");
  if (!m.bias) {
    // The engine counts dropout with biases (GPT-style models); Megatron's defaults are 0.1 each.
    l.flag("--disable-bias-linear");
    l.value("--attention-dropout", "0");
    l.value("--hidden-dropout", "0");
  }
}

/// Megatron pads the vocabulary to a multiple of --make-vocab-size-divisible-by × tp (tokenizer.py
/// _vocab_size_with_padding at core_v0.14.0): exact only when tp divides it.
void vocab_note(const ModelShape& m, const ParallelConfig& p, Launch& l) {
  if (m.vocab % p.tp == 0) return;
  l.note("vocab", std::to_string(m.vocab) + " tokens: Megatron pads them to a multiple of tp = " +
                      std::to_string(p.tp) + ", " + std::to_string((m.vocab + p.tp - 1) / p.tp * p.tp));
}

void expert_args(const ModelShape& m, const ParallelConfig& p, Launch& l) {
  if (m.is_moe()) {
    l.value("--num-experts", m.experts);
    l.value("--moe-router-topk", m.top_k);
    l.value("--moe-ffn-hidden-size", m.expert_ffn);
    l.flag("--moe-grouped-gemm");
    if (m.shared_experts > 0) l.value("--moe-shared-expert-intermediate-size", m.shared_experts * m.expert_ffn);
    if (m.moe_layers() < m.layers) l.value("--moe-layer-freq", "\"" + moe_pattern(m) + "\"");
    l.value("--expert-model-parallel-size", p.ep);
    if (p.etp > 0) l.value("--expert-tensor-parallel-size", p.etp);
  }
  if (m.is_mla()) {
    l.flag("--multi-latent-attention");
    l.value("--kv-lora-rank", m.kv_lora_rank);
    if (m.q_lora_rank > 0) l.value("--q-lora-rank", m.q_lora_rank);
    l.value("--qk-head-dim", m.head_dim);
    l.value("--qk-pos-emb-head-dim", m.rope_head_dim);
    l.value("--v-head-dim", m.head_dim);
  }
}

void parallel_args(const ParallelConfig& p, Launch& l) {
  l.value("--tensor-model-parallel-size", p.tp);
  l.value("--pipeline-model-parallel-size", p.pp);
  if (p.vpp > 1) l.value("--num-virtual-stages-per-pipeline-rank", p.vpp);
  if (p.cp > 1) l.value("--context-parallel-size", p.cp);
  if (p.first_stage_layers > 0) l.value("--decoder-first-pipeline-num-layers", p.first_stage_layers);
  if (p.last_stage_layers > 0) l.value("--decoder-last-pipeline-num-layers", p.last_stage_layers);
  if (p.embedding_in_split) l.flag("--account-for-embedding-in-pipeline-split");
  if (p.loss_in_split) l.flag("--account-for-loss-in-pipeline-split");
  l.value("--micro-batch-size", p.microbatch_size);
  l.value("--global-batch-size", p.global_batch);
  if (p.sequence_parallel && p.tp > 1) l.flag("--sequence-parallel");
  if (p.schedule != Schedule::one_f_one_b && p.schedule != Schedule::interleaved) {
    l.note("schedule", std::string(schedule_id(p.schedule)) +
                           ": Megatron-LM has no flag for it at core_v0.14.0 (it "
                           "runs 1F1B, interleaved when vpp > 1)");
  }
}

void memory_args(const ParallelConfig& p, Launch& l) {
  if (p.recompute == Recompute::full) {
    l.value("--recompute-granularity", "full");
    l.value("--recompute-method", "uniform");
    l.value("--recompute-num-layers", 1);
  } else if (p.recompute == Recompute::selective) {
    l.value("--recompute-granularity", "selective");
  } else if (p.recompute == Recompute::op) {
    l.note("recompute",
           "op: torchtitan's per-op policy; Megatron's closest is --recompute-granularity selective "
           "with --recompute-modules");
  }
  if (p.zero == 1) {
    l.flag("--use-distributed-optimizer");
    l.flag("--overlap-param-gather");
  } else if (p.zero >= 2) {
    l.flag("--use-megatron-fsdp");
    l.value("--data-parallel-sharding-strategy", p.zero == 2 ? "optim_grads" : "optim_grads_params");
  }
}

/// Megatron-LM's `--fp8-recipe` value for a recipe (megatron/training/arguments.py: tensorwise, delayed, mxfp8, ...).
const char* megatron_fp8_recipe(Fp8Recipe r) {
  switch (r) {
    case Fp8Recipe::delayed:
      return "delayed";
    case Fp8Recipe::mxfp8:
      return "mxfp8";
    case Fp8Recipe::current:
      break;
  }
  return "tensorwise";
}

void numeric_args(const StepRequest& s, Launch& l) {
  l.flag("--bf16");
  if (s.efficiency.precision == Precision::fp8) {
    l.value("--fp8-format", "hybrid");
    l.value("--fp8-recipe", megatron_fp8_recipe(s.efficiency.fp8_recipe));
  }
  if (s.efficiency.dp_overlap && s.run.parallel.dp * s.run.parallel.cp > 1) l.flag("--overlap-grad-reduce");
  if (s.efficiency.tp_comm_overlap && s.run.parallel.tp > 1) l.flag("--tp-comm-overlap");
  if (s.software != "megatron-core") {
    l.note("software", "the engine costed \"" + s.software + "\"; Megatron-Core's kernels and overlaps are its own");
  }
}

std::string joined(const std::vector<std::string>& parts, const char* between) {
  std::string out;
  for (std::size_t i = 0; i < parts.size(); ++i) out += (i ? between : "") + parts[i];
  return out;
}

}  // namespace

MegatronArgs megatron_args(const StepRequest& s) {
  Launch l;
  model_args(s.run.model, l);
  vocab_note(s.run.model, s.run.parallel, l);
  expert_args(s.run.model, s.run.parallel, l);
  parallel_args(s.run.parallel, l);
  memory_args(s.run.parallel, l);
  numeric_args(s, l);
  return {l.args, l.notes};
}

json op_config_export(RequestReader& request) {
  const std::string format = request.choice("format", {"megatron", "nemo", "torchtitan", "deepspeed", "nanotron"});
  RequestReader step = request.object("request");
  step.accept("op");
  const StepRequest s = read_step_request(step);
  step.finish();
  request.finish();
  try {
    check(s);  // step's own rules: a run step refuses has no launch settings
  } catch (const RequestError& e) {
    throw RequestError(e.code, e.message, e.field.empty() ? "request" : "request." + e.field);
  }
  if (format != "megatron") {
    json tt = format == "torchtitan" ? export_torchtitan(s)
              : format == "nemo"     ? export_nemo(s)
              : format == "nanotron" ? export_nanotron(s)
                                     : export_deepspeed(s);
    json out;
    put(out, "format", format);
    put(out, "text", tt["text"].get<std::string>());
    put(out, "notes", std::move(tt["notes"]));
    return out;
  }

  const MegatronArgs l = megatron_args(s);
  const std::int64_t per_node = s.run.cluster.gpus_per_node;
  const std::int64_t nodes = (s.run.cluster.gpus + per_node - 1) / per_node;
  const std::string torchrun = "torchrun --nproc-per-node " + std::to_string(std::min(per_node, s.run.cluster.gpus)) +
                               " --nnodes " + std::to_string(nodes) + " pretrain_gpt.py";
  json out;
  put(out, "format", format);
  put(out, "text", torchrun + " \\\n  " + joined(l.args, " \\\n  ") + "\n");
  json& args = put_array(out, "args");
  for (const std::string& a : l.args) args.push_back(a);
  put(out, "notes", l.notes);
  return out;
}

}  // namespace parascope::detail
