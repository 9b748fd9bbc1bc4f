// DeepSpeed config JSON -> a step request (config_import_formats.hpp). Keys as deepspeed/runtime/constants.py,
// deepspeed/runtime/zero/config.py (DeepSpeedZeroConfig) and activation_checkpointing/config.py define them at
// v0.19.5 (deepspeedai/DeepSpeed); the batch rule train_batch_size = micro × accumulation × data-parallel ranks as
// deepspeed/runtime/config.py `_batch_assertion` checks it there.
#include <map>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "config_doc.hpp"
#include "config_import_formats.hpp"
#include "json_text.hpp"
#include "parse_json.hpp"
#include "request_reader.hpp"
#include "step_json.hpp"

namespace parascope::detail {

namespace {

using nlohmann::json;

std::size_t line_at(const std::string& text, std::size_t byte) {
  std::size_t line = 1;
  for (std::size_t i = 0; i + 1 < byte && i < text.size(); ++i) line += text[i] == '\n' ? 1 : 0;
  return line;
}

json parse(const std::string& text) {
  json c;
  try {
    c = parse_json(text);
  } catch (const json::parse_error& e) {
    refuse(code::invalid_json, {"the DeepSpeed config is not valid JSON at line ", line_at(text, e.byte)}, "text");
  } catch (const json::exception&) {
    refuse(code::invalid_json, {"the DeepSpeed config holds a number out of range"}, "text");
  }
  if (!c.is_object()) refuse(code::wrong_type, {"a DeepSpeed config holds one JSON object"}, "text");
  return c;
}

/// Keys with no bearing on cost, each with its reason; a key here or read is accounted for, any other is unmapped.
const char* ignored_reason(const std::string& k) {
  static const std::vector<std::pair<std::vector<const char*>, const char*>> groups = {
      {{"optimizer", "scheduler", "gradient_clipping", "zero_allow_untested_optimizer", "zero_force_ds_cpu_optimizer",
        "prescale_gradients", "gradient_predivide_factor", "fp16.loss_scale", "fp16.initial_scale_power",
        "fp16.loss_scale_window", "fp16.hysteresis", "fp16.consecutive_hysteresis", "fp16.min_loss_scale",
        "fp16.auto_cast"},
       "an optimiser or loss-scaling setting: the same kernels and bytes per step"},
      {{"steps_per_print", "wall_clock_breakdown", "dump_state", "memory_breakdown", "tensorboard", "wandb",
        "csv_monitor", "comms_logger", "flops_profiler", "log_level"},
       "logging and profiling"},
      {{"checkpoint", "dataloader_drop_last"}, "checkpoints and data loading: not part of a step"},
      {{"zero_optimization.contiguous_gradients", "zero_optimization.reduce_scatter",
        "zero_optimization.reduce_bucket_size", "zero_optimization.allgather_partitions",
        "zero_optimization.allgather_bucket_size", "zero_optimization.use_multi_rank_bucket_allreduce",
        "zero_optimization.load_from_fp32_weights", "zero_optimization.elastic_checkpoint",
        "zero_optimization.sub_group_size", "zero_optimization.stage3_prefetch_bucket_size",
        "zero_optimization.stage3_param_persistence_threshold", "zero_optimization.stage3_max_live_parameters",
        "zero_optimization.stage3_max_reuse_distance", "zero_optimization.stage3_gather_16bit_weights_on_model_save",
        "zero_optimization.round_robin_gradients", "zero_optimization.ignore_unused_parameters"},
       "ZeRO's buffer sizes and bookkeeping: the same bytes communicated per step"},
      {{"activation_checkpointing.contiguous_memory_optimization", "activation_checkpointing.number_checkpoints",
        "activation_checkpointing.synchronize_checkpoint_boundary", "activation_checkpointing.profile"},
       "how DeepSpeed's checkpoint() stores what the model's code checkpoints"},
      {{"zero_optimization.offload_optimizer.pin_memory", "zero_optimization.offload_param.pin_memory",
        "zero_optimization.offload_optimizer.buffer_count", "zero_optimization.offload_param.buffer_count",
        "zero_optimization.offload_param.buffer_size", "zero_optimization.offload_param.max_in_cpu",
        "zero_optimization.offload_optimizer.nvme_path", "zero_optimization.offload_param.nvme_path"},
       "read with its offload device"},
  };
  for (const auto& [keys, why] : groups) {
    for (const char* key : keys) {
      if (k == key || k.rfind(std::string(key) + ".", 0) == 0) return why;
    }
  }
  return nullptr;
}

class Config {
 public:
  Config(const json& c, ImportedRequest& out) : out_(out) { flatten(c, ""); }
  const json* get(const std::string& k) {
    const auto it = leaves_.find(k);
    if (it == leaves_.end()) return nullptr;
    read_.insert(k);
    if (it->second == "auto") {
      out_.unmapped.push_back({{"key", k}, {"why", "\"auto\": the Hugging Face Trainer fills it in at launch"}});
      return nullptr;
    }
    return &it->second;
  }
  long long integer(const std::string& k, long long fallback) {
    const json* v = get(k);
    if (v == nullptr) return fallback;
    if (!v->is_number_integer() || v->get<long long>() < 0) {
      refuse(code::invalid_value, {k, " must be a whole number ≥ 0"}, "text");
    }
    return v->get<long long>();
  }
  bool on(const std::string& k) {
    const json* v = get(k);
    return v != nullptr && v->is_boolean() && v->get<bool>();
  }
  void unmap(const std::string& k, const std::string& why) { out_.unmapped.push_back({{"key", k}, {"why", why}}); }
  void finish() {
    for (const auto& [k, v] : leaves_) {
      if (read_.count(k)) continue;
      if (const char* why = ignored_reason(k)) {
        out_.ignored.push_back({{"key", k}, {"why", why}});
      } else {
        unmap(k, "a key the importer does not read (not one of DeepSpeed's at v0.19.5, or not a cost setting)");
      }
    }
  }

