/// The pipeline schedules the engine knows, one registry entry each (engine/src/schedule_registry.cpp: id, label, what
/// sets the schedule apart, its op-order generator, steady-phase unit, closed form and validity rule), and the domain
/// error for pipeline settings a schedule refuses. Adding a schedule is one entry there plus its order generator.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "parascope/error.hpp"

namespace parascope {

enum class Schedule { gpipe, one_f_one_b, interleaved, zb_h1, zb_h2, dualpipe };

/// The pipeline setting a refusal blames. Callers name it in their own words (the "pipeline" op says "stages",
/// "step" says "parallel.pp"): each op layer maps these to its field names.
enum class PipelineKnob { stages, microbatches, chunks, forward_only, time_f, time_b, time_w, time_comm, size };

/// Pipeline settings refused: a RequestError with a stable code and a message that states the rule first (up to the
/// first colon), no field (the domain does not know the caller's field names), and the knob at fault.
struct PipelineError : RequestError {
  PipelineError(std::string code_, std::string message_, PipelineKnob knob_)
      : RequestError(std::move(code_), std::move(message_), ""), knob(knob_) {}
  PipelineKnob knob;
};

/// One schedule as callers see it.
struct ScheduleInfo {
  Schedule schedule;
  std::string_view id;      ///< the API's name: "1f1b"
  std::string_view label;   ///< the name readers see: "1F1B"
  bool splits_backward;     ///< B (input gradient) and W (weight gradient) run as separate ops
  bool interleaves;         ///< runs v model chunks per GPU (chunks / vpp > 1)
  bool forward_only;        ///< may be drawn as its forward half alone
  bool holds_two_stages;    ///< each GPU holds two stages' parameters (DualPipe feeds both ends of the pipe)
  bool pairs_all_to_all;    ///< runs a forward and a backward chunk as one pair that hides each other's all-to-alls
  std::string_view source;  ///< paper and section
};

/// Every schedule, in the order readers are shown them.
const std::vector<ScheduleInfo>& schedules();
const ScheduleInfo& schedule_info(Schedule schedule);
std::optional<Schedule> parse_schedule(std::string_view id);
std::string_view schedule_id(Schedule schedule);
/// Every schedule's id, in the registry's order.
const std::vector<std::string_view>& schedule_ids();

}  // namespace parascope
