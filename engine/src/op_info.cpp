// The "version" and "presets" operations: what the engine is and what it knows.
#include "ops.hpp"
#include "parascope/api.hpp"
#include "parascope/presets.hpp"
#include "parascope/version.hpp"
#include "spec_json.hpp"

namespace parascope {

const char* version() { return PARASCOPE_VERSION; }

namespace detail {

json op_version(RequestReader& request) {
  request.finish();
  return {{"name", kName}, {"version", version()}, {"max_request_bytes", kMaxRequestBytes}};
}

json op_presets(RequestReader& request) {
  request.finish();
  json hardware = json::array();
  for (const auto& h : hardware_presets()) hardware.push_back(hardware_to_json(h));
  json models = json::array();
  for (const auto& m : model_presets()) {
    json j = model_to_json(m);
    const ParamCounts p = count_params(m);
    j["derived"] = {{"params_total", p.total}, {"params_active", p.active}, {"params_flops", p.flops_params}};
    models.push_back(std::move(j));
  }
  return {{"hardware", std::move(hardware)}, {"models", std::move(models)}};
}

}  // namespace detail
}  // namespace parascope
