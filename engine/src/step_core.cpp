// The cost model's first phase: each kind of layer timed once, every stage's op times from its real layers (the
// output layer on the last), the slowest stage, the stage-to-stage send and the FLOPs MFU counts.
#include "step_core.hpp"

#include <algorithm>

#include "kernel_model.hpp"
#include "parascope/stages.hpp"

namespace parascope::detail {

namespace {

/// The output layer's seconds for one microbatch (forward, backward, and its GEMMs' math), on the last stage's last
/// chunk (Megatron places it there).
struct LogitsSeconds {
  double fwd = 0, bwd = 0, math = 0;
};
LogitsSeconds logits_seconds(const TrainingRun& run, const Efficiency& eff) {
  const LogitsTimes logits_t = logits_kernel_times(run, eff);
  const double logits_gemm = logits_t.gemm_fwd;
  LogitsSeconds s;
  s.fwd = logits_gemm + logits_t.mem_fwd;
  s.bwd = 2.0 * logits_gemm + ChunkTimes::kMemBackward * logits_t.mem_fwd;
  s.math = 3.0 * logits_gemm;
  return s;
}

/// The two kinds of layer a stage mixes, each timed once: a dense-FFN layer and an MoE layer.
struct LayerKinds {
  ChunkTimes dense, moe;
};
LayerKinds layer_kinds(const TrainingRun& run, const Efficiency& eff, const LayerWork& work, const LayerComm& comm) {
  LayerKinds k;
  if (!run.model.is_moe()) {
    // A dense model has no MoE layer whatever first_dense_layers and moe_layer_freq say (ModelShape::moe_layers), so
    // both kinds of layer are the run's own layer: the same numbers, timed once.
    k.dense = k.moe = layer_times(run, eff, work, comm);
  } else {
    const TrainingRun dense_run = with_layer_kind(run, false), moe_run = with_layer_kind(run, true);
    const LayerWork dense_work = layer_work(dense_run, eff), moe_work = layer_work(moe_run, eff);
    k.dense = layer_times(dense_run, eff, dense_work, layer_comm(dense_run, eff, dense_work));
    k.moe = layer_times(moe_run, eff, moe_work, layer_comm(moe_run, eff, moe_work));
  }
  return k;
}

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
  for (std::int64_t s = 0; s < p.pp; ++s) {
    const StageLayerCounts& n = stages[std::size_t(s)];
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
  if (p.pp > 1) {
    const Link link = link_of(place_group(run.cluster, p, Axis::pipeline), eff);
    c.p2p_bytes = work.tokens * double(run.model.hidden) * 2.0 / double(p.tp);
    c.p2p = link.latency + c.p2p_bytes / link.bandwidth;
  }
}

}  // namespace

void build_core(const TrainingRun& run, const Efficiency& eff, StepCore& c) {
  const ModelShape& m = run.model;
  const ParallelConfig& p = run.parallel;
  c.r.parallel = p;
  c.r.microbatches = p.microbatches();
  c.r.stage_layers = stage_layer_counts(m.layers, p);
  c.mb = double(c.r.microbatches);
  const double chunks = double(p.pp * p.vpp);

  const LayerWork work = layer_work(run, eff);
  c.comm = layer_comm(run, eff, work);
  c.logits = logits_work(run);
  const LogitsSeconds logits = logits_seconds(run, eff);
  c.logits_math = logits.math;
  const LayerKinds kinds = layer_kinds(run, eff, work, c.comm);
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
  // MFU and HFU count the model's FLOPs per token (PaLM App. B): fixed by the model and the recomputation.
  // With FlashAttention, selective recomputation (Korthikanti's: the attention core) has nothing left to do: the fused
  // kernel stores no score matrix and its backward rebuilds the scores anyway, which the attention backward's time
  // already holds. So the hardware does the FLOPs of no recomputation (and selective costs and saves nothing).
  const Recompute counted = p.recompute == Recompute::selective && eff.flash_attention ? Recompute::none : p.recompute;
  c.flops = flops_per_token(m, eff.attention, counted);
}

void StepCoreDeleter::operator()(StepCore* core) const { delete core; }

StepCorePtr step_core(const TrainingRun& run, const Efficiency& eff, bool with_schedule) {
  StepCorePtr core(new StepCore);
  build_core(run, eff, *core);
  if (with_schedule) schedule_core(run, *core);
  return core;
}

}  // namespace parascope::detail
