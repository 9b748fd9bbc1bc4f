// The step_check op: {} exactly when step answers, and otherwise step's own refusal, byte for byte, for every rule
// (the request's, the schedule's, and those that need the cost model's op times).
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "parascope/api.hpp"

namespace {

using nlohmann::json;

/// step's answer text and step_check's for the same request body.
std::pair<std::string, std::string> step_and_check(json request) {
  request["op"] = "step";
  const std::string step = parascope::call(request.dump());
  request["op"] = "step_check";
  return {step, parascope::call(request.dump())};
}

/// Expects step_check to say what step says: "{}" for an answer, the same error text for a refusal.
void expect_agree(const json& request) {
  const auto [step, check] = step_and_check(request);
  if (parascope::is_error_response(step)) {
    EXPECT_EQ(check, step) << request.dump();
  } else {
    EXPECT_EQ(check, "{}") << request.dump() << " -> " << step.substr(0, 200);
  }
}

json run(const char* model, const char* hardware, std::int64_t gpus, json parallel) {
  return {{"model", model}, {"hardware", hardware}, {"cluster", {{"gpus", gpus}}}, {"parallel", std::move(parallel)}};
}

TEST(StepCheck, DualPipeOnOneStageIsRefusedByStepAsThePipelineOpRefusesIt) {
  // The planner used to offer DualPipe at pp = 1 (timed as ZB-H1's order) and the bubble figure then moved it to two
  // stages: step, step_check and pipeline now give the one rule.
  const json request = run("gpt3-175b", "a100-80gb", 64, {{"tp", 8}, {"global_batch", 64}, {"schedule", "dualpipe"}});
  const auto [step, check] = step_and_check(request);
  EXPECT_EQ(check, step);
  const json e = json::parse(step)["error"];
  EXPECT_EQ(e["code"], "inconsistent");
  EXPECT_EQ(e["field"], "parallel.pp");
  const json pipeline =
      json::parse(parascope::call(R"({"op":"pipeline","schedule":"dualpipe","stages":1,"microbatches":8})"));
  EXPECT_EQ(e["message"], "pipeline schedule: " + pipeline["error"]["message"].get<std::string>()) << step;
  json traffic = request;
  traffic["op"] = "traffic";
  EXPECT_EQ(parascope::call(traffic.dump()), step);
}

TEST(StepCheck, AgreesWithStepOnEverySplitOfAGrid) {
  // GPT-3 175B (96 layers, 96 heads) on 64 A100s: every schedule over splits, chunks, microbatch sizes and batches,
  // most of them refused by one rule or another (products, heads, layers, batch multiples, schedule rules).
  int answered = 0, refused = 0;
  for (const char* schedule : {"1f1b", "interleaved", "gpipe", "zb-h1", "zb-h2", "dualpipe"}) {
    for (int tp : {1, 3, 8, 16}) {
      for (int pp : {1, 2, 4, 8, 64}) {
        for (int vpp : {1, 2, 3}) {
          for (int mbs : {1, 2}) {
            for (int gbs : {8, 48, 64, 96}) {
              const json request = run("gpt3-175b", "a100-80gb", 64,
                                       {{"tp", tp},
                                        {"pp", pp},
                                        {"vpp", vpp},
                                        {"microbatch_size", mbs},
                                        {"global_batch", gbs},
                                        {"schedule", schedule}});
              expect_agree(request);
              (parascope::is_error_response(step_and_check(request).first) ? refused : answered) += 1;
            }
          }
        }
      }
    }
  }
  EXPECT_GT(answered, 100);
  EXPECT_GT(refused, 100);
}

TEST(StepCheck, AgreesWithStepOnMixtureOfExpertsRules) {
  for (int ep : {1, 2, 4, 8, 16}) {
    for (int etp : {1, 2}) {
      expect_agree(
          run("mixtral-8x7b", "h100-sxm", 64, {{"tp", 2}, {"pp", 4}, {"ep", ep}, {"etp", etp}, {"global_batch", 64}}));
    }
  }
  expect_agree(run("gpt3-175b", "a100-80gb", 64, {{"tp", 8}, {"pp", 8}, {"ep", 2}, {"global_batch", 64}}));
}

TEST(StepCheck, RefusesWhatOnlyTheCostModelsOpTimesBreak) {
  // A hardware of 1 FLOP/s: one layer's forward takes longer than the pipeline's 1e12 s limit.
  json slow = {{"peak_flops", 1},           {"memory_bytes", 8e10},    {"memory_bandwidth", 2e12},
               {"gpus_per_node", 8},        {"intra_bandwidth", 3e11}, {"intra_latency", 1e-5},
               {"inter_bandwidth", 2.5e10}, {"inter_latency", 1e-5}};
  json request = {{"model", "gpt3-175b"},
                  {"hardware", slow},
                  {"cluster", {{"gpus", 64}}},
                  {"parallel", {{"tp", 8}, {"pp", 8}, {"global_batch", 64}}}};
  const auto [step, check] = step_and_check(request);
  ASSERT_TRUE(parascope::is_error_response(step)) << step.substr(0, 200);
  EXPECT_EQ(json::parse(step)["error"]["field"], "hardware");
  EXPECT_EQ(check, step);
}

TEST(StepCheck, RefusesTooManyOpsAsStepDoes) {
  // pp 1024 × 1024 microbatches × 2 op kinds: over the pipeline's 10^6 ops.
  json deep = {{"model", {{"layers", 2048}, {"hidden", 64}, {"heads", 1}, {"seq", 64}, {"vocab", 64}}},
               {"hardware", "h100-sxm"},
               {"cluster", {{"gpus", 1024}}},
               {"parallel", {{"pp", 1024}, {"global_batch", 1024}}}};
  const auto [step, check] = step_and_check(deep);
  ASSERT_TRUE(parascope::is_error_response(step)) << step.substr(0, 200);
  EXPECT_EQ(json::parse(step)["error"]["code"], "too_large");
  EXPECT_EQ(check, step);
}

TEST(StepCheck, DualPipeOnAnOddPipelineIsRefusedAsStepRefusesIt) {
  expect_agree(run("gpt3-175b", "a100-80gb", 64, {{"tp", 8}, {"global_batch", 64}, {"schedule", "dualpipe"}}));
  expect_agree(
      run("gpt3-175b", "a100-80gb", 48, {{"tp", 16}, {"pp", 3}, {"global_batch", 64}, {"schedule", "dualpipe"}}));
}

TEST(StepCheck, RefusesBadRequestsAsStepDoes) {
  const std::vector<json> bad = {
      json{{"model", "gpt3-175b"}, {"hardware", "a100-80gb"}, {"cluster", {{"gpus", 64}}}},  // no parallel
      run("gpt3-175b", "a100-80gb", 64, {{"tp", 8}}),                                        // no global_batch
      run("no-such-model", "a100-80gb", 64, {{"global_batch", 64}}),
      run("gpt3-175b", "a100-80gb", 64, {{"tp", 8}, {"global_batch", 64}, {"schedule", "2f2b"}}),
      json{{"model", "gpt3-175b"},
           {"hardware", "a100-80gb"},
           {"cluster", {{"gpus", 64}}},
           {"parallel", {{"global_batch", 64}}},
           {"efficency", json::object()}},  // misspelt field
      json{{"model", "gpt3-175b"},
           {"hardware", "a100-80gb"},
           {"cluster", {{"gpus", 64}}},
           {"parallel", {{"global_batch", 64}}},
           {"precision", "fp8"}},  // A100: no FP8 tensor cores
  };
  for (const json& request : bad) {
    const auto [step, check] = step_and_check(request);
    ASSERT_TRUE(parascope::is_error_response(step)) << request.dump();
    EXPECT_EQ(check, step) << request.dump();
  }
}

}  // namespace
