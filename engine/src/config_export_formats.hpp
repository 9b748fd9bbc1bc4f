/// A step request as the launch configuration of another framework than Megatron-LM (op_config_export.cpp has
/// Megatron's arguments): the text, and a note for each setting the framework cannot express.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "step_json.hpp"

namespace parascope::detail {

/// Megatron-LM's pretrain_gpt.py arguments ("--num-layers 32", ...) for `s`, and a note for what they cannot express.
struct MegatronArgs {
  std::vector<std::string> args;
  nlohmann::json notes = nlohmann::json::array();  ///< {setting, why}
};
MegatronArgs megatron_args(const StepRequest& s);

/// {"text": Megatron-Bridge ConfigContainer overrides (YAML, keys as Megatron-Bridge v0.6.0 names them), "notes"}.
nlohmann::json export_nemo(const StepRequest& s);

/// {"text": a torchtitan job TOML (keys as torchtitan/config_manager.py defines them at 820504e), "notes"}.
nlohmann::json export_torchtitan(const StepRequest& s);

/// {"text": a DeepSpeed config JSON (keys as DeepSpeed v0.19.5 defines them), "notes"}.
nlohmann::json export_deepspeed(const StepRequest& s);

/// {"text": a nanotron config YAML (keys as nanotron's config/config.py defines them at 2411b02), "notes"}.
nlohmann::json export_nanotron(const StepRequest& s);

}  // namespace parascope::detail
