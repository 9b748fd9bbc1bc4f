// The "version" and "presets" operations: what the engine is and what it knows.
#include <utility>

#include "json_out.hpp"
#include "names.hpp"
#include "ops.hpp"
#include "parascope/api.hpp"
#include "parascope/presets.hpp"
#include "parascope/schedule.hpp"
#include "parascope/version.hpp"
#include "spec_json.hpp"

namespace parascope {

const char* version() { return PARASCOPE_VERSION; }

namespace detail {

json op_version(RequestReader& request) {
  request.finish();
  json out;
  put(out, "name", kName);
  put(out, "version", version());
  put(out, "max_request_bytes", kMaxRequestBytes);
  return out;
}

json op_presets(RequestReader& request) {
  request.finish();
  json out;
  json& hardware = put_array(out, "hardware");
  for (const auto& h : hardware_presets()) hardware.push_back(hardware_to_json(h));
  json& models = put_array(out, "models");
  for (const auto& m : model_presets()) {
    json& j = models.emplace_back(model_to_json(m));
    const ParamCounts p = count_params(m);
    json& derived = put_object(j, "derived");
    put(derived, "params_total", p.total);
    put(derived, "params_active", p.active);
    put(derived, "params_flops", p.flops_params);
  }
  // The fixed choices, one list each, for clients to offer instead of repeating them.
  json& schedule_list = put_array(out, "schedules");
  for (const ScheduleInfo& s : schedules()) {
    json& o = push_object(schedule_list);
    put(o, "id", s.id);
    put(o, "label", s.label);
    put(o, "splits_backward", s.splits_backward);
    put(o, "interleaves", s.interleaves);
    put(o, "forward_only", s.forward_only);
    put(o, "source", s.source);
  }
  const std::pair<const char*, const std::vector<std::string_view>&> lists[] = {
      {"recompute", recompute_ids()}, {"precisions", precision_ids()}, {"fp8_recipes", fp8_recipe_ids()},
      {"attention", attention_ids()}, {"software", software_ids()},    {"plan_objectives", objective_ids()}};
  for (const auto& [key, ids] : lists) {
    json& names = put_array(out, key);
    for (const std::string_view id : ids) names.push_back(std::string(id));
  }
  put(out, "zero", zero_stages());
  return out;
}

}  // namespace detail
}  // namespace parascope
