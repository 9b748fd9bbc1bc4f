// A step request as a torchtitan job TOML (config_export_formats.hpp): keys as torchtitan/config_manager.py defines
// them at 820504e (pytorch/torchtitan), the inverse of config_import_torchtitan.cpp.
#include <string>
#include <vector>

#include "config_export_formats.hpp"
#include "config_import_formats.hpp"
#include "names.hpp"
#include "parascope/presets.hpp"
#include "parascope/schedule.hpp"
#include "spec_json.hpp"

namespace parascope::detail {

namespace {

using nlohmann::json;

json shape_of(const ModelShape& m) {
  json j = model_to_json(m);
  for (const char* k : {"id", "name", "source", "published_params", "seq"}) j.erase(k);
  return j;
}

/// The llama3 flavor with this shape, or "".
std::string flavor_of(const ModelShape& m) {
  for (const ModelShape& p : model_presets()) {
    const std::string f = torchtitan_flavor(p.id);
    if (!f.empty() && shape_of(p) == shape_of(m)) return f;
  }
  return "";
}

struct Toml {
  std::string text;
  json notes = json::array();
  void table(const char* name) { text += std::string(text.empty() ? "" : "\n") + "[" + name + "]\n"; }
  void str(const char* key, const std::string& v) { text += std::string(key) + " = \"" + v + "\"\n"; }
  void num(const char* key, long long v) { text += std::string(key) + " = " + std::to_string(v) + "\n"; }
  void flag(const char* key, bool v) { text += std::string(key) + " = " + (v ? "true" : "false") + "\n"; }
  void note(const std::string& setting, const std::string& why) {
    notes.push_back({{"setting", setting}, {"why", why}});
  }
};

void model_table(const StepRequest& s, Toml& t) {
  t.table("model");
  const std::string flavor = flavor_of(s.run.model);
  t.str("name", std::string("llama3"));
  if (flavor.empty()) {
    t.note("model", "torchtitan names a model by its flavor; none of llama3's (8B, 70B, 405B) has this shape");
  } else {
    t.str("flavor", flavor);
  }
  if (s.efficiency.precision == Precision::fp8) {
    t.text += s.efficiency.fp8_recipe == Fp8Recipe::mxfp8 ? "converters = [\"mx\"]\n" : "converters = [\"float8\"]\n";
    if (s.efficiency.fp8_recipe == Fp8Recipe::delayed)
      t.note("fp8_recipe", "torchtitan's float8 scales as it casts (tensorwise)");
  }
}

void training_table(const StepRequest& s, Toml& t) {
  const ParallelConfig& p = s.run.parallel;
  t.table("training");
  t.num("local_batch_size", p.pp > 1 ? p.global_batch / p.dp : p.microbatch_size);
  t.num("global_batch_size", p.global_batch);
  t.num("seq_len", s.run.model.seq);
  t.flag("compile", s.software == "pytorch-compile");
  if (s.software != "pytorch" && s.software != "pytorch-compile") {
    t.note("software", "the engine costed \"" + s.software + "\"; torchtitan runs PyTorch, eager or compiled");
  }
  if (!s.efficiency.split_projections) {
    t.note("efficiency.split_projections",
           "the engine costed fused QKV and gate-up GEMMs; torchtitan's Llama runs wq, wk, wv and w1, w3 as "
           "separate GEMMs, a little slower");
  }
}

void parallel_table(const StepRequest& s, Toml& t) {
  const ParallelConfig& p = s.run.parallel;
  t.table("parallelism");
  t.num("data_parallel_replicate_degree", p.zero == 3 ? 1LL : p.dp);
  t.num("data_parallel_shard_degree", p.zero == 3 ? p.dp : 1LL);
  if (p.zero == 1 || p.zero == 2)
    t.note("zero", "torchtitan shards with FSDP (ZeRO 3) or replicates: written as replication");
  if (p.zero == 3 && p.reshard_after_forward != (p.pp == 1)) {
    t.str("fsdp_reshard_after_forward", std::string(p.reshard_after_forward ? "always" : "never"));
  }
  t.num("tensor_parallel_degree", p.tp);
  if (p.tp > 1) t.flag("enable_async_tensor_parallel", s.efficiency.tp_comm_overlap);
  if (p.tp > 1 && !p.sequence_parallel) t.note("sequence_parallel", "torchtitan's TP is always sequence parallel");
  t.num("pipeline_parallel_degree", p.pp);
  if (p.pp > 1) {
    const char* schedule = p.schedule == Schedule::gpipe ? "GPipe" : p.vpp > 1 ? "Interleaved1F1B" : "1F1B";
    if (p.schedule != Schedule::gpipe && p.schedule != Schedule::one_f_one_b && p.schedule != Schedule::interleaved) {
      t.note("schedule", std::string(schedule_id(p.schedule)) + ": written as 1F1B");
    }
    t.str("pipeline_parallel_schedule", std::string(schedule));
    if (p.vpp > 1) t.num("pipeline_parallel_layers_per_stage", s.run.model.layers / (p.pp * p.vpp));
    t.num("pipeline_parallel_microbatch_size", p.microbatch_size);
  }
  t.num("context_parallel_degree", p.cp);
  if (p.ep > 1) t.note("ep", "expert parallelism: torchtitan's llama3 has no experts");
}

void checkpoint_table(const StepRequest& s, Toml& t) {
  t.table("activation_checkpoint");
  const Recompute r = s.run.parallel.recompute;
  t.str("mode", std::string(r == Recompute::none ? "none" : r == Recompute::full ? "full" : "selective"));
  if (r == Recompute::op) t.str("selective_ac_option", std::string("op"));
  if (r == Recompute::selective) {
    t.str("selective_ac_option", std::string("op"));
    t.note("recompute",
           "selective (the attention core, Korthikanti et al.): torchtitan's closest is its per-op "
           "policy, written as \"op\"");
  }
}

}  // namespace

json export_torchtitan(const StepRequest& s) {
  Toml t;
  t.text = "# torchtitan job config (keys as torchtitan/config_manager.py defines them at 820504e)\n";
  model_table(s, t);
  training_table(s, t);
  parallel_table(s, t);
  checkpoint_table(s, t);
  return {{"text", t.text}, {"notes", t.notes}};
}

}  // namespace parascope::detail
