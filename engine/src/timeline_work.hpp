/// What one pipeline op of one stage holds, for the timeline: that stage's own layers' seconds per microbatch and
/// chunk (the same per-kind layer times step_core's slowest_stage sums), split into kernels, element-wise kernels and
/// the exposed and full communication of each axis, with the FLOPs and bytes behind them.
#pragma once

#include "layer_part.hpp"
#include "memory_model.hpp"

namespace parascope::detail {

/// One op's work on one GPU: seconds the compute stream spends (kernels, memory), the exposed seconds of each axis's
/// collectives after them and their full seconds (the rest runs under the kernels), what that hidden rest adds to the
/// kernels (`interference`, inside `kernels`), the FLOPs and the bytes.
struct OpWork {
  double kernels = 0, memory = 0;                   ///< seconds: GEMMs, attention, launches; element-wise kernels
  double tp = 0, ep = 0, cp = 0;                    ///< exposed seconds (breakdown.tp_comm, ep_comm, cp_comm)
  double tp_full = 0, ep_full = 0, cp_full = 0;     ///< seconds of the collectives, were nothing overlapped
  double interference = 0;                          ///< seconds of `kernels` the collectives under them add
  double flops = 0, memory_bytes = 0;               ///< FLOPs the kernels are timed for; HBM bytes element-wise
  double tp_bytes = 0, ep_bytes = 0, cp_bytes = 0;  ///< bytes each collective sends from this GPU
  double tp_count = 0, ep_count = 0, cp_count = 0;  ///< collectives
  double total() const { return kernels + memory + tp + ep + cp; }
};

/// A stage's forward, backward (input gradient where the schedule splits it) and weight-gradient op, one microbatch
/// of one chunk each (the stage's work over its vpp chunks, as the cost model spreads it).
struct StageWork {
  OpWork f, b, w;
};

/// The layer kinds' seconds, communication and work, kept once per timeline (each kind timed as layer_part times it).
struct KindDetail {
  ChunkTimes t;
  LayerComm comm;
  LayerWork work;
};
struct TimelineKinds {
  KindDetail dense, moe;
  LogitsSeconds logits;
  LogitsWork logits_work;
  double hbm = 0;  ///< bytes/s the element-wise kernels reach (memory_bandwidth × memory_efficiency)
};
TimelineKinds timeline_kinds(const TrainingRun& run, const Efficiency& eff);

/// Stage `n`'s ops. `last`: it carries the output layer. `b_slot` and `w_slot`: the schedule's B and W op seconds
/// (w_slot 0 where the backward is one op); the W op takes the weight-gradient GEMMs, moved to fit the slots.
StageWork stage_work(const TrainingRun& run, const Efficiency& eff, const TimelineKinds& kinds,
                     const StageLayerCounts& n, bool last, double b_slot, double w_slot);

}  // namespace parascope::detail
