// Pipeline rules a reader can reach from the bubble widget: what the engine refuses (and says first), the check_only
// request that answers the same without simulating, and closed forms that agree with the simulation they sit beside.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <string>

#include "parascope/api.hpp"
#include "parascope/error.hpp"
#include "parascope/pipeline.hpp"
#include "pipeline_request.hpp"

namespace {

using nlohmann::json;
using parascope::PipelineSpec;
using parascope::Schedule;

using parascope::testing::ask_pipeline;
const auto& ask = ask_pipeline;
const auto& error_of = parascope::testing::pipeline_error_of;

const char* const kSchedules[] = {"gpipe", "1f1b", "interleaved", "zb-h1", "zb-h2", "dualpipe"};

TEST(PipelineRules, DualPipeOnOneStageIsRefusedForItsOddStageCount) {
  // One stage cannot pair rank r with rank p−1−r; it used to be accepted and printed "(1/2−1)(…) = 0/3".
  json e = error_of({{"schedule", "dualpipe"}, {"stages", 1}, {"microbatches", 4}});
  EXPECT_EQ(e["code"], "inconsistent");
  EXPECT_EQ(e["field"], "stages");
  EXPECT_EQ(e["message"].get<std::string>().rfind("dualpipe needs an even number of stages: ", 0), 0u) << e.dump();
}

TEST(PipelineRules, TheCostModelStillTimesOneStageUnderDualPipeAsNoPipelineAtAll) {
  // step with pp = 1 and schedule dualpipe: one stage runs F, B, W per microbatch in turn, never idle.
  PipelineSpec spec;
  spec.schedule = Schedule::dualpipe;
  spec.stages = 1;
  spec.microbatches = 7;
  spec.times = parascope::default_times(Schedule::dualpipe);
  spec.record_ops = false;
  const auto m = parascope::pipeline_metrics(spec);
  EXPECT_DOUBLE_EQ(m.makespan, 7 * 3.0);
  EXPECT_DOUBLE_EQ(m.bubble_fraction, 0);
}

TEST(PipelineRules, TheForwardHalfAloneIsOfferedOnlyWhereItIsTheSchedulesStory) {
  // 1F1B, ZB-H1, ZB-H2 and DualPipe are defined by where they place backward passes; without them each would be
  // GPipe's forward half under another name, beside a closed form about the whole pass (ZB-H1 "11.1 %" next to a
  // simulated 27.3 %).
  for (const char* id : {"1f1b", "zb-h1", "zb-h2", "dualpipe"}) {
    json e = error_of({{"schedule", id}, {"stages", 4}, {"microbatches", 8}, {"forward_only", true}});
    EXPECT_EQ(e["code"], "inconsistent") << id;
    EXPECT_EQ(e["field"], "forward_only") << id;
    EXPECT_EQ(e["message"].get<std::string>().rfind(std::string(id) + " is drawn with its backward passes: ", 0), 0u)
        << e.dump();
  }
  for (json request : {json{{"schedule", "gpipe"}, {"stages", 4}, {"microbatches", 8}},
                       json{{"schedule", "interleaved"}, {"stages", 4}, {"microbatches", 8}, {"chunks", 2}}}) {
    request["forward_only"] = true;
    request["include_ops"] = false;
    EXPECT_FALSE(ask(request).contains("error")) << request.dump();
  }
}

TEST(PipelineRules, InterleavedSaysItsRuleFirst) {
  json e = error_of({{"schedule", "interleaved"}, {"stages", 4}, {"microbatches", 9}, {"chunks", 2}});
  EXPECT_EQ(e["field"], "microbatches");
  EXPECT_EQ(
      e["message"].get<std::string>().rfind("interleaved needs microbatches in a multiple of stages (4) or fewer: ", 0),
      0u)
      << e.dump();
}

TEST(PipelineRules, CheckOnlyRefusesExactlyWhatTheFullRequestRefusesAndBuildsNothing) {
  int accepted = 0, refused = 0;
  for (const char* id : kSchedules) {
    for (int p = 1; p <= 9; ++p) {
      for (int m = 1; m <= 21; ++m) {
        for (int v = 1; v <= 3; ++v) {
          for (bool forward : {false, true}) {
            json request = {{"schedule", id},          {"stages", p},         {"microbatches", m}, {"chunks", v},
                            {"forward_only", forward}, {"include_ops", false}};
            const json full = ask(request);
            request["check_only"] = true;
            const json check = ask(request);
            if (full.contains("error")) {
              EXPECT_EQ(check, full) << request.dump();
              ++refused;
            } else {
              EXPECT_EQ(check, json({{"valid", true}})) << request.dump();
              ++accepted;
            }
          }
        }
      }
    }
  }
  EXPECT_GT(accepted, 1000);
  EXPECT_GT(refused, 1000);
  // Too large to build is refused at once, like the full request.
  EXPECT_EQ(error_of({{"schedule", "interleaved"},
                      {"stages", 1024},
                      {"microbatches", 65536},
                      {"chunks", 64},
                      {"check_only", true}})["code"],
            "too_large");
}

TEST(PipelineRules, EveryInconsistentRefusalStartsWithItsRuleBeforeAColon) {
  for (json request : {json{{"schedule", "dualpipe"}, {"stages", 3}, {"microbatches", 8}},
                       json{{"schedule", "dualpipe"}, {"stages", 4}, {"microbatches", 9}},
                       json{{"schedule", "dualpipe"}, {"stages", 4}, {"microbatches", 6}},
                       json{{"schedule", "1f1b"}, {"stages", 4}, {"microbatches", 8}, {"chunks", 2}},
                       json{{"schedule", "interleaved"}, {"stages", 8}, {"microbatches", 12}, {"chunks", 2}}}) {
    const std::string message = error_of(request)["message"];
    const auto colon = message.find(": ");
    ASSERT_NE(colon, std::string::npos) << message;
    EXPECT_LT(colon, 90u) << "a rule short enough to sit beside a control: " << message;
  }
}

TEST(PipelineRules, AClosedFormWithAValueAgreesWithTheSimulationItPredicts) {
  // Every state the widget reaches with the default times (f, b, w as the API's defaults, comm = 0), on a grid:
  // whenever the engine quotes a value, the simulated metric it names is that value.
  int quoted = 0, unquoted = 0;
  for (const char* id : kSchedules) {
    for (int p = 1; p <= 12; ++p) {
      for (int m = 1; m <= 40; ++m) {
        for (int v = 1; v <= (std::string(id) == "interleaved" ? 4 : 1); ++v) {
          for (bool forward : {false, true}) {
            const json r = ask({{"schedule", id},
                                {"stages", p},
                                {"microbatches", m},
                                {"chunks", v},
                                {"forward_only", forward},
                                {"include_ops", false}});
            if (r.contains("error")) continue;
            const json& cf = r["closed_form"];
            if (cf["value"].is_null()) {
              ++unquoted;
              EXPECT_FALSE(cf["condition"].get<std::string>().empty());
              continue;
            }
            ++quoted;
            EXPECT_NEAR(r[cf["measure"].get<std::string>()].get<double>(), cf["value"].get<double>(), 1e-9)
                << id << " p=" << p << " m=" << m << " v=" << v << " forward_only=" << forward;
          }
        }
      }
    }
  }
  EXPECT_GT(quoted, 2000);
  EXPECT_GT(unquoted, 0);
}

}  // namespace
