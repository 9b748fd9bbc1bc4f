/// The built-in hardware and models, compiled in from engine/data/*.json.
#pragma once

#include <string_view>
#include <vector>

#include "parascope/hardware.hpp"
#include "parascope/model.hpp"

namespace parascope {

const std::vector<Hardware>& hardware_presets();
const std::vector<ModelShape>& model_presets();

/// nullptr when there is no preset with that id.
const Hardware* find_hardware(std::string_view id);
const ModelShape* find_model(std::string_view id);

}  // namespace parascope
