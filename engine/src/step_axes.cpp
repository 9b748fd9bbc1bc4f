// The step's per-axis traffic table, for the four-axis figure: what each split (DP, TP, PP, EP, CP) sends per step,
// on which link, in which collectives, and how much of it compute hides.
#include <algorithm>
#include <string>
#include <utility>

#include "step_finish.hpp"

namespace parascope::detail {

namespace {

/// One row of the table: `time` the axis's seconds were nothing overlapped, `exposed` what the step waits for.
AxisTraffic axis_row(const TrainingRun& run, Axis a, const char* splits, std::string collective, double count,
                     double bytes, double time, double exposed) {
  const GroupPlacement g = place_group(run.cluster, run.parallel, a);
  AxisTraffic t;
  t.axis = a;
  t.splits = splits;
  t.collective = std::move(collective);
  t.count = count;
  t.bytes_per_gpu = bytes;
  t.inter = g.crosses_nodes;
  t.link = g.link;
  t.time = time;
  t.hidden_fraction = time > 0 ? std::clamp(1.0 - exposed / time, 0.0, 1.0) : 0.0;
  return t;
}

/// The data-parallel axis's collectives, in words, for the run's ZeRO stage, resharding and pipeline.
const char* dp_collectives(const ParallelConfig& p) {
  return p.zero == 0   ? "all-reduce of gradients"
         : p.zero <= 2 ? "reduce-scatter of gradients + all-gather of parameters, layer by layer"
         : p.reshard_after_forward
             ? (p.pp > 1 ? "all-gather of parameters, forward and backward, per microbatch + reduce-scatter of "
                           "gradients, once per step"
                         : "all-gather of parameters (forward and backward) + reduce-scatter of gradients, per "
                           "microbatch")
         : p.pp > 1
             ? "all-gather of parameters + reduce-scatter of gradients, once per step (no reshard after forward)"
             : "all-gather of parameters + reduce-scatter of gradients, per microbatch (no reshard after forward)";
}

}  // namespace

void axis_traffic(const TrainingRun& run, const StepCore& c, const DataParallelComm& dp, StepResult& r) {
  const ParallelConfig& p = run.parallel;
  const LayerComm& comm = c.comm;
  const StepBreakdown& b = r.breakdown;
  const double mb = c.mb;
  const double layer_mb = double(run.model.layers) / double(p.pp) * mb;  // layer-microbatches per GPU per step
  r.axes.push_back(axis_row(run, Axis::data, "batch", dp_collectives(p), dp.count, dp.bytes, dp.time, b.dp_comm));
  r.axes.push_back(axis_row(run, Axis::tensor, "weight matrices",
                            p.sequence_parallel ? "reduce-scatter + all-gather, 2 each per layer forward and backward"
                                                : "all-reduce, 2 per layer forward and 2 backward",
                            comm.tp_count * layer_mb, comm.tp_bytes * layer_mb, (comm.tp_fwd + comm.tp_bwd) * layer_mb,
                            b.tp_comm));
  const double sends = p.pp > 1 ? 2.0 * mb * double(p.vpp) : 0.0;  // stage-to-stage sends per GPU per step
  r.axes.push_back(axis_row(run, Axis::pipeline, "layers",
                            "point-to-point activations and gradients at each stage boundary", sends,
                            sends * c.p2p_bytes, sends * c.p2p, b.pp_comm));
  if (run.model.is_moe()) {
    r.axes.push_back(axis_row(
        run, Axis::expert, "experts", "all-to-all dispatch + combine per MoE layer, forward and backward",
        comm.ep_count * layer_mb, comm.ep_bytes * layer_mb, (comm.ep_fwd + comm.ep_bwd) * layer_mb, b.ep_comm));
  }
  if (p.cp > 1) {
    r.axes.push_back(axis_row(
        run, Axis::context, "sequence", "ring exchange of K and V blocks per layer (backward adds their gradients)",
        comm.cp_count * layer_mb, comm.cp_bytes * layer_mb, (comm.cp_fwd + comm.cp_bwd) * layer_mb, b.cp_comm));
  }
}

}  // namespace parascope::detail
