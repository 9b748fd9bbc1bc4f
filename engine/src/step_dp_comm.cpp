// The step's data-parallel communication: the gradient all-reduce (ZeRO 0) or reduce-scatter and the parameter
// all-gathers (ZeRO 1-3, FSDP's resharding), over the dense and the expert groups, and what overlap leaves exposed.
#include <algorithm>
#include <tuple>

#include "parascope/collectives.hpp"
#include "step_finish.hpp"

namespace parascope::detail {

namespace {

/// The compute a data-parallel collective can hide behind on the slowest stage's GPU.
struct DpWindows {
  double last_backward = 0;         ///< the last microbatch's backward on this GPU
  double layers_here = 0;           ///< layers whose weights it holds (DualPipe: two stages')
  double layer_f = 0, layer_b = 0;  ///< one layer's forward and backward for one microbatch
};
DpWindows dp_windows(const TrainingRun& run, const StepCore& c, const HeldParams& h) {
  const double vpp = double(run.parallel.vpp);
  DpWindows w;
  w.last_backward = vpp * c.max_b;
  w.layers_here = std::max(1.0, h.held.layers);
  // One layer's compute on this GPU for one microbatch, forward and backward: the window a prefetched collective of
  // the next layer hides behind.
  const double stage_layers = double(std::max<std::int64_t>(1, c.stages[std::size_t(c.slowest_stage)].layers));
  w.layer_f = vpp * c.max_f / stage_layers;
  w.layer_b = vpp * c.max_b / stage_layers;
  return w;
}

/// A chain of `n` per-layer collectives of `each` seconds, each issued one layer ahead (FSDP's forward and backward
/// prefetch, Zhao et al. 2023; Megatron's bucketed --overlap-param-gather / --overlap-grad-reduce):
/// the first is waited for in full, each later one shows only what does not fit behind one layer's `hide` seconds.
double chain(double n, double each, double hide) {
  return n <= 0 ? 0.0 : each + (n - 1.0) * std::max(0.0, each - hide);
}

/// Adds `times` collectives of cost `c` to the step's data-parallel traffic.
void count(DataParallelComm& dp, const CollectiveCost& c, double times) {
  dp.time += times * c.time;
  dp.bytes += times * c.bytes_sent_per_gpu;
  dp.count += times;
}

/// One layer's parameter all-gather and gradient reduce-scatter seconds, over every group (ZeRO ≥ 1).
struct LayerGathers {
  double gather = 0, scatter = 0;
};

/// Counts every group's collectives into `dp` (ZeRO 0's exposed all-reduce too); returns one layer's ZeRO collectives.
LayerGathers count_collectives(const TrainingRun& run, const Efficiency& eff, const StepCore& c, const HeldParams& h,
                               const DpWindows& win, DataParallelComm& dp) {
  // The dense weights reduce over the dp·cp ranks tp apart; an expert shard over its edp ranks, etp·ep apart (the
  // MoE layers' rank order etp, ep, edp: MoE parallel folding), which may sit one per node where the dense group
  // has all its node mates: each group on its own link.
  const ParallelConfig& p = run.parallel;
  const Link dp_link = link_of(place_ranks(run.cluster, h.dp_group, p.tp), eff);
  const Link expert_link = link_of(place_ranks(run.cluster, h.expert_group, p.ep * p.expert_tp()), eff);
  LayerGathers one;
  for (const auto& [params, group, link] :
       {std::tuple{h.held.dense, h.dp_group, dp_link}, std::tuple{h.held.expert, h.expert_group, expert_link}}) {
    if (group <= 1 || params <= 0) continue;
    const double grads = params * eff.grad_reduce_bytes;
    if (p.zero == 0) {
      // Plain data parallelism: one all-reduce of the gradients (Li et al. 2020, PyTorch DDP), overlapped with
      // the last backward when bucketed.
      const CollectiveCost ar = ring_allreduce(group, grads, link);
      count(dp, ar, 1);
      dp.exposed += eff.dp_overlap ? std::max(0.0, ar.time - win.last_backward) : ar.time;
      continue;
    }
    // ZeRO (Rajbhandari et al. 2020, Sec. 5): reduce-scatter the gradients, all-gather the bf16 parameters, one
    // layer at a time.
    const CollectiveCost ag = ring_allgather(group, params * 2.0 / win.layers_here, link);
    const CollectiveCost rs = ring_reducescatter(group, grads / win.layers_here, link);
    one.gather += ag.time;
    one.scatter += rs.time;
    double gathers = win.layers_here, scatters = win.layers_here;  // per step
    if (p.zero == 3) {
      // FSDP / ZeRO-3: reshard_after_forward (PyTorch FSDP's FULL_SHARD, its default) frees each layer's gathered
      // weights after its forward, so every microbatch gathers them in the forward and again in the backward
      // (FSDP docs, ShardingStrategy; Zhao et al. 2023, sharding strategies). Without it the backward reuses the
      // forward's weights: one gather per microbatch. Gradients are reduce-scattered after every microbatch's backward,
      // except in a pipeline: torch.distributed.pipelining (torchtitan; Llama 3, Dubey et al. 2024 Sec. 3.3.2)
      // turns gradient sync and resharding after the backward off until the last microbatch, so weights gathered
      // without resharding stay for the whole step: one gather and one reduce-scatter per step.
      gathers *= p.reshard_after_forward ? 2.0 * c.mb : p.pp > 1 ? 1.0 : c.mb;
      scatters *= p.pp > 1 ? 1.0 : c.mb;
    }
    count(dp, ag, gathers);
    count(dp, rs, scatters);
  }
  return one;
}

/// Adds to dp.exposed what ZeRO 1-3's per-layer collectives `one` leave exposed under their overlap (ZeRO 3 sets it).
void expose_zero(const TrainingRun& run, const Efficiency& eff, double mb, const DpWindows& win,
                 const LayerGathers& one, DataParallelComm& dp) {
  const ParallelConfig& p = run.parallel;
  const double layers_here = win.layers_here, gather = one.gather, scatter = one.scatter;
  if (p.zero >= 1 && p.zero <= 2) {
    // Megatron's distributed optimizer: the gradient reduce-scatter runs during the last microbatch's backward
    // (--overlap-grad-reduce), the parameter all-gather during the next step's forward, layer by layer
    // (--overlap-param-gather: each forward waits only for its own layer's bucket).
    const double rs_all = scatter * layers_here;
    dp.exposed += eff.dp_overlap ? std::max(0.0, rs_all - win.last_backward) : rs_all;
    // A sharded optimizer that gathers inside its step (param_gather_overlap false, ZeRO 1) waits for all of it.
    const bool gather_hidden = eff.dp_overlap && (p.zero == 2 || eff.param_gather_overlap);
    dp.exposed += gather_hidden ? chain(layers_here, gather, win.layer_f) : gather * layers_here;
  } else if (p.zero == 3) {
    if (!eff.dp_overlap) {
      dp.exposed = dp.time;
    } else if (p.reshard_after_forward) {
      // Each forward op (one chunk of k layers, one microbatch) waits for its first layer's gather, the rest are
      // prefetched; each backward op waits for its first gather, and its layers' backward also carries a gather
      // and (without a pipeline) a reduce-scatter each, the last reduce-scatter after the op; with a pipeline the
      // reduce-scatters run once, during the last microbatch's backward.
      const double k = layers_here / double(p.vpp), ops = mb * double(p.vpp);
      const double rs_each = p.pp > 1 ? 0.0 : scatter;
      dp.exposed = ops * (chain(k, gather, win.layer_f) + gather + rs_each +
                          (k - 1.0) * std::max(0.0, gather + rs_each - win.layer_b));
      if (p.pp > 1) dp.exposed += chain(layers_here, scatter, win.layer_b);
    } else {
      const double passes = p.pp > 1 ? 1.0 : mb;  // gather once per step (pipeline) or per microbatch
      dp.exposed = passes * (chain(layers_here, gather, win.layer_f) + chain(layers_here, scatter, win.layer_b));
    }
  }
}

}  // namespace

HeldParams held_params(const TrainingRun& run, const StepCore& c) {
  // Data-parallel gradient reduction (and ZeRO's parameter gathers), over the dp·cp ranks that share the dense
  // weights and the edp = tp·cp·dp / (ep·etp) ranks that share an expert shard, for the slowest stage's parameters.
  HeldParams h;
  h.held = params_on_stage(run, c.slowest_stage, c.stages[std::size_t(c.slowest_stage)]);
  h.dp_group = run.parallel.dp * run.parallel.cp;
  h.expert_group = run.parallel.edp();
  return h;
}

DataParallelComm data_parallel_comm(const TrainingRun& run, const Efficiency& eff, const StepCore& c,
                                    const HeldParams& held) {
  DataParallelComm dp;
  const DpWindows win = dp_windows(run, c, held);
  const LayerGathers one = count_collectives(run, eff, c, held, win, dp);
  expose_zero(run, eff, c.mb, win, one, dp);
  dp.exposed = std::min(dp.exposed, dp.time);
  // The hidden part of the data-parallel traffic slows the backward (and FSDP's forward) it runs under.
  dp.slowdown = overlap_slowdown(eff, dp.time - dp.exposed);
  return dp;
}

}  // namespace parascope::detail
