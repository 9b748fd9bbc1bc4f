/// The schedule registry's entries in full: each schedule's public description (parascope/schedule.hpp) and the
/// pieces the pipeline engine runs for it. One entry per schedule, in engine/src/schedule_registry.cpp.
#pragma once

#include <optional>

#include "pipeline_detail.hpp"

namespace parascope::detail {

class Program;
struct SteadyPhase;

struct ScheduleEntry {
  ScheduleInfo info;
  /// Appends stage s's program for p stages, m microbatches and v chunks; nullptr when the order is decided while
  /// simulating (zb-h2, simulate_zb_h2).
  void (*orders)(Program& prog, int p, int m, int v, int s);
  /// The repeating unit of its steady phase (pipeline_steady_phase.cpp); nullptr or false: no steady phase.
  bool (*steady_unit)(const PipelineSpec& spec, SteadyPhase& phase);
  /// Its own rule on stages, microbatches and chunks, beyond the shared ones; nullptr: none.
  std::optional<PipelineError> (*rule)(const PipelineSpec& spec);
};

const ScheduleEntry& schedule_entry(Schedule schedule);

// The pieces, defined beside their kind (pipeline_orders.cpp, pipeline_steady_phase.cpp, pipeline_closed_form.cpp,
// pipeline.cpp).
void gpipe_orders(Program& prog, int p, int m, int v, int s);
void one_f_one_b_orders(Program& prog, int p, int m, int v, int s);
void interleaved_orders(Program& prog, int p, int m, int v, int s);
void zb_h1_orders(Program& prog, int p, int m, int v, int s);
void dualpipe_orders(Program& prog, int p, int m, int v, int s);

bool one_f_one_b_steady(const PipelineSpec& spec, SteadyPhase& phase);
bool interleaved_steady(const PipelineSpec& spec, SteadyPhase& phase);
bool zb_h1_steady(const PipelineSpec& spec, SteadyPhase& phase);
bool dualpipe_steady(const PipelineSpec& spec, SteadyPhase& phase);

/// The bubble a schedule is known for, at the spec's numbers (its `measure` starts as "bubble_fraction"). Not in the
/// entries: only the pipeline op (run_pipeline) quotes it, and a table entry would link every closed form, and their
/// sentences, into each wasm module that costs a step (~1.7-1.9 KB gzip of the timeline and memory modules).
using ClosedFormFn = void (*)(const PipelineSpec& spec, PipelineClosedForm& out);
ClosedFormFn closed_form_of(Schedule schedule);
void fill_drain_closed_form(const PipelineSpec& spec, PipelineClosedForm& out);  // gpipe and 1f1b
void interleaved_closed_form(const PipelineSpec& spec, PipelineClosedForm& out);
void zb_h1_closed_form(const PipelineSpec& spec, PipelineClosedForm& out);
void zb_h2_closed_form(const PipelineSpec& spec, PipelineClosedForm& out);
void dualpipe_closed_form(const PipelineSpec& spec, PipelineClosedForm& out);

std::optional<PipelineError> interleaved_rule(const PipelineSpec& spec);
std::optional<PipelineError> dualpipe_rule(const PipelineSpec& spec);

}  // namespace parascope::detail
