/// A step request as the launch configuration of another framework than Megatron-LM (op_config_export.cpp has
/// Megatron's arguments): the text, and a note for each setting the framework cannot express.
#pragma once

#include <nlohmann/json.hpp>

#include "step_json.hpp"

namespace parascope::detail {

/// {"text": a torchtitan job TOML (keys as torchtitan/config_manager.py defines them at 820504e), "notes"}.
nlohmann::json export_torchtitan(const StepRequest& s);

/// {"text": a DeepSpeed config JSON (keys as DeepSpeed v0.19.5 defines them), "notes"}.
nlohmann::json export_deepspeed(const StepRequest& s);

}  // namespace parascope::detail