 private:
  void flatten(const json& c, const std::string& prefix) {
    for (const auto& [k, v] : c.items()) {
      const std::string key = prefix + k;
      // The optimiser's and scheduler's params are one setting each: listed once.
      if (v.is_object() && !v.empty() && key != "optimizer" && key != "scheduler") {
        flatten(v, key + ".");
      } else {
        leaves_[key] = v;
      }
    }
  }
  std::map<std::string, json> leaves_;
  std::set<std::string> read_;
  ImportedRequest& out_;
};

/// Batch sizes and the data-parallel ranks they imply: train = micro × accumulation × dp.
void batch(Config& c, json& r, ImportedRequest& out) {
  json& p = r["parallel"];
  const long long model_parallel = p.value("tp", 1LL) * p.value("pp", 1LL) * p.value("cp", 1LL);
  const long long train = c.integer("train_batch_size", 0), micro = c.integer("train_micro_batch_size_per_gpu", 0),
                  accumulation = c.integer("gradient_accumulation_steps", 0);
  long long dp = r["cluster"].contains("gpus") ? r["cluster"]["gpus"].get<long long>() / model_parallel : 0;
  if (dp == 0 && train > 0 && micro > 0 && accumulation > 0) {
    dp = train / (micro * accumulation);
    r["cluster"]["gpus"] = dp * model_parallel;
    assume(out, "cluster.gpus", "from train_batch_size / (micro batch × accumulation steps) × base's tp·pp·cp");
  }
  if (dp == 0) {
    r["cluster"]["gpus"] = 8 * model_parallel;
    dp = 8;
    assume(out, "cluster.gpus", "neither base.cluster nor all three batch sizes: 8 data-parallel ranks");
  }
  const long long m = micro > 0 ? micro : train > 0 && accumulation > 0 ? train / (accumulation * dp) : 1;
  const long long global = train > 0 ? train : m * (accumulation > 0 ? accumulation : 1) * dp;
  if (train > 0 && micro > 0 && accumulation > 0 && train != micro * accumulation * dp) {
    refuse(code::inconsistent,
           {"train_batch_size ", train, " ≠ train_micro_batch_size_per_gpu ", micro, " × gradient_accumulation_steps ",
            accumulation, " × ", dp, " data-parallel ranks (DeepSpeed refuses it too)"},
           "text");
  }
  p["microbatch_size"] = m < 1 ? 1 : m;
  p["global_batch"] = global;
}

void memory(Config& c, json& r) {
  json& p = r["parallel"];
  const long long stage = c.integer("zero_optimization.stage", 0);
  if (stage > 3) refuse(code::invalid_value, {"zero_optimization.stage must be 0 to 3"}, "text");
  if (stage > 0) p["zero"] = stage;
  if (const json* o = c.get("zero_optimization.overlap_comm"); o && o->is_boolean()) {
    r["efficiency"]["dp_overlap"] = o->get<bool>();
  }
  // ZeRO-Offload: the optimizer's state and step on the host (engine/API.md, "Host offload"); NVMe (ZeRO-Infinity)
  // and parameter offload are not modelled.
  const json* optimizer = c.get("zero_optimization.offload_optimizer.device");
  if (optimizer && *optimizer == "cpu") {
    p["offload_optimizer"] = 1;
  } else if (optimizer && *optimizer != "none") {
    c.unmap("zero_optimization.offload_optimizer.device",
            dump_text(*optimizer) + " offload: not modelled, costed on the GPU");
  }
  if (const json* d = c.get("zero_optimization.offload_param.device"); d && *d != "none") {
    c.unmap("zero_optimization.offload_param.device", dump_text(*d) + " offload: not modelled, costed on the GPU");
  }
  for (const char* k :
       {"activation_checkpointing.partition_activations", "activation_checkpointing.cpu_checkpointing"}) {
    if (c.on(k)) c.unmap(k, "checkpoints split over TP ranks or kept in CPU memory: not modelled");
  }
}

void numerics(Config& c) {
  const bool bf16 = c.on("bf16.enabled") || c.on("bfloat16.enabled"), fp16 = c.on("fp16.enabled");
  if (fp16) c.unmap("fp16.enabled", "fp16 with loss scaling: costed as bf16 (the same tensor-core rate)");
  if (!bf16 && !fp16)
    c.unmap("bf16.enabled", "neither bf16 nor fp16 enabled: DeepSpeed trains in fp32, costed as bf16");
}

}  // namespace

ImportedRequest import_deepspeed(const std::string& text, const ImportOptions& o) {
  ImportedRequest out;
  Config c(parse(text), out);
  if (!o.base.contains("model")) {
    refuse(code::missing_field, {"a DeepSpeed config does not describe the model: give base.model"}, "base.model");
  }
  assume(out, "model", "from base: a DeepSpeed config has no model (nor the tp/pp its code sets, also from base)");
  json r = o.base;
  r["op"] = "step";
  if (!r.contains("hardware")) {
    r["hardware"] = "h100-sxm";
    assume(out, "hardware", "a DeepSpeed config does not name the GPU: h100-sxm, until you give `base`");
  }
  if (!r.contains("software")) r["software"] = "deepspeed";
  if (!r.contains("cluster")) r["cluster"] = json::object();
  if (!r.contains("parallel")) r["parallel"] = json::object();
  if (!r.contains("efficiency")) r["efficiency"] = json::object();
  batch(c, r, out);
  memory(c, r);
  numerics(c);
  if (r["efficiency"].empty()) r.erase("efficiency");
  c.finish();
  check_imported(r, "the config and base");
  out.request = std::move(r);
  return out;
}

}  // namespace parascope::detail
