// The schedule registry: one entry per pipeline schedule. Everything else (the pipeline op's choices, the cost
// model's and memory model's rules, the presets op's list, the planner's enumeration) reads it from here.
#include "schedule_registry.hpp"

namespace parascope {

namespace detail {

namespace {

// Each schedule's public description: id, label, splits backward, interleaves, forward-only, holds two stages, pairs
// all-to-alls, source. Apart from the pieces below: the presets op lists these in every wasm module, and reading them
// from kRegistry would keep every piece (the pipeline engine's code) in modules that never run a pipeline.
constexpr ScheduleInfo kInfo[] = {
    {Schedule::gpipe, "gpipe", "GPipe", false, false, true, false, false, "Huang et al. 2019 (GPipe), Sec. 2.3"},
    {Schedule::one_f_one_b, "1f1b", "1F1B", false, false, false, false, false,
     "Narayanan et al. 2021 (Megatron-LM, PipeDream-Flush), Sec. 2.2.1"},
    {Schedule::interleaved, "interleaved", "Interleaved 1F1B", false, true, true, false, false,
     "Narayanan et al. 2021 (Megatron-LM), Sec. 2.2.2"},
    {Schedule::zb_h1, "zb-h1", "Zero bubble H1", true, false, false, false, false,
     "Qi et al. 2024 (Zero Bubble Pipeline Parallelism), Sec. 2.1"},
    {Schedule::zb_h2, "zb-h2", "Zero bubble H2", true, false, false, false, false,
     "Qi et al. 2024 (Zero Bubble Pipeline Parallelism), Sec. 2.2"},
    {Schedule::dualpipe, "dualpipe", "DualPipe", true, false, false, true, true,
     "DeepSeek-AI 2024 (DeepSeek-V3 technical report), Sec. 3.2.1"},
};

// Each schedule's pieces, in kInfo's order: orders, steady unit, rule. Its closed form is looked up apart
// (closed_form_of, pipeline_closed_form.cpp), so that only the pipeline op's code links them.
constexpr ScheduleEntry kRegistry[] = {
    {kInfo[0], gpipe_orders, nullptr, nullptr},
    {kInfo[1], one_f_one_b_orders, one_f_one_b_steady, nullptr},
    {kInfo[2], interleaved_orders, interleaved_steady, interleaved_rule},
    {kInfo[3], zb_h1_orders, zb_h1_steady, nullptr},
    {kInfo[4], nullptr, nullptr, nullptr},
    {kInfo[5], dualpipe_orders, dualpipe_steady, dualpipe_rule},
};
static_assert(sizeof(kRegistry) / sizeof(kRegistry[0]) == sizeof(kInfo) / sizeof(kInfo[0]));

}  // namespace

const ScheduleEntry& schedule_entry(Schedule schedule) {
  for (const ScheduleEntry& e : kRegistry) {
    if (e.info.schedule == schedule) return e;
  }
  return kRegistry[1];  // unreachable: every Schedule has an entry (tests/engine/schedule_registry_test.cpp)
}

}  // namespace detail

const std::vector<ScheduleInfo>& schedules() {
  static const std::vector<ScheduleInfo> list = [] {
    std::vector<ScheduleInfo> out;
    for (const ScheduleInfo& info : detail::kInfo) out.push_back(info);
    return out;
  }();
  return list;
}

const ScheduleInfo& schedule_info(Schedule schedule) {
  for (const ScheduleInfo& info : detail::kInfo) {
    if (info.schedule == schedule) return info;
  }
  return detail::kInfo[1];  // unreachable: every Schedule has an entry (tests/engine/schedule_registry_test.cpp)
}

std::optional<Schedule> parse_schedule(std::string_view id) {
  for (const ScheduleInfo& info : detail::kInfo) {
    if (info.id == id) return info.schedule;
  }
  return std::nullopt;
}

std::string_view schedule_id(Schedule schedule) { return schedule_info(schedule).id; }

const std::vector<std::string_view>& schedule_ids() {
  static const std::vector<std::string_view> ids = [] {
    std::vector<std::string_view> out;
    for (const ScheduleInfo& s : schedules()) out.push_back(s.id);
    return out;
  }();
  return ids;
}

}  // namespace parascope
