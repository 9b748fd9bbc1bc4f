// The "version" and "presets" operations: what the engine is and what it knows.
#include "names.hpp"
#include "ops.hpp"
#include "parascope/api.hpp"
#include "parascope/schedule.hpp"
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
  // The fixed choices, one list each, for clients to offer instead of repeating them.
  json schedule_list = json::array();
  for (const ScheduleInfo& s : schedules()) {
    schedule_list.push_back({{"id", std::string(s.id)},
                             {"label", std::string(s.label)},
                             {"splits_backward", s.splits_backward},
                             {"interleaves", s.interleaves},
                             {"forward_only", s.forward_only},
                             {"source", std::string(s.source)}});
  }
  auto names = [](const std::vector<std::string_view>& ids) {
    json out = json::array();
    for (const std::string_view id : ids) out.push_back(std::string(id));
    return out;
  };
  return {{"hardware", std::move(hardware)},
          {"models", std::move(models)},
          {"schedules", std::move(schedule_list)},
          {"recompute", names(recompute_ids())},
          {"zero", zero_stages()},
          {"precisions", names(precision_ids())},
          {"fp8_recipes", names(fp8_recipe_ids())},
          {"attention", names(attention_ids())},
          {"software", names(software_ids())},
          {"plan_objectives", names(objective_ids())}};
}

}  // namespace detail
}  // namespace parascope
