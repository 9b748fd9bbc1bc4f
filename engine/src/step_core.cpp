// The cost model's first phase: from each kind of layer's times (layer_part), every stage's op times from its real
// layers (the output layer on the last), the slowest stage, the stage-to-stage send and the FLOPs MFU counts.
#include "step_core.hpp"

#include <algorithm>

#include "layer_part.hpp"
#include "parascope/stages.hpp"

namespace parascope::detail {

namespace {

/// The slowest stage (the most forward + backward seconds), its layers' seconds per chunk, and the longest forward
/// and backward of any stage's chunk.
struct SlowestStage {
  std::int64_t stage = 0;
  double max_f = 0, max_b = 0;
  ChunkTimes per_chunk;
};
SlowestStage slowest_stage(const TrainingRun& run, const LayerKinds& kinds, const std::vector<StageLayerCounts>& stages,
                           const LogitsSeconds& logits) {
  // Each stage's work from its real layers (stages.hpp: the balanced rule or first/last_stage_layers), dense-FFN
  // and MoE layers timed apart, the output layer on the last stage. The schedule runs uniform ops, so each op
  // carries the slowest stage's work spread over its vpp chunks; spreading it keeps an interleaved stage's total
  // right instead of multiplying its one heavy chunk by vpp.
  const ParallelConfig& p = run.parallel;
  const double vpp = double(p.vpp);
  SlowestStage out;
  double slowest_total = -1;
  // A stage before the last with the layer counts of an earlier one has its f and b, so it changes neither maximum
  // nor (not being strictly slower) the slowest stage: only the first of each kind is timed (a few, whatever pp).
  StageLayerCounts seen[8];
  std::size_t kinds_seen = 0;
  for (std::int64_t s = 0; s < p.pp; ++s) {
    const StageLayerCounts& n = stages[std::size_t(s)];
    if (s < p.pp - 1) {
      std::size_t k = 0;
      while (k < kinds_seen && (seen[k].layers != n.layers || seen[k].moe != n.moe)) ++k;
      if (k < kinds_seen) continue;
      if (kinds_seen < 8) seen[kinds_seen++] = n;
    }
    const ChunkTimes stage = kinds.dense.scaled(double(n.layers - n.moe)).plus(kinds.moe.scaled(double(n.moe)));
    const bool last = s == p.pp - 1;
    const double f = stage.forward() + (last ? logits.fwd : 0.0), b = stage.backward() + (last ? logits.bwd : 0.0);
    out.max_f = std::max(out.max_f, f / vpp);
    out.max_b = std::max(out.max_b, b / vpp);
    if (f + b > slowest_total) {
      slowest_total = f + b;
      out.stage = s;
      out.per_chunk = stage.scaled(1.0 / vpp);
    }
  }
  return out;
}

/// One stage-to-stage send of a microbatch's activations (or their gradient): seconds and bytes; none at pp = 1.
void stage_send(const TrainingRun& run, const Efficiency& eff, const LayerWork& work, StepCore& c) {
  // Each stage boundary sends the microbatch's activations forward and their gradient back; with tp > 1 each rank
  // sends 1/tp and the rest is all-gathered over NVLink (Narayanan et al. 2021, Sec. 4.1).
  const ParallelConfig& p = run.parallel;
  c.p2p = c.p2p_bytes = 0;  // none at pp = 1 (rebuild_step_core reuses a core that may have had sends)
  if (p.pp > 1) {
    const Link link = link_of(place_group(run.cluster, p, Axis::pipeline), eff);
    c.p2p_bytes = work.tokens * double(run.model.hidden) * 2.0 / double(p.tp);
    c.p2p = link.latency + c.p2p_bytes / link.bandwidth;
  }
}

}  // namespace

void build_core(const TrainingRun& run, const Efficiency& eff, StepCore& c, LayerMemo* memo) {
  const ModelShape& m = run.model;
  const ParallelConfig& p = run.parallel;
  c.r.parallel = p;
  c.r.microbatches = p.microbatches();
  c.mb = double(c.r.microbatches);
  const double chunks = double(p.pp * p.vpp);

  LayerPart scratch;
  const LayerPart& part = layer_part(run, eff, memo, scratch);
  const LayerWork& work = part.work;
  c.comm = part.comm;
  c.logits = part.logits;
  const LogitsSeconds& logits = part.logits_seconds;
  c.logits_math = logits.math;
  const LayerKinds& kinds = part.kinds;
  // The average chunk: the model's dense-FFN and MoE layers over the pp·vpp chunks.
  const double moe_layers = double(m.moe_layers());
  c.avg = kinds.dense.scaled(double(m.layers) - moe_layers).plus(kinds.moe.scaled(moe_layers)).scaled(1.0 / chunks);
  c.stages = stage_layer_kinds(run);
  const SlowestStage slowest = slowest_stage(run, kinds, c.stages, logits);
  c.slowest_stage = slowest.stage;
  c.max_f = slowest.max_f;
  c.max_b = slowest.max_b;
  c.avg_f = c.avg.forward() + logits.fwd / chunks;
  c.avg_b = c.avg.backward() + logits.bwd / chunks;
  stage_send(run, eff, work, c);

  // Zero-bubble and DualPipe split the backward into input-gradient (B) and weight-gradient (W) passes; W runs the
  // weight-gradient GEMMs, half of the backward GEMM FLOPs (Qi et al. 2023, Sec. 2).
  c.w_part = schedule_info(p.schedule).splits_backward ? slowest.per_chunk.gemm_wgrad : 0.0;
  // layer_part's counted_recompute says which recomputation MFU and HFU count. The numbers only: flop_utilization
  // writes the formula's text when asked for it (a string copied per core cost the planner an allocation each).
  c.flops.model = part.flops.model;
  c.flops.hardware = part.flops.hardware;
}

void StepCoreDeleter::operator()(StepCore* core) const { delete core; }

StepCorePtr step_core(const TrainingRun& run, const Efficiency& eff, bool with_schedule, LayerMemo* memo) {
  StepCorePtr core(new StepCore);
  build_core(run, eff, *core, memo);
  if (with_schedule) schedule_core(run, *core);
  return core;
}

void rebuild_step_core(StepCorePtr& core, const TrainingRun& run, const Efficiency& eff, LayerMemo* memo) {
  if (!core) {
    core = step_core(run, eff, false, memo);
    return;
  }
  // Every field build_core does not set is schedule_core's, which the reset flag makes it set again before use.
  StepCore& c = *core;
  c.r = StepResult{};
  c.scheduled_done = false;
  build_core(run, eff, c, memo);
}

bool step_core_scheduled(const StepCore& core) { return core.scheduled_done; }

}  // namespace parascope::detail
