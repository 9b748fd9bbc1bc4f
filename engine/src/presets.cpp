// Parses the compiled-in engine/data/*.json once, through the same validating readers that serve requests.
#include "parascope/presets.hpp"

#include "parascope/embedded_data.hpp"
#include "parse_json.hpp"
#include "spec_json.hpp"

namespace parascope {

namespace {

/// The list under `list_key` in engine/data/<file>.json, whose text is `data`; a malformed file is a build bug, caught
/// by the tests.
template <typename T, typename Read>
std::vector<T> load(std::string_view data, const char* file, const char* list_key, Read read) {
  const auto doc = detail::parse_json(data);
  std::vector<T> out;
  std::size_t i = 0;
  for (const auto& item : doc.at(list_key)) {
    detail::RequestReader r(item, std::string(file) + "." + list_key + "[" + std::to_string(i++) + "]");
    out.push_back(read(r));
  }
  return out;
}

}  // namespace

const std::vector<Hardware>& hardware_presets() {
  static const std::vector<Hardware> presets =
      load<Hardware>(detail::embedded_data_hardware(), "hardware", "hardware",
                     [](detail::RequestReader& r) { return detail::read_hardware(r); });
  return presets;
}

const std::vector<ModelShape>& model_presets() {
  static const std::vector<ModelShape> presets =
      load<ModelShape>(detail::embedded_data_models(), "models", "models",
                       [](detail::RequestReader& r) { return detail::read_model_shape(r); });
  return presets;
}

const Hardware* find_hardware(std::string_view id) {
  for (const auto& h : hardware_presets()) {
    if (h.id == id) return &h;
  }
  return nullptr;
}

const ModelShape* find_model(std::string_view id) {
  for (const auto& m : model_presets()) {
    if (m.id == id) return &m;
  }
  return nullptr;
}

}  // namespace parascope
