/// Test helpers for the pipeline op's JSON API: send a request with "op": "pipeline", read its answer or its error.
#pragma once

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "parascope/api.hpp"

namespace parascope::testing {

/// The engine's answer to `request` with "op" set to "pipeline".
inline nlohmann::json ask_pipeline(nlohmann::json request) {
  request["op"] = "pipeline";
  return nlohmann::json::parse(parascope::call(request.dump()));
}

/// The error object of a request the engine must refuse (a test failure when it answers instead).
inline nlohmann::json pipeline_error_of(nlohmann::json request) {
  nlohmann::json r = ask_pipeline(std::move(request));
  EXPECT_TRUE(r.contains("error")) << r.dump();
  return r.value("error", nlohmann::json::object());
}

}  // namespace parascope::testing
