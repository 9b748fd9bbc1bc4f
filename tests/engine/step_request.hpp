// A `step` request through the JSON API, for the cost-model tests: the answer, or the refusal, as JSON.
#pragma once

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <string>

#include "parascope/api.hpp"

namespace step_request {

using nlohmann::json;

inline json ask(const json& request) { return json::parse(parascope::call(request.dump())); }

/// The step answer for this model, hardware, cluster and split; a refusal fails the test.
inline json step(const json& model, const json& hardware, const json& cluster, const json& parallel,
                 const json& efficiency = json::object()) {
  json r = ask({{"op", "step"},
                {"model", model},
                {"hardware", hardware},
                {"cluster", cluster},
                {"parallel", parallel},
                {"efficiency", efficiency}});
  EXPECT_FALSE(r.contains("error")) << r.dump();
  return r;
}

/// The refusal's field (empty when the request was answered).
inline std::string refused_field(const json& model, const json& hardware, const json& cluster, const json& parallel) {
  json r =
      ask({{"op", "step"}, {"model", model}, {"hardware", hardware}, {"cluster", cluster}, {"parallel", parallel}});
  return r.contains("error") ? r["error"]["field"].get<std::string>() : "";
}

/// The axis entry named `name` of a step answer.
inline json axis(const json& r, const std::string& name) {
  for (const auto& a : r["axes"]) {
    if (a["axis"] == name) return a;
  }
  ADD_FAILURE() << "no axis " << name;
  return json::object();
}

}  // namespace step_request
