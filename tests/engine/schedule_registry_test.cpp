// The schedule registry: one entry per schedule, ids that round-trip, the rules asked without trying (and the same
// rules when tried), domain refusals named in each op's own words, and the presets op publishing every list.
#include "../../engine/src/schedule_registry.hpp"

#include <gtest/gtest.h>

#include <iterator>
#include <nlohmann/json.hpp>
#include <set>
#include <string>

#include "parascope/api.hpp"
#include "parascope/pipeline.hpp"

namespace {

using nlohmann::json;
using parascope::Schedule;

const Schedule kAll[] = {Schedule::gpipe, Schedule::one_f_one_b, Schedule::interleaved,
                         Schedule::zb_h1, Schedule::zb_h2,       Schedule::dualpipe};

TEST(ScheduleRegistry, EverySchedulehasOneEntryWhoseIdRoundTrips) {
  ASSERT_EQ(parascope::schedules().size(), std::size(kAll));
  std::set<std::string> ids, labels;
  for (const Schedule s : kAll) {
    const parascope::ScheduleInfo& info = parascope::schedule_info(s);
    EXPECT_EQ(info.schedule, s);
    EXPECT_EQ(parascope::parse_schedule(info.id), s);
    EXPECT_EQ(parascope::detail::schedule_entry(s).info.id, info.id);
    EXPECT_NE(parascope::detail::closed_form_of(s), nullptr);
    ids.insert(std::string(info.id));
    labels.insert(std::string(info.label));
  }
  EXPECT_EQ(ids.size(), std::size(kAll));
  EXPECT_EQ(labels.size(), std::size(kAll));
  EXPECT_FALSE(parascope::parse_schedule("2f2b").has_value());
  EXPECT_EQ(parascope::schedule_ids().size(), std::size(kAll));
}

TEST(ScheduleRegistry, TheFlagsAreTheOnesTheCostAndMemoryModelsRelyOn) {
  EXPECT_TRUE(parascope::schedule_info(Schedule::zb_h1).splits_backward);
  EXPECT_TRUE(parascope::schedule_info(Schedule::zb_h2).splits_backward);
  EXPECT_TRUE(parascope::schedule_info(Schedule::dualpipe).splits_backward);
  EXPECT_FALSE(parascope::schedule_info(Schedule::one_f_one_b).splits_backward);
  EXPECT_TRUE(parascope::schedule_info(Schedule::interleaved).interleaves);
  EXPECT_TRUE(parascope::schedule_info(Schedule::dualpipe).holds_two_stages);
  EXPECT_TRUE(parascope::schedule_info(Schedule::dualpipe).pairs_all_to_all);
  for (const Schedule s : kAll) {
    EXPECT_EQ(parascope::schedule_info(s).forward_only, s == Schedule::gpipe || s == Schedule::interleaved);
  }
}

parascope::PipelineSpec spec(Schedule s, int p, int m, int v = 1) {
  parascope::PipelineSpec out;
  out.schedule = s;
  out.stages = p;
  out.microbatches = m;
  out.chunks = v;
  out.times = parascope::default_times(s);
  return out;
}

TEST(ScheduleRegistry, TheValidityRuleIsAskedWithoutTryingAndMatchesWhatTryingThrows) {
  struct Case {
    parascope::PipelineSpec spec;
    bool refused;
    parascope::PipelineKnob knob;
  } cases[] = {
      {spec(Schedule::dualpipe, 3, 12), true, parascope::PipelineKnob::stages},
      {spec(Schedule::dualpipe, 4, 7), true, parascope::PipelineKnob::microbatches},
      {spec(Schedule::dualpipe, 4, 6), true, parascope::PipelineKnob::microbatches},
      {spec(Schedule::dualpipe, 4, 8), false, parascope::PipelineKnob::stages},
      {spec(Schedule::interleaved, 4, 6, 2), true, parascope::PipelineKnob::microbatches},
      {spec(Schedule::interleaved, 4, 8, 2), false, parascope::PipelineKnob::stages},
      {spec(Schedule::one_f_one_b, 4, 8, 2), true, parascope::PipelineKnob::chunks},
      {spec(Schedule::one_f_one_b, 0, 8), true, parascope::PipelineKnob::stages},
      {spec(Schedule::gpipe, 1000, 1000), true, parascope::PipelineKnob::size},
  };
  for (const Case& c : cases) {
    const auto refusal = parascope::pipeline_refusal(c.spec);
    ASSERT_EQ(refusal.has_value(), c.refused) << parascope::schedule_id(c.spec.schedule) << " " << c.spec.stages;
    if (!c.refused) {
      EXPECT_NO_THROW(parascope::check_pipeline(c.spec));
      continue;
    }
    EXPECT_EQ(refusal->knob, c.knob) << refusal->message;
    EXPECT_TRUE(refusal->field.empty());  // the domain does not know the caller's field names
    try {
      parascope::run_pipeline(c.spec);
      ADD_FAILURE() << "not refused when tried";
    } catch (const parascope::PipelineError& e) {
      EXPECT_EQ(e.message, refusal->message);
      EXPECT_EQ(e.knob, refusal->knob);
    }
  }
}

json ask(const json& request) { return json::parse(parascope::call(request.dump())); }

TEST(ScheduleRegistry, EachOpNamesARefusedKnobInItsOwnFields) {
  const json pipeline = ask({{"op", "pipeline"}, {"schedule", "dualpipe"}, {"stages", 3}, {"microbatches", 12}});
  EXPECT_EQ(pipeline["error"]["field"], "stages");
  const json step = ask({{"op", "step"},
                         {"model", "gpt3-175b"},
                         {"hardware", "a100-80gb"},
                         {"cluster", {{"gpus", 24}}},
                         {"parallel", {{"tp", 8}, {"pp", 3}, {"schedule", "dualpipe"}, {"global_batch", 12}}}});
  EXPECT_EQ(step["error"]["field"], "parallel.pp");
  EXPECT_EQ(step["error"]["message"].get<std::string>().rfind("pipeline schedule: dualpipe needs an even number", 0),
            0u);
}

TEST(ScheduleRegistry, ThePresetsOpPublishesEveryFixedList) {
  const json presets = ask({{"op", "presets"}});
  ASSERT_EQ(presets["schedules"].size(), std::size(kAll));
  for (std::size_t i = 0; i < std::size(kAll); ++i) {
    const parascope::ScheduleInfo& info = parascope::schedules()[i];
    EXPECT_EQ(presets["schedules"][i]["id"], std::string(info.id));
    EXPECT_EQ(presets["schedules"][i]["label"], std::string(info.label));
  }
  EXPECT_EQ(presets["recompute"], json({"none", "selective", "full", "op"}));
  EXPECT_EQ(presets["zero"], json({0, 1, 2, 3}));
  EXPECT_EQ(presets["precisions"], json({"bf16", "fp8"}));
  EXPECT_EQ(presets["software"],
            json({"megatron-core", "megatron-2021", "deepspeed", "pytorch", "pytorch-compile", "nanotron", "xla"}));
  // Every published value is one the engine accepts.
  for (const json& s : presets["schedules"]) {
    const json r =
        ask({{"op", "pipeline"}, {"schedule", s["id"]}, {"stages", 2}, {"microbatches", 4}, {"include_ops", false}});
    EXPECT_FALSE(r.contains("error")) << s.dump() << r.dump();
  }
  for (const json& software : presets["software"]) {
    const json r = ask({{"op", "step"},
                        {"model", "gpt2-124m"},
                        {"hardware", "h100-sxm"},
                        {"cluster", {{"gpus", 8}}},
                        {"parallel", {{"global_batch", 8}}},
                        {"software", software}});
    EXPECT_FALSE(r.contains("error")) << software << r.dump();
  }
}

}  // namespace
