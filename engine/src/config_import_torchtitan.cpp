// torchtitan job config (TOML) -> a step request (config_import_formats.hpp). Keys and defaults as
// torchtitan/config_manager.py defines them at 820504e (pytorch/torchtitan); the llama3 flavors as
// torchtitan/models/llama3/__init__.py defines them there (8B, 70B, 405B: the engine's presets of those models).
#include <map>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "config_doc.hpp"
#include "config_import_formats.hpp"
#include "json_text.hpp"
#include "request_reader.hpp"
#include "spec_json.hpp"
#include "step_json.hpp"
#include "toml_reader.hpp"

namespace parascope::detail {

namespace {

using nlohmann::json;

/// Keys read for nothing, by table (all of a table's keys) or by key; each with its reason.
const char* ignored_reason(const std::string& key) {
  static const std::map<std::string, const char*> tables = {
      {"job", "where the job writes its outputs"},
      {"profiling", "profiling"},
      {"metrics", "logging"},
      {"optimizer", "the optimiser's hyperparameters (the engine costs AdamW's states)"},
      {"lr_scheduler", "the learning-rate schedule"},
      {"checkpoint", "checkpointing: not part of a training step"},
      {"comm", "timeouts and trace buffers"},
      {"memory_estimation", "torchtitan's own memory estimator"},
      {"experimental", "custom imports"}};
  static const std::map<std::string, const char*> keys = {
      {"model.tokenizer_path", "the tokenizer's file"},
      {"model.print_after_conversion", "logging"},
      {"training.dataset", "the data"},
      {"training.dataset_path", "the data"},
      {"training.max_norm", "gradient clipping: a few small kernels"},
      {"training.steps", "the engine costs one step"},
      {"training.gc_freq", "Python garbage collection"},
      {"training.gc_debug", "Python garbage collection"},
      {"training.seed", "the random seed"},
      {"training.deterministic", "determinism flags"},
      {"training.mixed_precision_reduce", "FSDP's gradient reduction type (float32, the only one torchtitan takes)"},
      {"parallelism.disable_loss_parallel", "the loss's layout over TP: the same FLOPs"},
      {"parallelism.enable_compiled_autograd", "a compiler switch"},
      {"parallelism.context_parallel_rotate_method", "how CP exchanges keys and values: the engine's ring"},
      {"float8.enable_fsdp_float8_all_gather", "an FP8 detail"},
      {"float8.precompute_float8_dynamic_scale_for_fsdp", "an FP8 detail"},
      {"float8.force_recompute_fp8_weight_in_bwd", "an FP8 detail"},
      {"float8.filter_fqns", "an FP8 detail"},
      {"float8.emulate", "an FP8 detail"},
      {"mx.filter_fqns", "an MX detail"}};
  const auto k = keys.find(key);
  if (k != keys.end()) return k->second;
  const auto t = tables.find(key.substr(0, key.find('.')));
  return t != tables.end() ? t->second : nullptr;
}

/// model.name + model.flavor -> an engine preset id.
std::string preset_of(ConfigDoc& d) {
  const std::string name = d.text("model.name", "llama3"), flavor = d.text("model.flavor", "debugmodel");
  for (const char* id : {"llama3-8b", "llama3-70b", "llama3-405b"}) {
    if (name == "llama3" && torchtitan_flavor(id) == flavor) return id;
  }
  return "";
}

/// The model, as its preset with the config's seq_len.
json model(ConfigDoc& d, const ImportOptions& o) {
  const std::string id = preset_of(d);
  const long long seq = d.integer("training.seq_len", 2048, 1);
  if (id.empty()) {
    d.unmap("model.flavor", "no engine preset has this model's shape (llama3 8B, 70B, 405B do)");
    if (!o.base.contains("model")) {
      refuse(code::invalid_value, {"model.name / model.flavor name no model the engine has: give base.model"}, "text");
    }
    return o.base["model"];
  }
  const json wrapped = {{"model", id}};  // the reader keeps a reference: a named object
  RequestReader reader(wrapped, "");
  json m = model_to_json(resolve_model(reader, "model"));
  m["seq"] = seq;
  for (const char* k : {"id", "name", "source", "published_params", "derived"}) m.erase(k);
  return m;
}

/// FSDP and replication: torchtitan's data-parallel degrees (-1 shard: every rank the other degrees leave).
void data_parallel(ConfigDoc& d, long long model_parallel, json& cluster, json& p, ImportedRequest& out) {
  const long long replicate = d.integer("parallelism.data_parallel_replicate_degree", 1, 1);
  long long shard = d.integer("parallelism.data_parallel_shard_degree", -1, -1);
  if (shard == 0) d.bad("parallelism.data_parallel_shard_degree", "-1 or a whole number ≥ 1");
  if (shard == -1) {
    if (!cluster.contains("gpus")) {
      cluster["gpus"] = 8;
      assume(out, "cluster.gpus",
             "data_parallel_shard_degree -1 takes every GPU of the job, which the TOML does "
             "not say (torchrun does): 8, until you give base.cluster");
    }
    const long long gpus = cluster["gpus"].get<long long>();
    shard = gpus % (model_parallel * replicate) == 0 ? gpus / (model_parallel * replicate) : 1;
  } else {
    cluster["gpus"] = shard * replicate * model_parallel;
  }
  if (shard > 1) p["zero"] = 3;  // FSDP2: parameters, gradients and optimizer states sharded
  if (shard > 1 && replicate > 1) {
    d.unmap("parallelism.data_parallel_replicate_degree",
            "HSDP (replicas of shard groups): the engine shards over every data-parallel rank");
  }
  const std::string reshard = d.text("parallelism.fsdp_reshard_after_forward", "default");
  if (reshard == "always" || reshard == "never") {
    if (shard > 1) p["reshard_after_forward"] = reshard == "always";
  } else if (reshard != "default") {
    d.bad("parallelism.fsdp_reshard_after_forward", "\"default\", \"always\" or \"never\"");
  }
}

void pipeline(ConfigDoc& d, long long pp, long long layers, json& p) {
  const std::string schedule = d.text("parallelism.pipeline_parallel_schedule", "1F1B");
  const long long per_stage = d.integer("parallelism.pipeline_parallel_layers_per_stage", 0, 1);
  if (pp == 1) return;
  if (schedule == "GPipe") p["schedule"] = "gpipe";
  if (schedule == "Interleaved1F1B") {
    if (per_stage > 0 && layers % (pp * per_stage) == 0 && layers / (pp * per_stage) > 1) {
      p["vpp"] = layers / (pp * per_stage);
    } else {
      d.unmap("parallelism.pipeline_parallel_schedule",
              "Interleaved1F1B without pipeline_parallel_layers_per_stage dividing the layers: costed as 1F1B");
    }
  } else if (schedule != "1F1B" && schedule != "GPipe") {
    d.unmap("parallelism.pipeline_parallel_schedule", schedule + ": costed as 1F1B");
  }
  for (const char* k : {"parallelism.pipeline_parallel_split_points", "parallelism.pipeline_parallel_schedule_csv"}) {
    const json* v = d.get(k);
    if (v && !v->empty() && *v != "") d.unmap(k, "hand-placed stages: the engine balances layers over stages");
  }
}

/// torchtitan's activation checkpointing: none, full, selective per op ("op") or every k-th layer (an integer).
void recompute(ConfigDoc& d, json& p) {
  const std::string mode = d.text("activation_checkpoint.mode", "selective");
  const std::string option = d.text("activation_checkpoint.selective_ac_option", "2");
  if (mode == "none" || mode == "full") {
    p["recompute"] = mode;
  } else if (mode != "selective") {
    d.bad("activation_checkpoint.mode", "\"none\", \"selective\" or \"full\"");
  } else if (option == "op") {
    p["recompute"] = "op";
  } else {
    p["recompute"] = "full";
    if (option != "1") {
      d.unmap("activation_checkpoint.selective_ac_option",
              "every " + option + "-th layer recomputed: costed as every layer (full)");
    }
  }
}

void precision(ConfigDoc& d, json& r) {
  const json* converters = d.get("model.converters");
  for (const json& c : converters ? *converters : json::array()) {
    if (c == "float8") {
      r["precision"] = "fp8";
      const std::string recipe = d.text("float8.recipe_name", "tensorwise");
      if (recipe != "tensorwise") d.unmap("float8.recipe_name", recipe + " scaling: costed as tensorwise");
    } else if (c == "mx") {
      r["precision"] = "fp8";
      r["fp8_recipe"] = "mxfp8";
      d.text("mx.recipe_name", "mxfp8");
    } else {
      d.unmap("model.converters", "the converter " + dump_text(c) + " is not one the engine costs");
    }
  }
  if (d.text("training.mixed_precision_param", "bfloat16") != "bfloat16") {
    d.unmap("training.mixed_precision_param", "float32 parameters: costed as bf16");
  }
  if (d.flag("training.enable_cpu_offload", false)) {
    d.unmap("training.enable_cpu_offload", "FSDP's CPU offload: not modelled, costed on the GPU");
  }
  r["software"] = d.flag("training.compile", false) ? "pytorch-compile" : "pytorch";
}

}  // namespace

std::string torchtitan_flavor(const std::string& preset_id) {
  return preset_id == "llama3-8b" ? "8B" : preset_id == "llama3-70b" ? "70B" : preset_id == "llama3-405b" ? "405B" : "";
}

ImportedRequest import_torchtitan(const std::string& text, const ImportOptions& o) {
  ImportedRequest out;
  json lines;
  json doc = read_toml(text, &lines);
  ConfigDoc d(std::move(doc), std::move(lines), out);
  json r = o.base;
  r["op"] = "step";
  if (!r.contains("hardware")) {
    r["hardware"] = "h100-sxm";
    assume(out, "hardware", "a torchtitan config does not name the GPU: h100-sxm, until you give `base`");
  }
  r["model"] = model(d, o);
  json p = o.base.value("parallel", json::object());
  const long long tp = d.integer("parallelism.tensor_parallel_degree", 1, 1),
                  pp = d.integer("parallelism.pipeline_parallel_degree", 1, 1),
                  cp = d.integer("parallelism.context_parallel_degree", 1, 1);
  for (const auto& [key, v] : {std::pair{"tp", tp}, {"pp", pp}, {"cp", cp}}) {
    if (v > 1) p[key] = v;
  }
  json cluster = o.base.value("cluster", json::object());
  data_parallel(d, tp * pp * cp, cluster, p, out);
  r["cluster"] = cluster;
  const long long dp = cluster["gpus"].get<long long>() / (tp * pp * cp);
  const long long local = d.integer("training.local_batch_size", 8, 1);
  const long long global = d.integer("training.global_batch_size", -1, -1);
  // Without a pipeline the local batch is one microbatch (more with gradient accumulation); with one, the local
  // batch is split into pipeline_parallel_microbatch_size microbatches.
  p["microbatch_size"] = pp > 1 ? d.integer("parallelism.pipeline_parallel_microbatch_size", 1, 1) : local;
  p["global_batch"] = global > 0 ? global : local * dp;
  pipeline(d, pp, r["model"].value("layers", 1LL), p);
  recompute(d, p);
  r["parallel"] = p;
  precision(d, r);
  // torchtitan's Llama keeps wq, wk, wv and w1, w3 as separate nn.Linear layers (torchtitan/models/llama3/model.py
  // at 820504e: Attention.__init__, FeedForward.__init__), each its own GEMM.
  r["efficiency"] = {{"split_projections", true}};
  if (tp > 1) {
    // torchtitan's TP is sequence parallel (parallelize_llama: SequenceParallel norms); async TP overlaps its comms.
    r["parallel"]["sequence_parallel"] = true;
    r["efficiency"]["tp_comm_overlap"] = d.flag("parallelism.enable_async_tensor_parallel", false);
  } else {
    d.flag("parallelism.enable_async_tensor_parallel", false);
  }
  d.finish(ignored_reason,
           "a key the importer does not read (not one of torchtitan's at 820504e, or not a cost setting)");
  check_imported(r, "the config");
  out.request = std::move(r);
  return out;
}

}  // namespace parascope::detail
