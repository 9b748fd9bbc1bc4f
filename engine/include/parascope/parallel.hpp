/// A cluster and a 4-D split of one training run across it (DP × TP × PP × CP, with EP inside DP·CP), and where
/// each parallel group's members sit: inside one node or across nodes.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "parascope/hardware.hpp"
#include "parascope/model.hpp"
#include "parascope/schedule.hpp"

namespace parascope {

/// What a cluster measured for a ring all-reduce over `gpus` GPUs across nodes: the bandwidth B (bytes/s, the busbw
/// nccl-tests reports for large messages) and the latency α per ring step (seconds) of t = 2(n−1)α + 2(n−1)/n·S/B.
struct MeasuredNetwork {
  std::int64_t gpus = 0;
  double bandwidth = 0, latency = 0;
};

/// The GPUs and their two kinds of link. Bandwidths: bytes/s, ONE direction, per GPU. Latencies: seconds per step.
struct Cluster {
  std::int64_t gpus = 1;
  std::int64_t gpus_per_node = 8;
  double intra_bandwidth = 0;
  double intra_latency = 0;
  double inter_bandwidth = 0;
  double inter_latency = 0;
  std::string intra_link;  ///< e.g. "NVLink 4"
  std::string inter_link;  ///< e.g. "InfiniBand NDR 400 Gb/s"
  /// Watts each GPU is held to (nvidia-smi -pl); default the hardware's power_limit, else its board_power; 0 = not
  /// known (no clock loss charged). Below the board power, compute-bound kernels run at a lower clock.
  double power_limit = 0;
  /// nccl-tests fitted per GPU count, ascending (cluster.nccl_tests): when given, a group that crosses nodes rides
  /// these instead of the inter link's rate (network_fit.hpp).
  std::vector<MeasuredNetwork> measured;
};

/// How one run is split. dp·tp·pp·cp = gpus. The MoE layers are split their own way over the same tp·cp·dp ranks
/// of a pipeline stage (Megatron-Core's MoE parallel folding, Liu et al. 2025, arXiv 2504.14960): etp·ep·edp =
/// tp·cp·dp, so ep·etp divides tp·cp·dp; ep divides the experts and etp the expert FFN width. etp = tp (the default)
/// is the older rule "ep divides dp·cp".
struct ParallelConfig {
  std::int64_t dp = 1, tp = 1, pp = 1, ep = 1, cp = 1;
  std::int64_t etp = 0;                       ///< expert tensor parallel size; 0 = tp (Megatron's default)
  std::int64_t vpp = 1;                       ///< virtual pipeline stages (model chunks) per GPU
  std::int64_t microbatch_size = 1;           ///< sequences per microbatch
  std::int64_t global_batch = 1;              ///< sequences per optimizer step
  Schedule schedule = Schedule::one_f_one_b;  ///< the pipeline schedule (parascope/schedule.hpp)
  Recompute recompute = Recompute::none;
  bool sequence_parallel = false;            ///< Korthikanti et al. 2022: split LayerNorm/dropout activations over TP
  int zero = 0;                              ///< ZeRO stage 0-3 (Rajbhandari et al. 2020); 3 = FSDP
  bool reshard_after_forward = true;         ///< zero 3: free gathered weights after the forward (PyTorch FSDP default)
  std::int64_t first_stage_layers = 0;       ///< layers on the first pipeline stage (0 = the balanced rule)
  std::int64_t last_stage_layers = 0;        ///< layers on the last pipeline stage (0 = the balanced rule)
  std::int64_t moe_max_nodes_per_token = 0;  ///< node-limited routing: nodes one token may reach (0 = no limit)
  /// The embedding / the loss counted as one pipeline layer of the first / last stage (Megatron-Core's
  /// --account-for-embedding-in-pipeline-split / --account-for-loss-in-pipeline-split; needs pp ≥ 2).
  bool embedding_in_split = false, loss_in_split = false;
  /// nanotron's cost-balanced pipeline split (stages.hpp): the output layer (the LM head) weighs this many
  /// transformer layers and the stages share layers and head by cost; 0 = the count-balanced rule. Set from
  /// `software` (stages.hpp: output_layer_weight), not a request field.
  double output_layer_weight = 0;
  /// Share of the optimizer's parameters whose Adam state lives and steps on the host (ZeRO-Offload, Ren et al. 2021;
  /// Megatron-Core's --optimizer-cpu-offload with --optimizer-offload-fraction); 0 = none, 1 = all.
  double offload_optimizer = 0;

  /// The expert tensor parallel size in force: etp, or tp when not set.
  std::int64_t expert_tp() const { return etp > 0 ? etp : tp; }
  /// Expert data-parallel ranks: the replicas of one expert shard, tp·cp·dp / (ep·etp).
  std::int64_t edp() const { return tp * cp * dp / (ep * expert_tp()); }

  /// Microbatches per pipeline per step: global_batch / (dp · microbatch_size).
  std::int64_t microbatches() const { return global_batch / (dp * microbatch_size); }
};

/// The parallel axes, in Megatron-Core's rank order from fastest- to slowest-varying: tp, cp, dp, pp
/// (Narayanan et al. 2021 Sec. 3.3 put TP innermost so that its heavy traffic stays on NVLink).
enum class Axis { tensor, context, data, pipeline, expert };

/// Where one group of an axis sits: `size` members, `stride` ranks apart.
struct GroupPlacement {
  std::int64_t size = 1;
  std::int64_t stride = 1;
  std::int64_t members_per_node = 1;  ///< how many of the group share a node
  bool crosses_nodes = false;         ///< true: its traffic goes over the network
  double bandwidth = 0;  ///< per member, one direction: intra, or members_per_node × inter (capped by intra)
  double latency = 0;
  std::string link;       ///< that link's name
  bool measured = false;  ///< bandwidth and latency are the cluster's own measurement (nccl-tests)
};

/// Placement of a group of `axis` under rank order tp < cp < dp < pp. The expert group: the MoE layers order the same
/// tp·cp·dp ranks etp < ep < edp (Megatron-Core's expert RankGenerator, order "tp-ep-dp-pp" with tp = etp), so an
/// expert group is ep ranks etp apart.
GroupPlacement place_group(const Cluster& cluster, const ParallelConfig& parallel, Axis axis);

/// Where a group of `size` ranks, `stride` apart, sits (place_group's rule for any group, e.g. the expert
/// data-parallel ranks: edp members etp·ep apart).
GroupPlacement place_ranks(const Cluster& cluster, std::int64_t size, std::int64_t stride);

const char* axis_name(Axis axis);

/// Which shard one GPU holds: its index along each axis, and its node. ep_rank indexes the expert shard:
/// (rank within its stage / etp) mod ep, i.e. (dp_rank·cp + cp_rank) mod ep when etp = tp.
struct RankCoords {
  std::int64_t rank = 0, node = 0;
  std::int64_t tp_rank = 0, cp_rank = 0, dp_rank = 0, pp_rank = 0, ep_rank = 0;
};
RankCoords rank_coords(const Cluster& cluster, const ParallelConfig& parallel, std::int64_t rank);

/// One training run: what is trained, on what, and how it is split.
struct TrainingRun {
  ModelShape model;
  Hardware hardware;
  Cluster cluster;
  ParallelConfig parallel;
};

}  // namespace parascope
