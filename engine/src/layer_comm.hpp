/// One layer's communication for one microbatch on one GPU, before any overlap: tensor-parallel collectives, expert
/// all-to-all, context-parallel ring steps (the collectives engine's costs on the links place_group finds).
#pragma once

#include "layer_work.hpp"
#include "parascope/collectives.hpp"
#include "parascope/cost_types.hpp"

namespace parascope::detail {

/// The link a group rides at what NCCL reaches of it: link_efficiency of the rate, or the cluster's own measurement.
inline Link link_of(const GroupPlacement& g, const Efficiency& eff) {
  return {g.bandwidth * (g.measured ? 1.0 : eff.link_efficiency), g.latency};
}

/// The share of the forward's TP collectives recomputation runs again in the backward: all of them under full
/// recomputation; under torchtitan's per-op policy, which re-runs the block up to the recomputed wk and w3 (and wo),
/// the all-gather before each (sequence parallelism) or the attention's all-reduce (without): half.
inline double tp_recomputed_share(const ParallelConfig& p) {
  return p.recompute == Recompute::full ? 1.0 : p.recompute == Recompute::op ? 0.5 : 0.0;
}

/// Per-layer communication of one microbatch, full (before any overlap), and the traffic it makes.
struct LayerComm {
  double tp_fwd = 0, tp_bwd = 0, tp_bytes = 0, tp_count = 0;
  double tp_gather = 0, tp_scatter = 0;  ///< one sequence-parallel all-gather and reduce-scatter of the activation
  double ep_fwd = 0, ep_bwd = 0, ep_bytes = 0, ep_count = 0;
  double cp_fwd = 0, cp_bwd = 0, cp_bytes = 0, cp_count = 0;
  double cp_step_fwd = 0, cp_step_bwd = 0;  ///< one ring step's K/V transfer, forward and backward (context_ring.hpp)
};

/// Every axis's share of one layer's communication (each zero where its axis is 1).
LayerComm layer_comm(const TrainingRun& run, const Efficiency& eff, const LayerWork& w);

}  // namespace parascope::detail
