/// What the cost model's first phase reads of each kind of layer and of the output layer (LayerPart): built per run,
/// or in a search kept in a LayerMemo by the run fields that fix it (the planner times many schedules of a split).
#pragma once

#include "layer_times.hpp"
#include "parascope/model.hpp"
#include "step_phases.hpp"

namespace parascope::detail {

/// The recomputation whose FLOPs MFU and HFU count (build_layer_part says why selective counts as none with
/// FlashAttention).
Recompute counted_recompute(const ParallelConfig& p, const Efficiency& eff);

/// The output layer's seconds for one microbatch (forward, backward, and its GEMMs' math), on the last stage's last
/// chunk (Megatron places it there).
struct LogitsSeconds {
  double fwd = 0, bwd = 0, math = 0;
};

/// The two kinds of layer a stage mixes, each timed once: a dense-FFN layer and an MoE layer.
struct LayerKinds {
  ChunkTimes dense, moe;
};

/// What build_core reads of one layer of each kind and of the output layer: a function of the run's split, microbatch
/// size, recompute, sequence parallelism and precision, never of its pipeline schedule, interleaving or ZeRO stage but
/// for DualPipe's paired all-to-alls (layer_times). The planner times many schedules of one split and microbatch size.
struct LayerPart {
  LayerWork work;
  LayerComm comm;
  LayerKinds kinds;
  LogitsWork logits;
  LogitsSeconds logits_seconds;
  FlopsPerToken flops;  ///< the model's FLOPs per token at the run's recompute (no layer kind: MFU's numerator)
};

/// The run's LayerPart: built into `scratch`, or with a memo, found there or built into it (the same bits either way).
const LayerPart& layer_part(const TrainingRun& run, const Efficiency& eff, LayerMemo* memo, LayerPart& scratch);

}  // namespace parascope::detail
