/// Launch configurations (Megatron-LM arguments, ...) read into a whole step request: what was mapped, what could
/// not be and why, what was ignored and what had to be assumed.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace parascope::detail {

struct ImportedRequest {
  nlohmann::json request = nlohmann::json::object();  ///< a step request (op "step")
  nlohmann::json unmapped = nlohmann::json::array();  ///< {key, why}
  nlohmann::json ignored = nlohmann::json::array();   ///< {key, why}
  nlohmann::json assumed = nlohmann::json::array();   ///< {field, why}
};

/// What the op passes every format: `base` (the request's other fields, {} when not given) and the overrides a file
/// may leave open (0: not given).
struct ImportOptions {
  nlohmann::json base = nlohmann::json::object();
  bool given_base = false;
  long long seq = 0, vocab = 0;
  bool pad_vocab = true;  ///< megatron: pad the vocabulary as Megatron-LM does (Megatron-Bridge: only if asked)
};

/// A Megatron-LM launch (a torchrun ... pretrain_gpt.py command line or shell script), flags as
/// megatron/training/arguments.py defines them at core_v0.14.0.
ImportedRequest import_megatron(const std::string& text, const ImportOptions& options);

struct LaunchLine;  // megatron_launch.hpp

/// Megatron-LM's flags already read into a launch: what import_megatron does after reading the text (the NeMo
/// importer hands it a recipe's keys as the flags they are set from).
ImportedRequest import_megatron_launch(const LaunchLine& launch, const ImportOptions& options);

/// A NeMo 2 / Megatron-Bridge recipe YAML (a dumped ConfigContainer or its overrides), keys as
/// megatron/bridge/training/config.py, models/gpt_provider.py and training/mixed_precision.py define them at v0.6.0
/// (NVIDIA-NeMo/Megatron-Bridge), the model's as Megatron-Core's TransformerConfig at core_v0.14.0.
ImportedRequest import_nemo(const std::string& text, const ImportOptions& options);

/// Megatron-Bridge's key for a Megatron-LM flag ("--num-layers" -> "model.num_layers"), or "".
std::string nemo_key_of_flag(const std::string& flag);

/// A torchtitan job config (TOML), keys as torchtitan/config_manager.py defines them at 820504e (pytorch/torchtitan).
ImportedRequest import_torchtitan(const std::string& text, const ImportOptions& options);

/// A DeepSpeed config JSON, keys as deepspeed/runtime/constants.py, zero/config.py and
/// activation_checkpointing/config.py define them at v0.19.5. The model (and any tp/pp the model's code sets) is not
/// in a DeepSpeed config: it comes from `base`.
ImportedRequest import_deepspeed(const std::string& text, const ImportOptions& options);

/// A nanotron config (YAML), keys as nanotron's config/config.py, parallelism_config.py and models_config.py define
/// them at 2411b02 (huggingface/nanotron): a Llama-shaped model, its split, batch, pipeline engine and ZeRO stage.
ImportedRequest import_nanotron(const std::string& text, const ImportOptions& options);

/// The torchtitan llama3 flavor whose shape the engine's preset `id` has ("8B" for llama3-8b), or "".
std::string torchtitan_flavor(const std::string& preset_id);

/// The flags import_megatron reads or ignores by name (for the test that checks each against arguments.py).
std::vector<std::string> megatron_known_flags();

}  // namespace parascope::detail
