// A step request as a DeepSpeed config JSON (config_export_formats.hpp): keys as deepspeed/runtime/constants.py and
// zero/config.py define them at v0.19.5 (deepspeedai/DeepSpeed), the inverse of config_import_deepspeed.cpp.
#include <string>

#include "config_export_formats.hpp"
#include "json_text.hpp"

namespace parascope::detail {

json export_deepspeed(const StepRequest& s) {
  const ParallelConfig& p = s.run.parallel;
  json notes = json::array();
  auto note = [&notes](const char* setting, const std::string& why) {
    notes.push_back({{"setting", setting}, {"why", why}});
  };
  json c;
  c["train_batch_size"] = p.global_batch;
  c["train_micro_batch_size_per_gpu"] = p.microbatch_size;
  c["gradient_accumulation_steps"] = p.global_batch / (p.dp * p.microbatch_size);
  c["zero_optimization"] = {{"stage", p.zero}, {"overlap_comm", s.efficiency.dp_overlap}};
  c["bf16"] = {{"enabled", true}};
  if (p.tp > 1 || p.pp > 1 || p.cp > 1 || p.ep > 1) {
    note("parallel",
         "tp, pp, cp and ep are set by the model's code (e.g. Megatron-DeepSpeed's flags), not by the "
         "DeepSpeed config: pass them with the model");
  }
  if (p.recompute != Recompute::none) {
    note("recompute", "the model's code calls deepspeed.checkpointing.checkpoint on the layers it recomputes");
  }
  if (s.efficiency.precision == Precision::fp8)
    note("precision", "FP8 comes from TransformerEngine in the model's code");
  if (s.software != "deepspeed") note("software", "the engine costed \"" + s.software + "\"");
  return {{"text", dump_indented(c, 2) + "\n"}, {"notes", notes}};
}

}  // namespace parascope::detail
