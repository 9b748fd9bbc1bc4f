// The step-time model: kernel times per layer, communication per axis (collectives engine), the pipeline schedule
// (pipeline engine), data-parallel reduction and optimizer -> step time, MFU, HFU, and where the time went.
#include "parascope/cost.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <tuple>
#include <unordered_map>

#include "exact_key.hpp"
#include "kernel_model.hpp"
#include "layer_work.hpp"
#include "memory_model.hpp"
#include "parascope/collectives.hpp"
#include "parascope/error.hpp"
#include "parascope/pipeline.hpp"
#include "parascope/stages.hpp"
#include "pipeline_detail.hpp"
#include "powers.hpp"
#include "step_phases.hpp"

namespace parascope {

namespace {

using detail::LayerWork;

/// The link a group rides at what NCCL reaches of it: link_efficiency of the rate, or the cluster's own measurement.
Link link_of(const GroupPlacement& g, const Efficiency& eff) {
  return {g.bandwidth * (g.measured ? 1.0 : eff.link_efficiency), g.latency};
}

/// Seconds the kernels lose while a collective of `hidden` seconds runs under them: NCCL runs each channel as one
/// CTA on its own SM, so for that time the kernels have compute_units − nccl_sms SMs (engine/API.md, "Overlap").
double overlap_slowdown(const Efficiency& eff, double hidden) {
  if (hidden <= 0 || eff.compute_units <= 0 || eff.nccl_sms <= 0) return 0.0;
  return hidden * std::min(1.0, eff.nccl_sms / double(eff.compute_units));
}

/// Seconds of one microbatch's work for one model chunk on one GPU, by kind.
struct ChunkTimes {
  double gemm_fwd = 0, attn_fwd = 0, mem_fwd = 0;  // forward kernels
  double gemm_bwd = 0, gemm_wgrad = 0;             // backward GEMMs (input + weight gradients) and the weight part
  double launch_fwd = 0;                           // fixed cost of the forward's kernel launches
  double recompute = 0;                            // forward work repeated in the backward
  double recompute_mem = 0;                        // the memory-bound part of that
  double tp_fwd = 0, tp_bwd = 0;                   // exposed tensor-parallel communication
  double ep_fwd = 0, ep_bwd = 0;                   // exposed expert all-to-all
  double cp_fwd = 0, cp_bwd = 0;                   // exposed context-parallel ring traffic
  // The backward GEMMs are the input- and weight-gradient GEMMs of every forward GEMM, twice its FLOPs (Narayanan et
  // al. 2021, Sec. 5.1), each timed on its own shape; the attention backward is twice its forward. A backward
  // element-wise kernel reads its saved input and the incoming gradient and writes one gradient: 3 tensor passes
  // against the forward's 2 (read, write), so 1.5× the forward's traffic. The backward launches twice the kernels.
  static constexpr double kMemBackward = 1.5;
  static constexpr double kLaunchBackward = 2.0;
  double math() const {
    return gemm_fwd + gemm_bwd + 3.0 * attn_fwd + (1.0 + kLaunchBackward) * launch_fwd + recompute - recompute_mem;
  }
  double memory() const { return (1.0 + kMemBackward) * mem_fwd + recompute_mem; }
  double forward() const { return gemm_fwd + attn_fwd + mem_fwd + launch_fwd + tp_fwd + ep_fwd + cp_fwd; }
  double backward() const {
    return gemm_bwd + 2.0 * attn_fwd + kMemBackward * mem_fwd + kLaunchBackward * launch_fwd + recompute + tp_bwd +
           ep_bwd + cp_bwd;
  }
  /// Every field above (scaled and plus go through this list).
  std::array<double*, 14> fields() {
    return {&gemm_fwd,      &attn_fwd, &mem_fwd, &gemm_bwd, &gemm_wgrad, &launch_fwd, &recompute,
            &recompute_mem, &tp_fwd,   &tp_bwd,  &ep_fwd,   &ep_bwd,     &cp_fwd,     &cp_bwd};
  }
  ChunkTimes scaled(double k) const {
    ChunkTimes c = *this;
    for (double* v : c.fields()) *v *= k;
    return c;
  }
  ChunkTimes plus(ChunkTimes o) const {
    ChunkTimes c = *this;
    const auto mine = c.fields(), theirs = o.fields();
    for (std::size_t i = 0; i < mine.size(); ++i) *mine[i] += *theirs[i];
    return c;
  }
};

/// Per-layer communication of one microbatch, full (before any overlap), and the traffic it makes.
struct LayerComm {
  double tp_fwd = 0, tp_bwd = 0, tp_bytes = 0, tp_count = 0;
  double ep_fwd = 0, ep_bwd = 0, ep_bytes = 0, ep_count = 0;
  double cp_fwd = 0, cp_bwd = 0, cp_bytes = 0, cp_count = 0;
};

LayerComm layer_comm(const TrainingRun& run, const Efficiency& eff, const LayerWork& w) {
  const ModelShape& m = run.model;
  const ParallelConfig& p = run.parallel;
  LayerComm c;
  const bool full_recompute = p.recompute == Recompute::full;
  // torchtitan's per-op recomputation re-runs the block up to the recomputed wk and w3 (and wo): the all-gather
  // before each (sequence parallelism) or the attention's all-reduce (without): half the forward's collectives.
  const double tp_recomputed = full_recompute ? 1.0 : p.recompute == Recompute::op ? 0.5 : 0.0;
  const double activation = w.tokens * double(m.hidden) * 2.0;  // bf16 activations of the microbatch, bytes

  if (p.tp > 1) {
    // Megatron: 2 all-reduces forward (after attention and MLP) and 2 backward (Shoeybi et al. 2019, Sec. 3);
    // with sequence parallelism each all-reduce becomes a reduce-scatter + all-gather of the same total
    // (Korthikanti et al. 2022, Sec. 4.2.2). Full recomputation repeats the forward pair in the backward.
    const Link link = link_of(place_group(run.cluster, p, Axis::tensor), eff);
    CollectiveCost one = ring_allreduce(p.tp, activation, link);
    if (p.sequence_parallel) {
      const CollectiveCost ag = ring_allgather(p.tp, activation, link);
      const CollectiveCost rs = ring_reducescatter(p.tp, activation, link);
      one.time = ag.time + rs.time;
      one.bytes_sent_per_gpu = ag.bytes_sent_per_gpu + rs.bytes_sent_per_gpu;
    }
    const double per_pass = 2.0;
    c.tp_fwd = per_pass * one.time;
    c.tp_bwd = per_pass * one.time * (1.0 + tp_recomputed);
    const double collectives = per_pass * (2.0 + tp_recomputed) * (p.sequence_parallel ? 2.0 : 1.0);
    c.tp_count = collectives;
    c.tp_bytes = per_pass * (2.0 + tp_recomputed) * one.bytes_sent_per_gpu;
  }
  if (p.ep > 1 && m.is_moe()) {
    // Dispatch and combine all-to-alls per MoE layer, forward and backward (Lepikhin et al. 2021, GShard, Sec. 2.2;
    // Fedus et al. 2022, Sec. 2.2): each token's hidden state goes to top_k experts. The busiest rank sets the pace.
    // A group that spans nodes sends to node mates over NVLink and to the rest through each GPU's own NIC at once
    // (alltoall_two_level); the k-NICs-in-parallel bandwidth of place_group holds for rings, not for all-to-all.
    // Under MoE parallel folding each GPU dispatches its t·etp/tp tokens (layer_work.cpp).
    const GroupPlacement g = place_group(run.cluster, p, Axis::expert);
    const double row = double(m.hidden) * 2.0 * eff.router_imbalance;  // one token's bf16 hidden state
    const double bytes = w.dispatched_tokens * double(m.top_k) * row;
    const Link intra{run.cluster.intra_bandwidth * eff.link_efficiency, run.cluster.intra_latency};
    const Link inter{run.cluster.inter_bandwidth * eff.link_efficiency, run.cluster.inter_latency};
    CollectiveCost one = g.crosses_nodes ? alltoall_two_level(p.ep, g.members_per_node, bytes, intra, inter)
                                         : alltoall(p.ep, bytes, link_of(g, eff));
    if (g.crosses_nodes && p.moe_max_nodes_per_token > 0) {
      // Node-limited routing (DeepSeek-V3, Liu et al. 2024 Sec. 2.1.2 and 3.2.2): a token goes to experts on at
      // most M nodes, crosses the network once per destination node (to the GPU with its own in-node index) and is
      // forwarded there over NVLink. With n = ep / k nodes in the group and top_k experts drawn evenly, a token
      // reaches (n − 1)·(1 − (1 − 1/n)^top_k) other nodes on average; the network carries min(M, that) rows per
      // token, NVLink the top_k·(k − 1)/k rows whose expert is not on the receiving GPU.
      const double k = double(g.members_per_node), nodes = double(p.ep) / k;
      const double reached = (nodes - 1.0) * (1.0 - detail::whole_power(1.0 - 1.0 / nodes, m.top_k));
      const double far = w.dispatched_tokens * row * std::min(double(p.moe_max_nodes_per_token), reached);
      const double near = w.dispatched_tokens * row * double(m.top_k) * (k - 1.0) / k;
      one.time = double(p2p_batches(std::int64_t(k) - 1)) * intra.latency +
                 double(p2p_batches(p.ep - std::int64_t(k))) * inter.latency +
                 std::max(near / intra.bandwidth, far / inter.bandwidth);
      one.bytes_sent_per_gpu = near + far;
    }
    c.ep_fwd = w.moe_layer_share * 2.0 * one.time;
    c.ep_bwd = w.moe_layer_share * 2.0 * one.time * (full_recompute ? 2.0 : 1.0);
    c.ep_count = w.moe_layer_share * (full_recompute ? 6.0 : 4.0);
    c.ep_bytes = c.ep_count * one.bytes_sent_per_gpu;
  }
  if (p.cp > 1) {
    // Ring attention (Liu et al. 2023; Megatron-Core context parallelism): cp − 1 point-to-point steps pass the
    // local K and V blocks forward; the backward passes K, V and their gradients (twice the bytes).
    const Link link = link_of(place_group(run.cluster, p, Axis::context), eff);
    const double kv = 2.0 * w.tokens * double(m.kv_heads * m.head_dim) * 2.0 / double(p.tp);
    const double steps = double(p.cp - 1);
    c.cp_fwd = steps * (link.latency + kv / link.bandwidth);
    c.cp_bwd = steps * (link.latency + 2.0 * kv / link.bandwidth) + (full_recompute ? c.cp_fwd : 0.0);
    c.cp_count = steps * (full_recompute ? 4.0 : 3.0);
    c.cp_bytes = steps * kv * (full_recompute ? 4.0 : 3.0);
  }
  return c;
}

/// Kernel and exposed-communication seconds of one layer (average) for one microbatch.
ChunkTimes layer_times(const TrainingRun& run, const Efficiency& eff, const LayerWork& w, const LayerComm& c) {
  const detail::KernelTimes k = detail::layer_kernel_times(run, eff, w);
  ChunkTimes t;
  t.gemm_fwd = k.gemm_fwd;
  t.gemm_bwd = k.gemm_dgrad + k.gemm_wgrad;
  t.gemm_wgrad = k.gemm_wgrad;
  t.attn_fwd = k.attn_fwd;
  t.mem_fwd = k.mem_fwd;
  t.launch_fwd = k.launch_fwd;
  // Recomputation (Korthikanti et al. 2022, Sec. 5): full repeats the layer's forward; selective repeats the
  // attention core and its softmax (with FlashAttention the kernel's own backward already does that).
  if (run.parallel.recompute == Recompute::full) {
    t.recompute = t.gemm_fwd + t.attn_fwd + t.mem_fwd + t.launch_fwd;
    t.recompute_mem = t.mem_fwd;
  } else if (run.parallel.recompute == Recompute::op) {
    // torchtitan's per-op policy: the recomputed matmuls' share of the forward GEMM time (at the layer's mean
    // rate) and every element-wise kernel with its launch; the saved matmuls and the attention are not re-run.
    const ParamCounts params = count_params(run.model);
    const double share =
        op_recomputed_params_per_layer(run.model) / (params.attention_per_layer + params.dense_ffn_per_layer);
    t.recompute = share * t.gemm_fwd + t.mem_fwd + t.launch_fwd;
    t.recompute_mem = t.mem_fwd;
  } else if (run.parallel.recompute == Recompute::selective && !eff.flash_attention) {
    t.recompute_mem = k.softmax_mem;
    t.recompute = t.attn_fwd + t.recompute_mem;
  }
  // TransformerEngine's userbuffer overlap splits each TP GEMM into tp chunks and moves chunk i while computing
  // chunk i+1 (Wang et al. 2023, "Overlap communication with dependent computation", ASPLOS; Megatron-Core
  // --tp-comm-overlap): only the first chunk's transfer, 1/tp of it, stays exposed.
  const double tp_exposed = std::min(1.0 - eff.tp_overlap, eff.tp_comm_overlap ? 1.0 / double(run.parallel.tp) : 1.0);
  t.tp_fwd = c.tp_fwd * tp_exposed;
  t.tp_bwd = c.tp_bwd * tp_exposed;
  t.ep_fwd = c.ep_fwd * (1.0 - eff.ep_overlap);
  t.ep_bwd = c.ep_bwd * (1.0 - eff.ep_overlap);
  if (schedule_info(run.parallel.schedule).pairs_all_to_all && run.parallel.pp > 1 && t.ep_fwd + t.ep_bwd > 0) {
    // DualPipe runs a forward chunk and a backward chunk as one pair, each one's dispatch and combine all-to-alls
    // during the other's computation (DeepSeek-V3 report, Liu et al. 2024, Sec. 3.2.1, Fig. 4): per layer, only
    // what exceeds the pair's compute shows. (Warm-up and drain ops run unpaired; that is not counted.)
    const double compute = t.math() + t.memory();
    const double shown = std::max(0.0, t.ep_fwd + t.ep_bwd - compute) / (t.ep_fwd + t.ep_bwd);
    t.ep_fwd *= shown;
    t.ep_bwd *= shown;
  }
  // Ring attention overlaps each KV step with the attention block it feeds: only the excess is exposed.
  t.cp_fwd = std::max(0.0, c.cp_fwd - t.attn_fwd);
  t.cp_bwd = std::max(0.0, c.cp_bwd - 2.0 * t.attn_fwd);
  // Hidden is not free: what the collectives hide behind this layer's kernels slows them (overlap_slowdown).
  const double hidden_fwd = (c.tp_fwd - t.tp_fwd) + (c.ep_fwd - t.ep_fwd) + (c.cp_fwd - t.cp_fwd);
  const double hidden_bwd = (c.tp_bwd - t.tp_bwd) + (c.ep_bwd - t.ep_bwd) + (c.cp_bwd - t.cp_bwd);
  t.gemm_fwd += overlap_slowdown(eff, hidden_fwd);
  t.gemm_bwd += overlap_slowdown(eff, hidden_bwd);
  return t;
}

/// The pipeline engine's schedule with these op times: the real step (with sends) and how long its bubble and its
/// sends take. Sends on the critical path × send time is what the schedule spends on sends (the simulator counts
/// them); it equals "with sends minus without" whenever a send is short next to an op (tests/engine/pipeline_test.cpp).
/// ZB-H2's greedy simulator does not count them: there the schedule runs a second time without sends.
/// Without `with_sends` that second run is skipped and `sends` is NaN (the planner reads neither pp_comm nor bubble).
struct Scheduled {
  PipelineMetrics metrics;
  double sends = 0;  ///< seconds of the makespan spent on stage-to-stage sends
};

Scheduled schedule(const PipelineSpec& spec, bool with_sends) {
  const double comm = spec.times.comm;
  // A refused schedule throws PipelineError (the op layer names the request field at fault).
  Scheduled out{pipeline_metrics(spec), 0.0};
  if (comm > 0 && out.metrics.critical_sends >= 0) {
    out.sends = double(out.metrics.critical_sends) * comm;
  } else if (comm > 0 && !with_sends) {
    out.sends = std::numeric_limits<double>::quiet_NaN();
  } else if (comm > 0) {
    PipelineSpec silent = spec;
    silent.times.comm = 0;
    out.sends = out.metrics.makespan - pipeline_metrics(silent).makespan;
  }
  return out;
}

/// The recomputation whose FLOPs MFU and HFU count (build_layer_part says why selective counts as none with
/// FlashAttention).
Recompute counted_recompute(const ParallelConfig& p, const Efficiency& eff) {
  return p.recompute == Recompute::selective && eff.flash_attention ? Recompute::none : p.recompute;
}

/// What build_core reads of one layer of each kind and of the output layer: a function of the run's split, microbatch
/// size, recompute, sequence parallelism and precision, never of its pipeline schedule, interleaving or ZeRO stage but
/// for DualPipe's paired all-to-alls (layer_times). The planner times many schedules of one split and microbatch size.
struct LayerPart {
  LayerWork work;
  LayerComm comm;
  ChunkTimes dense_layer, moe_layer;
  detail::LogitsWork logits;
  double logits_fwd = 0, logits_bwd = 0, logits_math = 0;
  FlopsPerToken flops;  ///< the model's FLOPs per token at the run's recompute (no layer kind: MFU's numerator)
};

/// LayerPart's inputs that a search varies (PlanSearch::State::consider rewrites no other field of the run): equal
/// keys within one search give the same LayerPart, bit for bit.
struct LayerKey {
  std::int64_t dp, tp, pp, cp, ep, etp, microbatch_size, global_batch, recompute, sequence_parallel, precision, paired;
  bool operator==(const LayerKey& o) const {
    return dp == o.dp && tp == o.tp && pp == o.pp && cp == o.cp && ep == o.ep && etp == o.etp &&
           microbatch_size == o.microbatch_size && global_batch == o.global_batch && recompute == o.recompute &&
           sequence_parallel == o.sequence_parallel && precision == o.precision && paired == o.paired;
  }
};

LayerKey layer_key(const TrainingRun& run, const Efficiency& eff) {
  const ParallelConfig& p = run.parallel;
  const bool paired = schedule_info(p.schedule).pairs_all_to_all && p.pp > 1;
  return {p.dp,
          p.tp,
          p.pp,
          p.cp,
          p.ep,
          p.etp,
          p.microbatch_size,
          p.global_batch,
          std::int64_t(p.recompute),
          p.sequence_parallel ? 1 : 0,
          std::int64_t(eff.precision),
          paired ? 1 : 0};
}

void build_layer_part(const TrainingRun& run, const Efficiency& eff, LayerPart& out) {
  const ModelShape& m = run.model;
  const ParallelConfig& p = run.parallel;
  // MFU and HFU count the model's FLOPs per token (PaLM App. B): fixed by the model and the recomputation.
  // With FlashAttention, selective recomputation (Korthikanti's: the attention core) has nothing left to do: the fused
  // kernel stores no score matrix and its backward rebuilds the scores anyway, which the attention backward's time
  // already holds. So the hardware does the FLOPs of no recomputation (and selective costs and saves nothing).
  out.flops = flops_per_token(m, eff.attention, counted_recompute(p, eff));
  out.work = detail::layer_work(run, eff);
  out.comm = layer_comm(run, eff, out.work);

  // The output layer runs on the last stage's last chunk (Megatron places it there).
  out.logits = detail::logits_work(run);
  const detail::LogitsTimes logits_t = detail::logits_kernel_times(run, eff);
  const double logits_gemm = logits_t.gemm_fwd;
  out.logits_fwd = logits_gemm + logits_t.mem_fwd;
  out.logits_bwd = 2.0 * logits_gemm + ChunkTimes::kMemBackward * logits_t.mem_fwd;
  out.logits_math = 3.0 * logits_gemm;

  if (!m.is_moe()) {
    // A dense model has no MoE layer whatever first_dense_layers and moe_layer_freq say (ModelShape::moe_layers), so
    // both kinds of layer are the run's own layer: the same numbers, timed once.
    out.dense_layer = out.moe_layer = layer_times(run, eff, out.work, out.comm);
  } else {
    const TrainingRun dense_run = detail::with_layer_kind(run, false), moe_run = detail::with_layer_kind(run, true);
    const LayerWork dense_work = detail::layer_work(dense_run, eff), moe_work = detail::layer_work(moe_run, eff);
    out.dense_layer = layer_times(dense_run, eff, dense_work, layer_comm(dense_run, eff, dense_work));
    out.moe_layer = layer_times(moe_run, eff, moe_work, layer_comm(moe_run, eff, moe_work));
  }
}

}  // namespace

namespace detail {

/// What the split and the schedule fix, before the ZeRO stage: evaluate_step's first half (see step_phases.hpp).
struct StepCore {
  StepResult r;
  double mb = 0;
  LayerComm comm;
  LogitsWork logits;
  double logits_math = 0;
  ChunkTimes avg;
  double avg_f = 0, avg_b = 0;
  std::int64_t slowest_stage = 0;
  double max_f = 0, max_b = 0;
  std::vector<StageLayerCounts> stages;
  double p2p = 0, p2p_bytes = 0;
  double w_part = 0;
  bool scheduled_done = false;
  Scheduled scheduled;
  double busy = 0;
  FlopsPerToken flops;
};

void StepCoreDeleter::operator()(StepCore* core) const { delete core; }

/// Pipeline timings already done in one search, by their exact inputs: the schedule, p, m, v, the bits of f, b, w
/// and the send time, and whether sends were timed apart. Equal keys give the same spec, hence the same metrics.
struct PipelineMemo {
  struct Key {
    std::int64_t schedule, stages, microbatches, chunks, with_sends;
    std::uint64_t f, b, w, comm;
    bool operator==(const Key& o) const {
      return schedule == o.schedule && stages == o.stages && microbatches == o.microbatches && chunks == o.chunks &&
             with_sends == o.with_sends && f == o.f && b == o.b && w == o.w && comm == o.comm;
    }
  };
  struct Hash {
    std::size_t operator()(const Key& k) const {
      const std::uint64_t words[] = {std::uint64_t(k.schedule),
                                     std::uint64_t(k.stages),
                                     std::uint64_t(k.microbatches),
                                     std::uint64_t(k.chunks),
                                     std::uint64_t(k.with_sends),
                                     k.f,
                                     k.b,
                                     k.w,
                                     k.comm};
      const std::uint64_t h = detail::hash_words(words, sizeof words / sizeof words[0]);
      return std::size_t(h ^ (h >> 32));
    }
  };
  /// At most this many timings are kept (the search reuses them within a split and a microbatch size, where only
  /// recompute, sequence parallelism and precision change): the memo is emptied when full, bounding its memory.
  static constexpr std::size_t kCapacity = 512;
  std::unordered_map<Key, Scheduled, Hash> done;
};
void PipelineMemoDeleter::operator()(PipelineMemo* memo) const { delete memo; }
PipelineMemoPtr make_pipeline_memo() { return PipelineMemoPtr(new PipelineMemo); }

/// LayerParts already built in one search, by LayerKey; emptied when full (kCapacity), so its memory stays bounded
/// (the search asks for a LayerPart again within one split, across its schedules and interleaving degrees).
struct LayerMemo {
  struct Hash {
    std::size_t operator()(const LayerKey& k) const {
      const std::uint64_t words[] = {std::uint64_t(k.dp),
                                     std::uint64_t(k.tp),
                                     std::uint64_t(k.pp),
                                     std::uint64_t(k.cp),
                                     std::uint64_t(k.ep),
                                     std::uint64_t(k.etp),
                                     std::uint64_t(k.microbatch_size),
                                     std::uint64_t(k.global_batch),
                                     std::uint64_t(k.recompute),
                                     std::uint64_t(k.sequence_parallel),
                                     std::uint64_t(k.precision),
                                     std::uint64_t(k.paired)};
      const std::uint64_t h = detail::hash_words(words, sizeof words / sizeof words[0]);
      return std::size_t(h ^ (h >> 32));
    }
  };
  static constexpr std::size_t kCapacity = 1024;
  std::unordered_map<LayerKey, LayerPart, Hash> parts;
};
void LayerMemoDeleter::operator()(LayerMemo* memo) const { delete memo; }
LayerMemoPtr make_layer_memo() { return LayerMemoPtr(new LayerMemo); }

}  // namespace detail

namespace {

/// The run's LayerPart: built into `scratch`, or with a memo, found there or built into it.
const LayerPart& layer_part(const TrainingRun& run, const Efficiency& eff, detail::LayerMemo* memo,
                            LayerPart& scratch) {
  if (memo == nullptr) {
    build_layer_part(run, eff, scratch);
    return scratch;
  }
  const LayerKey key = layer_key(run, eff);
  const auto found = memo->parts.find(key);
  if (found != memo->parts.end()) return found->second;
  if (memo->parts.size() >= detail::LayerMemo::kCapacity) memo->parts.clear();
  LayerPart& part = memo->parts[key];
  build_layer_part(run, eff, part);
  return part;
}

}  // namespace

namespace detail {

void build_core(const TrainingRun& run, const Efficiency& eff, StepCore& c, LayerMemo* memo = nullptr) {
  const ModelShape& m = run.model;
  const ParallelConfig& p = run.parallel;
  StepResult& r = c.r;
  r.parallel = p;
  r.microbatches = p.microbatches();
  const double mb = double(r.microbatches);
  const double chunks = double(p.pp * p.vpp);

  LayerPart scratch;
  const LayerPart& part = layer_part(run, eff, memo, scratch);
  const LayerWork& work = part.work;
  const LayerComm& comm = part.comm;
  const detail::LogitsWork& logits = part.logits;
  const double logits_fwd = part.logits_fwd, logits_bwd = part.logits_bwd, logits_math = part.logits_math;

  // Each stage's work from its real layers (stages.hpp: the balanced rule or first/last_stage_layers), dense-FFN
  // and MoE layers timed apart, the output layer on the last stage. The schedule runs uniform ops, so each op
  // carries the slowest stage's work spread over its vpp chunks; spreading it keeps an interleaved stage's total
  // right instead of multiplying its one heavy chunk by vpp.
  const double vpp = double(p.vpp);
  const ChunkTimes& dense_layer = part.dense_layer;
  const ChunkTimes& moe_layer = part.moe_layer;
  // The average chunk: the model's dense-FFN and MoE layers over the pp·vpp chunks.
  const double moe_layers = double(m.moe_layers());
  const ChunkTimes avg =
      dense_layer.scaled(double(m.layers) - moe_layers).plus(moe_layer.scaled(moe_layers)).scaled(1.0 / chunks);
  std::int64_t slowest_stage = 0;
  double max_f = 0, max_b = 0, slowest_total = -1;
  ChunkTimes slowest;  // the slowest stage's layers, per chunk
  c.stages = detail::stage_layer_kinds(run);
  const std::vector<detail::StageLayerCounts>& stages = c.stages;
  // A stage before the last with the layer counts of an earlier one has its f and b, so it changes neither maximum
  // nor (not being strictly slower) the slowest stage: only the first of each kind is timed (a few, whatever pp).
  detail::StageLayerCounts seen[8];
  std::size_t kinds = 0;
  for (std::int64_t s = 0; s < p.pp; ++s) {
    const detail::StageLayerCounts& n = stages[std::size_t(s)];
    if (s < p.pp - 1) {
      std::size_t k = 0;
      while (k < kinds && (seen[k].layers != n.layers || seen[k].moe != n.moe)) ++k;
      if (k < kinds) continue;
      if (kinds < 8) seen[kinds++] = n;
    }
    const ChunkTimes stage = dense_layer.scaled(double(n.layers - n.moe)).plus(moe_layer.scaled(double(n.moe)));
    const bool last = s == p.pp - 1;
    const double f = stage.forward() + (last ? logits_fwd : 0.0), b = stage.backward() + (last ? logits_bwd : 0.0);
    max_f = std::max(max_f, f / vpp);
    max_b = std::max(max_b, b / vpp);
    if (f + b > slowest_total) {
      slowest_total = f + b;
      slowest_stage = s;
      slowest = stage.scaled(1.0 / vpp);
    }
  }
  const double avg_f = avg.forward() + logits_fwd / chunks;
  const double avg_b = avg.backward() + logits_bwd / chunks;

  // Pipeline point-to-point: each stage boundary sends the microbatch's activations forward and their gradient
  // back; with tp > 1 each rank sends 1/tp and the rest is all-gathered over NVLink (Narayanan et al. 2021, Sec. 4.1).
  double p2p = 0, p2p_bytes = 0;
  if (p.pp > 1) {
    const Link link = link_of(place_group(run.cluster, p, Axis::pipeline), eff);
    p2p_bytes = work.tokens * double(m.hidden) * 2.0 / double(p.tp);
    p2p = link.latency + p2p_bytes / link.bandwidth;
  }

  // Zero-bubble and DualPipe split the backward into input-gradient (B) and weight-gradient (W) passes; W runs the
  // weight-gradient GEMMs, half of the backward GEMM FLOPs (Qi et al. 2023, Sec. 2).
  const bool split_backward = schedule_info(p.schedule).splits_backward;
  const double w_part = split_backward ? slowest.gemm_wgrad : 0.0;
  c.mb = mb;
  c.w_part = w_part;
  c.comm = comm;
  c.logits = logits;
  c.logits_math = logits_math;
  c.avg = avg;
  c.avg_f = avg_f;
  c.avg_b = avg_b;
  c.slowest_stage = slowest_stage;
  c.max_f = max_f;
  c.max_b = max_b;
  c.p2p = p2p;
  c.p2p_bytes = p2p_bytes;
  // build_layer_part says which recomputation MFU and HFU count. The numbers only: finish_step writes the formula's
  // text when asked for it (a string copied per core cost the planner an allocation each).
  c.flops.model = part.flops.model;
  c.flops.hardware = part.flops.hardware;
}

/// The pipeline the core's schedule times: the run's schedule, stages, microbatches and chunks at the slowest stage's
/// op times (its forward, its backward less the weight-gradient part split off, that part, one stage-to-stage send).
PipelineSpec core_spec(const TrainingRun& run, const StepCore& c) {
  PipelineSpec spec = pipeline_spec_of(run.parallel);
  spec.times = {c.max_f, c.max_b - c.w_part, c.w_part, c.p2p};
  spec.record_ops = false;
  return spec;
}

/// The core's pipeline schedule: the step's one costly part.
void schedule_core(const TrainingRun& run, StepCore& c, bool with_sends = true, PipelineMemo* memo = nullptr) {
  const ParallelConfig& p = run.parallel;
  const PipelineSpec spec = core_spec(run, c);
  if (memo == nullptr) {
    c.scheduled = schedule(spec, with_sends);
  } else {
    const PipelineTimes& t = spec.times;
    const PipelineMemo::Key key{std::int64_t(p.schedule),   p.pp,
                                p.microbatches(),           p.vpp,
                                with_sends ? 1 : 0,         detail::double_bits(t.f),
                                detail::double_bits(t.b),   detail::double_bits(t.w),
                                detail::double_bits(t.comm)};
    const auto found = memo->done.find(key);
    if (found != memo->done.end()) {
      c.scheduled = found->second;
    } else {
      c.scheduled = schedule(spec, with_sends);
      if (memo->done.size() >= PipelineMemo::kCapacity) memo->done.clear();
      memo->done.emplace(key, c.scheduled);
    }
  }
  const PipelineMetrics& with_comm = c.scheduled.metrics;
  c.busy = *std::max_element(with_comm.busy.begin(), with_comm.busy.end());
  c.r.pipeline_makespan = with_comm.makespan;
  c.scheduled_done = true;
}

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

void schedule_step_core(const TrainingRun& run, StepCore& core, bool with_sends, PipelineMemo* memo) {
  if (!core.scheduled_done) schedule_core(run, core, with_sends, memo);
}

bool step_core_scheduled(const StepCore& core) { return core.scheduled_done; }

void check_step_core(const TrainingRun& run, const StepCore& core) { check_pipeline_metrics(core_spec(run, core)); }

PipelineSpec pipeline_spec_of(const ParallelConfig& p) {
  PipelineSpec spec;
  spec.schedule = p.schedule;
  spec.stages = int(p.pp);
  spec.microbatches = int(p.microbatches());
  spec.chunks = int(p.vpp);
  return spec;
}

double makespan_lower_bound(const TrainingRun& run, const StepCore& c) {
  // The schedule's own floor (pipeline_bound.cpp: busy time plus the fill and drain no timeline avoids), at the op
  // times schedule_core will time, less 10^-9 of it for the rounding of the simulation's sums.
  const double floor = makespan_floor(core_spec(run, c));
  return floor - 1e-9 * floor;
}

StepResult finish_step(const TrainingRun& run, const Efficiency& eff, const StepCore& c, bool with_axes) {
  const ModelShape& m = run.model;
  const ParallelConfig& p = run.parallel;
  const Hardware& hw = run.hardware;
  const double peak = hw.peak_flops;
  const double hbm = hw.memory_bandwidth * eff.memory_efficiency;
  StepResult r = c.r;
  r.parallel = p;
  r.stage_layers = stage_layer_counts(m.layers, p);  // for the answer only: not per core (the planner builds many)
  const double mb = c.mb;
  const double vpp = double(p.vpp);
  const LayerComm& comm = c.comm;
  const LogitsWork& logits = c.logits;
  const double logits_math = c.logits_math;
  const ChunkTimes& avg = c.avg;
  const double avg_f = c.avg_f, avg_b = c.avg_b;
  const std::int64_t slowest_stage = c.slowest_stage;
  const double max_f = c.max_f, max_b = c.max_b;
  const std::vector<StageLayerCounts>& stages = c.stages;
  const double p2p = c.p2p, p2p_bytes = c.p2p_bytes;
  const Scheduled& scheduled = c.scheduled;
  const PipelineMetrics& with_comm = scheduled.metrics;
  const double busy = c.busy;

  // Data-parallel gradient reduction (and ZeRO's parameter gathers), over the dp·cp ranks that share the dense
  // weights and the edp = tp·cp·dp / (ep·etp) ranks that share an expert shard, for the slowest stage's parameters.
  const detail::ParamsOnGpu held = detail::params_on_stage(run, slowest_stage, stages[std::size_t(slowest_stage)]);
  // The dense weights reduce over the dp·cp ranks tp apart; an expert shard over its edp ranks, etp·ep apart (the
  // MoE layers' rank order etp, ep, edp: MoE parallel folding), which may sit one per node where the dense group
  // has all its node mates: each group on its own link.
  const std::int64_t dp_group = p.dp * p.cp;
  const std::int64_t expert_group = p.edp();
  const Link dp_link = link_of(place_ranks(run.cluster, dp_group, p.tp), eff);
  const Link expert_link = link_of(place_ranks(run.cluster, expert_group, p.ep * p.expert_tp()), eff);
  double dp_time = 0, dp_bytes = 0, dp_count = 0, dp_exposed = 0;
  auto count = [&](const CollectiveCost& c, double times) {
    dp_time += times * c.time;
    dp_bytes += times * c.bytes_sent_per_gpu;
    dp_count += times;
  };
  const double last_backward = double(p.vpp) * max_b;     // the last microbatch's backward on this GPU
  const double layers_here = std::max(1.0, held.layers);  // layers whose weights it holds (DualPipe: two stages')
  // One layer's compute on this GPU for one microbatch, forward and backward: the window a prefetched collective of
  // the next layer hides behind.
  const double stage_layers = double(std::max<std::int64_t>(1, stages[std::size_t(slowest_stage)].layers));
  const double layer_f = vpp * max_f / stage_layers, layer_b = vpp * max_b / stage_layers;
  // A chain of `n` per-layer collectives of `each` seconds, each issued one layer ahead (FSDP's forward and backward
  // prefetch, Zhao et al. 2023; Megatron's bucketed --overlap-param-gather / --overlap-grad-reduce):
  // the first is waited for in full, each later one shows only what does not fit behind one layer's `hide` seconds.
  auto chain = [](double n, double each, double hide) {
    return n <= 0 ? 0.0 : each + (n - 1.0) * std::max(0.0, each - hide);
  };
  double gather = 0, scatter = 0;  // one layer's parameter all-gather and gradient reduce-scatter, over every group
  for (const auto& [params, group, link] :
       {std::tuple{held.dense, dp_group, dp_link}, std::tuple{held.expert, expert_group, expert_link}}) {
    if (group <= 1 || params <= 0) continue;
    const double grads = params * eff.grad_reduce_bytes;
    if (p.zero == 0) {
      // Plain data parallelism: one all-reduce of the gradients (Li et al. 2020, PyTorch DDP), overlapped with
      // the last backward when bucketed.
      const CollectiveCost ar = ring_allreduce(group, grads, link);
      count(ar, 1);
      dp_exposed += eff.dp_overlap ? std::max(0.0, ar.time - last_backward) : ar.time;
      continue;
    }
    // ZeRO (Rajbhandari et al. 2020, Sec. 5): reduce-scatter the gradients, all-gather the bf16 parameters, one
    // layer at a time.
    const CollectiveCost ag = ring_allgather(group, params * 2.0 / layers_here, link);
    const CollectiveCost rs = ring_reducescatter(group, grads / layers_here, link);
    gather += ag.time;
    scatter += rs.time;
    double gathers = layers_here, scatters = layers_here;  // per step
    if (p.zero == 3) {
      // FSDP / ZeRO-3: reshard_after_forward (PyTorch FSDP's FULL_SHARD, its default) frees each layer's gathered
      // weights after its forward, so every microbatch gathers them in the forward and again in the backward
      // (FSDP docs, ShardingStrategy; Zhao et al. 2023, sharding strategies). Without it the backward reuses the
      // forward's weights: one gather per microbatch. Gradients are reduce-scattered after every microbatch's backward,
      // except in a pipeline: torch.distributed.pipelining (torchtitan; Llama 3, Dubey et al. 2024 Sec. 3.3.2)
      // turns gradient sync and resharding after the backward off until the last microbatch, so weights gathered
      // without resharding stay for the whole step: one gather and one reduce-scatter per step.
      gathers *= p.reshard_after_forward ? 2.0 * mb : p.pp > 1 ? 1.0 : mb;
      scatters *= p.pp > 1 ? 1.0 : mb;
    }
    count(ag, gathers);
    count(rs, scatters);
  }
  if (p.zero >= 1 && p.zero <= 2) {
    // Megatron's distributed optimizer: the gradient reduce-scatter runs during the last microbatch's backward
    // (--overlap-grad-reduce), the parameter all-gather during the next step's forward, layer by layer
    // (--overlap-param-gather: each forward waits only for its own layer's bucket).
    const double rs_all = scatter * layers_here;
    dp_exposed += eff.dp_overlap ? std::max(0.0, rs_all - last_backward) : rs_all;
    dp_exposed += eff.dp_overlap ? chain(layers_here, gather, layer_f) : gather * layers_here;
  } else if (p.zero == 3) {
    if (!eff.dp_overlap) {
      dp_exposed = dp_time;
    } else if (p.reshard_after_forward) {
      // Each forward op (one chunk of k layers, one microbatch) waits for its first layer's gather, the rest are
      // prefetched; each backward op waits for its first gather, and its layers' backward also carries a gather
      // and (without a pipeline) a reduce-scatter each, the last reduce-scatter after the op; with a pipeline the
      // reduce-scatters run once, during the last microbatch's backward.
      const double k = layers_here / vpp, ops = mb * vpp;
      const double rs_each = p.pp > 1 ? 0.0 : scatter;
      dp_exposed =
          ops * (chain(k, gather, layer_f) + gather + rs_each + (k - 1.0) * std::max(0.0, gather + rs_each - layer_b));
      if (p.pp > 1) dp_exposed += chain(layers_here, scatter, layer_b);
    } else {
      const double passes = p.pp > 1 ? 1.0 : mb;  // gather once per step (pipeline) or per microbatch
      dp_exposed = passes * (chain(layers_here, gather, layer_f) + chain(layers_here, scatter, layer_b));
    }
  }
  dp_exposed = std::min(dp_exposed, dp_time);
  r.breakdown.dp_comm = dp_exposed;
  // The hidden part of the data-parallel traffic slows the backward (and FSDP's forward) it runs under.
  const double dp_slowdown = overlap_slowdown(eff, dp_time - dp_exposed);

  // Adam (Kingma & Ba 2015) on the parameters this GPU updates: read fp32 master, m, v and the fp32 gradient,
  // write master, m, v and the bf16 copy: 30 bytes per parameter, memory-bound.
  const double updated =
      (p.zero >= 1) ? held.dense / double(dp_group) + held.expert / double(expert_group) : held.dense + held.expert;
  r.breakdown.optimizer = updated * 30.0 / hbm;
  // A framework that accumulates gradients outside the GEMM (grad_accumulation_bytes: PyTorch's bf16 .grad added into
  // an fp32 buffer after each microbatch's backward) makes one more pass over every gradient it holds whole, at ZeRO
  // 0-2 (FSDP's reduce-scatter leaves only the shard to accumulate: not charged). Memory-bound, once per microbatch.
  const double accumulation = p.zero < 3 ? eff.grad_accumulation_bytes * (held.dense + held.expert) * mb / hbm : 0.0;

  // Breakdown: the average chunk's work per kind; the slowest chunk's excess is "other".
  const double per_gpu = mb * double(p.vpp);
  r.breakdown.compute = per_gpu * avg.math() + mb * logits_math / double(p.pp) + dp_slowdown;
  r.breakdown.memory_bound = per_gpu * avg.memory() +
                             mb * (1.0 + ChunkTimes::kMemBackward) * (logits.bytes / hbm) / double(p.pp) + accumulation;
  r.breakdown.tp_comm = per_gpu * (avg.tp_fwd + avg.tp_bwd);
  r.breakdown.ep_comm = per_gpu * (avg.ep_fwd + avg.ep_bwd);
  r.breakdown.cp_comm = per_gpu * (avg.cp_fwd + avg.cp_bwd);
  r.breakdown.other = std::max(0.0, busy - per_gpu * (avg_f + avg_b));
  // Clamped at 0: with no idle, makespan and busy are the same sum rounded in two orders (−8.9e-16 s).
  r.breakdown.pp_comm = std::max(0.0, std::min(scheduled.sends, with_comm.makespan - busy));
  r.breakdown.bubble = std::max(0.0, with_comm.makespan - busy - r.breakdown.pp_comm);
  if (p.pp == 1) {
    // One stage sends nothing and never waits for another: exactly zero, not the two sums' rounding (+2.8e-14 s was
    // reported for GPT-3 with the interleaved schedule at pp 1).
    r.breakdown.pp_comm = r.breakdown.bubble = 0.0;
  }
  if (std::isnan(scheduled.sends)) {
    // Sends not timed (schedule_step_core without with_sends): the split of idle time into sends and bubble is unknown.
    r.breakdown.pp_comm = r.breakdown.bubble = std::numeric_limits<double>::quiet_NaN();
  }
  r.step_time = with_comm.makespan + r.breakdown.dp_comm + r.breakdown.optimizer + dp_slowdown + accumulation;

  // MFU and HFU (PaLM App. B): model FLOPs per token × tokens per second over the cluster's peak.
  const FlopsPerToken& flops = c.flops;
  const double tokens_per_step = double(p.global_batch) * double(m.seq);
  const double gpus = double(run.cluster.gpus);
  r.tokens_per_second = tokens_per_step / r.step_time;
  r.flops_per_token = flops.model;
  r.hardware_flops_per_token = flops.hardware;
  if (with_axes) r.formula = flops_per_token(m, eff.attention, counted_recompute(p, eff)).formula;
  r.mfu = flops.model * r.tokens_per_second / (gpus * peak);
  r.hfu = flops.hardware * r.tokens_per_second / (gpus * peak);
  r.useful_at_peak = flops.model * tokens_per_step / gpus / peak;
  r.recompute_at_peak = (flops.hardware - flops.model) * tokens_per_step / gpus / peak;
  r.kernel_inefficiency = r.breakdown.compute - r.useful_at_peak - r.recompute_at_peak;
  // nvidia-smi's "utilization" is the share of time any kernel is resident (NVML nvmlDeviceGetUtilizationRates):
  // NCCL kernels count, and a stage in the bubble waits inside a posted receive kernel.
  const double idle = eff.bubble_kernel_resident ? 0.0 : r.breakdown.bubble;
  r.dashboard_utilization = (r.step_time - idle) / r.step_time;

  r.memory = detail::memory_per_gpu(run, eff, with_comm);
  r.memory_capacity = hw.memory_bytes;
  r.fits = hw.memory_bytes <= 0 || r.memory.total <= hw.memory_bytes;

  if (!with_axes) return r;
  // Per-axis traffic, for the four-axis figure: what each split adds and how much of it compute hides.
  auto axis = [&](Axis a, const char* splits, std::string collective, double count, double bytes, double time,
                  double exposed) {
    const GroupPlacement g = place_group(run.cluster, p, a);
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
    r.axes.push_back(std::move(t));
  };
  const double layer_mb = double(m.layers) / double(p.pp) * mb;  // layer-microbatches per GPU per step
  axis(
      Axis::data, "batch",
      p.zero == 0   ? "all-reduce of gradients"
      : p.zero <= 2 ? "reduce-scatter of gradients + all-gather of parameters, layer by layer"
      : p.reshard_after_forward
          ? (p.pp > 1 ? "all-gather of parameters, forward and backward, per microbatch + reduce-scatter of "
                        "gradients, once per step"
                      : "all-gather of parameters (forward and backward) + reduce-scatter of gradients, per microbatch")
      : p.pp > 1 ? "all-gather of parameters + reduce-scatter of gradients, once per step (no reshard after forward)"
                 : "all-gather of parameters + reduce-scatter of gradients, per microbatch (no reshard after forward)",
      dp_count, dp_bytes, dp_time, r.breakdown.dp_comm);
  axis(Axis::tensor, "weight matrices",
       p.sequence_parallel ? "reduce-scatter + all-gather, 2 each per layer forward and backward"
                           : "all-reduce, 2 per layer forward and 2 backward",
       comm.tp_count * layer_mb, comm.tp_bytes * layer_mb, (comm.tp_fwd + comm.tp_bwd) * layer_mb, r.breakdown.tp_comm);
  axis(Axis::pipeline, "layers", "point-to-point activations and gradients at each stage boundary",
       p.pp > 1 ? 2.0 * mb * double(p.vpp) : 0.0, p.pp > 1 ? 2.0 * mb * double(p.vpp) * p2p_bytes : 0.0,
       p.pp > 1 ? 2.0 * mb * double(p.vpp) * p2p : 0.0, r.breakdown.pp_comm);
  if (m.is_moe()) {
    axis(Axis::expert, "experts", "all-to-all dispatch + combine per MoE layer, forward and backward",
         comm.ep_count * layer_mb, comm.ep_bytes * layer_mb, (comm.ep_fwd + comm.ep_bwd) * layer_mb,
         r.breakdown.ep_comm);
  }
  if (p.cp > 1) {
    axis(Axis::context, "sequence", "ring exchange of K and V blocks per layer (backward adds their gradients)",
         comm.cp_count * layer_mb, comm.cp_bytes * layer_mb, (comm.cp_fwd + comm.cp_bwd) * layer_mb,
         r.breakdown.cp_comm);
  }
  return r;
}

}  // namespace detail

StepResult evaluate_step(const TrainingRun& run, const Efficiency& eff) {
  detail::StepCore core;
  detail::build_core(run, eff, core);
  detail::schedule_core(run, core);
  return detail::finish_step(run, eff, core, true);
}

void check_step(const TrainingRun& run, const Efficiency& eff) {
  detail::StepCore core;
  detail::build_core(run, eff, core);
  detail::check_step_core(run, core);
}

}  // namespace parascope
