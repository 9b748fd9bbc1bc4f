// Each stage's ops for the timeline, from the cost model's own per-kind layer times (layer_times, layer_comm,
// layer_work: the functions layer_part calls) summed over the stage's real layers as step_core's slowest_stage does.
#include "timeline_work.hpp"

#include <algorithm>

#include "kernel_model.hpp"

namespace parascope::detail {

namespace {

KindDetail kind_detail(const TrainingRun& run, const Efficiency& eff) {
  KindDetail k;
  k.work = layer_work(run, eff);
  k.comm = layer_comm(run, eff, k.work);
  k.t = layer_times(run, eff, k.work, k.comm);
  return k;
}

/// FLOPs of one layer's weight GEMMs and of its attention core, forward, for one microbatch on this GPU.
double gemm_flops(const LayerWork& w) { return w.attn_proj_flops + w.dense_ffn_flops + w.expert_ffn_flops; }

/// The FLOPs recomputation repeats in one layer's backward (layer_times' kernel_times: the same three policies).
double recompute_flops(const TrainingRun& run, const Efficiency& eff, const LayerWork& w) {
  switch (run.parallel.recompute) {
    case Recompute::full:
      return gemm_flops(w) + w.attention_core_flops;
    case Recompute::op: {
      const ParamCounts params = count_params(run.model);
      return op_recomputed_params_per_layer(run.model) / (params.attention_per_layer + params.dense_ffn_per_layer) *
             gemm_flops(w);
    }
    case Recompute::selective:
      return eff.flash_attention ? 0.0 : w.attention_core_flops;
    default:
      return 0.0;
  }
}

/// `layers` layers of kind `k` added to a forward op and a backward op (ChunkTimes::forward and backward, split).
void add_layers(const TrainingRun& run, const Efficiency& eff, const KindDetail& k, double layers, OpWork& f,
                OpWork& b) {
  if (layers <= 0) return;
  const ChunkTimes& t = k.t;
  const LayerComm& c = k.comm;
  f.kernels += layers * (t.gemm_fwd + t.attn_fwd + t.launch_fwd);
  f.memory += layers * t.mem_fwd;
  b.kernels += layers * (t.gemm_bwd + 2.0 * t.attn_fwd + ChunkTimes::kLaunchBackward * t.launch_fwd + t.recompute -
                         t.recompute_mem);
  b.memory += layers * (ChunkTimes::kMemBackward * t.mem_fwd + t.recompute_mem);
  f.tp += layers * t.tp_fwd, b.tp += layers * t.tp_bwd;
  f.ep += layers * t.ep_fwd, b.ep += layers * t.ep_bwd;
  f.cp += layers * t.cp_fwd, b.cp += layers * t.cp_bwd;
  f.tp_full += layers * c.tp_fwd, b.tp_full += layers * c.tp_bwd;
  f.ep_full += layers * c.ep_fwd, b.ep_full += layers * c.ep_bwd;
  f.cp_full += layers * c.cp_fwd, b.cp_full += layers * c.cp_bwd;
  // The slowdown layer_times' expose_comm adds to the GEMMs for what the collectives hide under them.
  f.interference +=
      layers * overlap_slowdown(eff, (c.tp_fwd - t.tp_fwd) + (c.ep_fwd - t.ep_fwd) + (c.cp_fwd - t.cp_fwd));
  b.interference +=
      layers * overlap_slowdown(eff, (c.tp_bwd - t.tp_bwd) + (c.ep_bwd - t.ep_bwd) + (c.cp_bwd - t.cp_bwd));
  const double forward = gemm_flops(k.work) + k.work.attention_core_flops;
  f.flops += layers * forward;
  b.flops += layers * (2.0 * forward + recompute_flops(run, eff, k.work));
  // A layer's bytes split between forward and backward in proportion to the seconds each direction takes on the link.
  auto split = [&](double bytes, double count, double fwd, double bwd, OpWork& into_f, OpWork& into_b,
                   double OpWork::*by, double OpWork::*n) {
    const double share = fwd + bwd > 0 ? fwd / (fwd + bwd) : 0.5;
    into_f.*by += layers * bytes * share, into_b.*by += layers * bytes * (1.0 - share);
    into_f.*n += layers * count * share, into_b.*n += layers * count * (1.0 - share);
  };
  split(c.tp_bytes, c.tp_count, c.tp_fwd, c.tp_bwd, f, b, &OpWork::tp_bytes, &OpWork::tp_count);
  split(c.ep_bytes, c.ep_count, c.ep_fwd, c.ep_bwd, f, b, &OpWork::ep_bytes, &OpWork::ep_count);
  split(c.cp_bytes, c.cp_count, c.cp_fwd, c.cp_bwd, f, b, &OpWork::cp_bytes, &OpWork::cp_count);
}

OpWork scaled(OpWork o, double k) {
  for (double* v :
       {&o.kernels, &o.memory, &o.tp, &o.ep, &o.cp, &o.tp_full, &o.ep_full, &o.cp_full, &o.interference, &o.flops,
        &o.memory_bytes, &o.tp_bytes, &o.ep_bytes, &o.cp_bytes, &o.tp_count, &o.ep_count, &o.cp_count}) {
    *v *= k;
  }
  return o;
}

}  // namespace

TimelineKinds timeline_kinds(const TrainingRun& run, const Efficiency& eff) {
  TimelineKinds k;
  if (!run.model.is_moe()) {
    k.dense = k.moe = kind_detail(run, eff);  // layer_part's rule: a dense model's one layer, both kinds
  } else {
    k.dense = kind_detail(with_layer_kind(run, false), eff);
    k.moe = kind_detail(with_layer_kind(run, true), eff);
  }
  LayerPart scratch;
  const LayerPart& part = layer_part(run, eff, nullptr, scratch);
  k.logits = part.logits_seconds;
  k.logits_work = part.logits;
  k.hbm = run.hardware.memory_bandwidth * eff.memory_efficiency;
  return k;
}

StageWork stage_work(const TrainingRun& run, const Efficiency& eff, const TimelineKinds& kinds,
                     const StageLayerCounts& n, bool last, double b_slot, double w_slot) {
  StageWork s;
  add_layers(run, eff, kinds.dense, double(n.layers - n.moe), s.f, s.b);
  add_layers(run, eff, kinds.moe, double(n.moe), s.f, s.b);
  if (last) {
    // The output layer (layer_part's logits_seconds): GEMM math/3 forward, 2·math/3 backward, the rest element-wise.
    const LogitsSeconds& l = kinds.logits;
    s.f.kernels += l.math / 3.0, s.f.memory += l.fwd - l.math / 3.0;
    s.b.kernels += 2.0 * l.math / 3.0, s.b.memory += l.bwd - 2.0 * l.math / 3.0;
    s.f.flops += kinds.logits_work.flops, s.b.flops += 2.0 * kinds.logits_work.flops;
  }
  const double vpp = double(run.parallel.vpp);
  s.f = scaled(s.f, 1.0 / vpp);
  s.b = scaled(s.b, 1.0 / vpp);
  s.f.memory_bytes = s.f.memory * kinds.hbm;
  s.b.memory_bytes = s.b.memory * kinds.hbm;
  if (w_slot > 0) {
    // Zero-bubble and DualPipe run the weight-gradient GEMMs as W (step_core: w_part is the slowest stage's). This
    // stage's own, moved so that B and W each fit their slots: their sum always fits (b ≤ the slots' sum).
    const double wgrad =
        (kinds.dense.t.gemm_wgrad * double(n.layers - n.moe) + kinds.moe.t.gemm_wgrad * double(n.moe)) / vpp;
    const double w = std::max(std::min(wgrad, w_slot), s.b.total() - b_slot);
    const double from_kernels = std::min(std::max(0.0, w), s.b.kernels);
    const double from_memory = std::max(0.0, w - from_kernels);
    const double w_flops =
        (gemm_flops(kinds.dense.work) * double(n.layers - n.moe) + gemm_flops(kinds.moe.work) * double(n.moe)) / vpp;
    s.w.kernels = from_kernels;
    s.w.memory = from_memory;
    s.w.flops = std::min(w_flops, s.b.flops);
    s.w.memory_bytes = from_memory * kinds.hbm;
    s.b.kernels -= from_kernels;
    s.b.memory -= from_memory;
    s.b.flops -= s.w.flops;
    s.b.memory_bytes = s.b.memory * kinds.hbm;
    s.b.interference = std::min(s.b.interference, s.b.kernels);
  }
  return s;
}

}  // namespace parascope::detail
