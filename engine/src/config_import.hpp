/// A Hugging Face config.json read into the engine's model shape: every key mapped, ignored with its reason, or
/// listed as unmapped; what the file does not say and the engine had to assume, listed too.
#pragma once

#include <nlohmann/json.hpp>
#include <string>

namespace parascope::detail {

struct ImportedModel {
  nlohmann::json model = nlohmann::json::object();    ///< a model shape object (engine/API.md, "Models")
  nlohmann::json unmapped = nlohmann::json::array();  ///< {key, why}: settings the engine cannot express
  nlohmann::json ignored = nlohmann::json::array();   ///< {key, why}: settings with no bearing on cost
  nlohmann::json assumed = nlohmann::json::array();   ///< {field, why}: what the file leaves open
};

/// `config`: a config.json object. `seq`: the training sequence length (0: max_position_embeddings, assumed).
ImportedModel import_huggingface(const nlohmann::json& config, long long seq);

}  // namespace parascope::detail
