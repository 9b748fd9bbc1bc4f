// Timing a compiled pipeline graph (one pass over arrays) and measuring a timeline: makespan, bubbles, activations.
#include <algorithm>

#include "pipeline_compiled.hpp"

namespace parascope::detail {

PipelineMetrics timeline_metrics(int parts, const std::vector<double>& busy, const std::vector<double>& first,
                                 const std::vector<double>& last, const std::vector<int>& peak_activations) {
  PipelineMetrics out;
  double useful = 0, spans = 0;
  for (std::size_t s = 0; s < busy.size(); ++s) {
    out.makespan = std::max(out.makespan, last[s]);
    useful += busy[s];
    if (first[s] <= last[s]) spans += last[s] - first[s];
  }
  out.busy = busy;
  const double capacity = double(busy.size()) * out.makespan;
  // Clamped to [0, 1]: a stage's span (last end − first start) and its busy time (a sum of op durations) are rounded
  // differently, so a stage with no idle time can come out a few ulps "busier than its span". The pipeline op refuses
  // op lengths too far apart for the timeline's doubles to resolve (op_pipeline.cpp), so only rounding is left here.
  out.bubble_fraction = capacity > 0 ? std::clamp(1 - useful / capacity, 0.0, 1.0) : 0;
  out.steady_bubble_fraction = spans > 0 ? std::clamp(1 - useful / spans, 0.0, 1.0) : 0;
  out.peak_activations = peak_activations;
  out.chunk_model_fraction = 1.0 / double(parts);
  return out;
}

void add_busy(const CompiledPipeline& c, const PipelineTimes& t, Timed& out) {
  const double duration[3] = {t.f, t.b, t.w};
  out.busy.assign(std::size_t(c.p), 0.0);
  for (std::size_t s = 0; s < std::size_t(c.p); ++s) {
    for (std::size_t k = 0; k < 3; ++k) out.busy[s] += double(c.counts[s][k]) * duration[k];
  }
}

void time_ops(const CompiledPipeline& c, const PipelineTimes& t, Timed& out) {
  Clock clock(t, out, c.begin);
  const CompiledPred* preds = c.preds.data();
  for (const CompiledOp& op : c.ops) {
    clock.run(op.stage, op.kind, op.pos, preds + op.first_pred, preds + op.first_pred + op.pred_count);
  }
  add_busy(c, t, out);
}

PipelineMetrics timed_metrics(const CompiledPipeline& c, const Timed& timed, const std::vector<double>& busy,
                              const std::vector<double>& last, std::int64_t extra_sends) {
  PipelineMetrics out = timeline_metrics(c.parts, busy, timed.first, last, c.peak_activations);
  // The critical path ends on the stage that finishes last (the first such stage on a tie).
  const auto critical = std::size_t(std::max_element(last.begin(), last.end()) - last.begin());
  out.critical_sends = timed.last_sends[critical] + extra_sends;
  return out;
}

}  // namespace parascope::detail
