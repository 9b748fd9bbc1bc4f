// Memory per GPU: mixed-precision Adam states under ZeRO (Rajbhandari et al. 2020) and activations in flight
// (Korthikanti et al. 2022) counted from the pipeline schedule itself, stage by stage from the real layer assignment.
#include "memory_model.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <tuple>

#include "cache_map.hpp"
#include "layer_work.hpp"
#include "parascope/parallel.hpp"
#include "parascope/stages.hpp"

namespace parascope::detail {

namespace {

/// Every stage's layer kinds, from the real assignment (stage_chunks), by what they depend on. A planner asks for the
/// same few (pp, vpp) again and again, and each configuration twice (its bound, then its step): kept per thread.
const std::vector<StageLayerCounts>& stage_kinds(const TrainingRun& run) {
  const ModelShape& m = run.model;
  const ParallelConfig& p = run.parallel;
  using Key = std::tuple<std::int64_t, std::int64_t, std::int64_t, std::int64_t, std::int64_t, std::int64_t,
                         std::int64_t, std::int64_t, std::int64_t>;
  struct Hash {
    std::size_t operator()(const Key& k) const {
      std::size_t h = 0;
      const auto mix = [&h](std::size_t v) { h = (h ^ v) * 1099511628211ull; };
      mix(std::size_t(std::get<0>(k))), mix(std::size_t(std::get<1>(k))), mix(std::size_t(std::get<2>(k)));
      mix(std::size_t(std::get<3>(k))), mix(std::size_t(std::get<4>(k))), mix(std::size_t(std::get<5>(k)));
      mix(std::size_t(std::get<6>(k))), mix(std::size_t(std::get<7>(k))), mix(std::size_t(std::get<8>(k)));
      return h;
    }
  };
  // The last one asked first (most calls), then the table.
  thread_local Key last_key{-1, -1, -1, -1, -1, -1, -1, -1, -1};
  thread_local const std::vector<StageLayerCounts>* last = nullptr;
  thread_local CacheMap<Key, std::vector<StageLayerCounts>, Hash> cache;
  // moe_layers_in reads layers, first_dense_layers, moe_layer_freq and is_moe; stage_chunks pp, vpp, the
  // first/last stage layer counts, whether the embedding and the loss count as pipeline layers, and the output
  // layer's weight in a cost-balanced split (its bits: any two weights are two keys).
  const std::int64_t flags = (m.is_moe() ? 1 : 0) | (p.embedding_in_split ? 2 : 0) | (p.loss_in_split ? 4 : 0);
  std::int64_t weight_bits = 0;
  static_assert(sizeof weight_bits == sizeof p.output_layer_weight);
  std::memcpy(&weight_bits, &p.output_layer_weight, sizeof weight_bits);
  const Key key{m.layers, m.first_dense_layers, m.moe_layer_freq,    flags,      p.pp,
                p.vpp,    p.first_stage_layers, p.last_stage_layers, weight_bits};
  if (last && key == last_key) return *last;
  auto found = cache.find(key);
  if (found == cache.end()) {
    if (cache.size() >= 4096) cache.clear();  // bounds its memory (and `last` is set again below)
    const std::vector<std::vector<Span>> chunks = stage_chunks(m.layers, p);
    std::vector<StageLayerCounts> out(chunks.size());
    for (std::size_t s = 0; s < chunks.size(); ++s) {
      for (const Span& chunk : chunks[s]) {
        out[s].layers += chunk.size();
        out[s].moe += m.moe_layers_in(chunk.first, chunk.end);
      }
    }
    found = cache.emplace(key, std::move(out)).first;
  }
  last_key = key;
  last = &found->second;
  return *last;
}

ParamsOnGpu params_held(const TrainingRun& run, const ParamCounts& c, std::int64_t stage, const StageLayerCounts& n) {
  const ModelShape& m = run.model;
  const ParallelConfig& p = run.parallel;
  const double tp = double(p.tp);
  const double layers = double(n.layers), moe = double(n.moe);
  ParamsOnGpu out;
  // Megatron splits every weight matrix over tp (norms are replicated, negligible); the routed experts over ep and
  // each expert's FFN over etp (MoE parallel folding); shared experts are tensor-parallel like a dense FFN.
  // DualPipe feeds microbatches from both ends, so every GPU holds its stage and the mirrored one: two copies of the
  // parameters (DeepSeek-V3 report, Sec. 3.2.1, Table 2: "Parameter 2×").
  const double copies = schedule_info(p.schedule).holds_two_stages && p.pp > 1 ? 2.0 : 1.0;
  out.dense = copies *
              (layers * (c.attention_per_layer / tp + c.norms_per_layer) + (layers - moe) * c.dense_ffn_per_layer / tp +
               moe * (double(m.shared_experts) * c.expert_ffn / tp + c.router_per_layer));
  out.expert = copies * moe * double(m.experts) * c.expert_ffn / (double(p.ep) * double(p.expert_tp()));
  // Embeddings, vocabulary-parallel over tp: with pp = 1 the GPU holds them all; otherwise the first stage holds the
  // input table and the last the output table and the final norm (a tied table is kept on both).
  const double table = double(m.vocab) * double(m.hidden) / tp;
  if (p.pp == 1) {
    out.dense += c.embedding / tp + c.final_norm;
  } else {
    if (stage == 0) out.dense += table;
    if (stage == p.pp - 1) out.dense += table + c.final_norm;
  }
  out.layers = copies * layers;
  return out;
}

/// Optimizer offload (ZeRO-Offload, Ren et al. 2021 Sec. 4.1; Megatron-Core's HybridDeviceOptimizer,
/// megatron/core/optimizer/cpu_offloading/hybrid_optimizer.py at be37e2c): the share `offload_optimizer` of the
/// `updated` parameters this GPU's optimizer steps keeps its fp32 master, momentum and variance on the host, beside a
/// pinned fp32 copy of their gradients (16 bytes a parameter there). Megatron-Core's hybrid optimizer copies the
/// result back into the fp32 main weights it keeps on the GPU (offload_master_on_gpu: 4 of the 12 bytes stay).
/// The gradients on the GPU are kept as without offload (Megatron's grad buffer; an upper bound for DeepSpeed's).
void offload_states(const ParallelConfig& p, const Efficiency& eff, double updated, MemoryPerGpu& mem) {
  const double moved = p.offload_optimizer * updated;
  mem.optimizer -= (eff.offload_master_on_gpu ? 8.0 : 12.0) * moved;
  mem.host = 16.0 * moved;
}

/// Weights, gradients and optimizer states one GPU of a stage holding `held` keeps (mixed-precision Adam under ZeRO).
MemoryPerGpu states_on_gpu(const TrainingRun& run, const Efficiency& eff, const ParamsOnGpu& held) {
  const ParallelConfig& p = run.parallel;
  const double dp_group = double(p.dp * p.cp);
  const double expert_group = double(p.edp());
  // ZeRO-3 / FSDP (Zhao et al. 2023, sharding strategies): resharding after the forward keeps only the shard plus the
  // layer being computed and the one prefetched; without it the gathered weights stay until the backward (in a
  // pipeline, until the last microbatch's). A pipeline (torch.distributed.pipelining) accumulates unsharded gradients
  // until the last microbatch's backward.
  const bool unsharded_weights = p.zero == 3 && !p.reshard_after_forward;
  const bool unsharded_grads = p.zero == 3 && p.pp > 1;
  // Sharded under ZeRO stage `from` and above, replicated below it.
  auto per_gpu = [&](double bytes_per_param, int from, bool unsharded = false) {
    return p.zero >= from && !unsharded ? bytes_per_param * (held.dense / dp_group + held.expert / expert_group)
                                        : bytes_per_param * (held.dense + held.expert);
  };
  MemoryPerGpu mem;
  // Mixed-precision Adam (Rajbhandari et al. 2020, Sec. 3.1): bf16 weights (2 B), gradients (grad_reduce_bytes:
  // Megatron keeps fp32 main gradients, 4 B), fp32 master weights + momentum + variance (K = 12 B).
  mem.weights = per_gpu(2.0, 3, unsharded_weights);
  if (p.zero == 3 && p.reshard_after_forward && held.layers > 0) {
    mem.weights += 2.0 * 2.0 * (held.dense + held.expert) / held.layers;  // two gathered layers in bf16
  }
  mem.gradients = per_gpu(eff.grad_reduce_bytes, 2, unsharded_grads);
  // A bf16 `.grad` beside the fp32 gradient (grad_copy_bytes), kept whole at ZeRO 0 and 1; from ZeRO 2 on the
  // framework reduces each bucket as it fills and keeps only its fp32 shard (DeepSpeed's stage 2, FSDP).
  if (p.zero <= 1) mem.gradients += eff.grad_copy_bytes * (held.dense + held.expert);
  // PyTorch DDP's bucket copy of every gradient, when there is a data-parallel peer to reduce with
  // (ddp_bucket_bytes, cost_types.hpp).
  if (p.zero <= 1 && dp_group > 1) mem.gradients += eff.ddp_bucket_bytes * (held.dense + held.expert);
  mem.optimizer = per_gpu(12.0, 1);
  if (p.offload_optimizer > 0) offload_states(p, eff, per_gpu(1.0, 1), mem);
  return mem;
}

/// The flat bucket a stack's gradient reduction allocates after the pipeline flush
/// (Efficiency::reduce_bucket_elements): DeepSpeed's pipeline engine flattens up to 500 M gradient elements into one
/// tensor to all-reduce them (allreduce_bucket's `self.flatten(bucket)`, deepspeed/runtime/engine.py at v0.6.0) and its
/// ZeRO 1 allocates a reduce bucket of that size for the pipeline's reduction (stage_1_and_2.py, reduce_gradients:
/// "with PP we must create ipg buffer"), whatever the data-parallel size. It is allocated when the activations are
/// freed, but in one block far larger than any of theirs, which the caching allocator cannot assemble from their freed
/// blocks (it merges free neighbours only inside one cudaMalloc'd segment, and a large block gets a segment of its own
/// size: c10/cuda/CUDACachingAllocator.cpp), so reserved memory grows by it and stays so.
double reduce_bucket(const Efficiency& eff, const ParamsOnGpu& held) {
  return std::min(eff.reduce_bucket_elements, held.dense + held.expert) * eff.grad_reduce_bytes;
}

/// NCCL buffer sets (nccl_buffer_bytes each: one connection's LL, LL128 and Simple buffers on every channel) that a
/// communicator of `gpus` GPUs holds on each of them. Since NCCL 2.22 a communicator connects at run time what its
/// collectives use (NCCL_RUNTIME_CONNECT, default 1: src/init.cc at v2.22.3), for bandwidth-bound collectives the
/// ring: one connection a GPU. Before, it connected every ring and tree at init (src/init.cc at v2.10.3, "Connected all
/// rings", "Connected all trees"), and each channel's tree adds a connection from the GPU's child and one from its
/// parent in the chain (tree.down, tree.up): 3 sets, 2 where two GPUs have one tree neighbour (nccl_connects_trees).
/// NCCL issue #964 measured 688 MB a communicator of more than two A100s and 544 MB of two, PyTorch's all-reduce.
double buffer_sets(std::int64_t gpus, const Efficiency& eff) {
  if (gpus <= 1) return 0;
  if (!eff.nccl_connects_trees) return 1;
  return gpus > 2 ? 3 : 2;
}

/// Buffer sets the pipeline gives the most connected GPU: the pipeline group's, and with pair_communicators a two-rank
/// communicator per neighbour, as PyTorch opens one for each peer of an unbatched send or recv
/// (ProcessGroupNCCL::pointToPoint, getKeySendRecv, PyTorch 1.11); DeepSpeed's pipeline engine sends so since torch
/// 1.8 (deepspeed/runtime/pipe/p2p.py, send/recv, at v0.6.0) and broadcasts the loss over the pipeline group
/// (pipe/engine.py, _aggregate_total_loss). A stage inside the pipeline has two neighbours; one at an end has one,
/// and with tied embeddings the two end stages' group that all-reduces their gradients (pipe/module.py,
/// allreduce_tied_weight_gradients).
double pipeline_buffer_sets(const TrainingRun& run, const Efficiency& eff) {
  const ParallelConfig& p = run.parallel;
  if (p.pp == 1) return 0;
  const double group = buffer_sets(p.pp, eff);
  if (!eff.pair_communicators) return group;
  const double pair = buffer_sets(2, eff);
  const double inside = p.pp > 2 ? 2 * pair : 0;
  const double at_an_end = pair + (run.model.tied_embeddings ? pair : 0);
  return group + std::max(inside, at_an_end);
}

/// Buffer sets of the communicators one GPU belongs to: one per parallel group of more than one GPU (tensor, context,
/// data (dp·cp, the dense gradients'), pipeline, and for MoE the expert and expert-data groups; Megatron-Core's
/// parallel_state builds one NCCL communicator per group). With model_group_communicators, DeepSpeed's
/// PipelineParallelGrid adds its model group (ds_model_proc_group: the gradient norm's and overflow's all-reduces)
/// and, with tp > 1, its slice group (slice_proc_group: the pipeline's partitioned activations, is_pipe_partitioned
/// when tp > 1), beside Megatron's own tensor group (deepspeed/runtime/pipe/topology.py, pipe/engine.py at v0.6.0).
/// With world_communicator, the default process group's over every GPU.
double communicator_buffer_sets(const TrainingRun& run, const Efficiency& eff) {
  const ParallelConfig& p = run.parallel;
  double sets =
      buffer_sets(p.tp, eff) + buffer_sets(p.cp, eff) + buffer_sets(p.dp * p.cp, eff) + pipeline_buffer_sets(run, eff);
  if (run.model.is_moe()) {
    sets += buffer_sets(p.ep, eff) + (p.edp() != p.dp * p.cp ? buffer_sets(p.edp(), eff) : 0);
  }
  if (eff.model_group_communicators && p.pp > 1) sets += buffer_sets(p.tp * p.pp, eff) + buffer_sets(p.tp, eff);
  if (eff.world_communicator) sets += buffer_sets(run.cluster.gpus, eff);
  return sets;
}

/// NVLink SHARP buffers of a communicator of `size` GPUs `stride` ranks apart on each of them: nvls_buffer_bytes per
/// GPU of it on the node, when more than two are (Efficiency::nvls_buffer_bytes, kernel_model.cpp).
double nvls_bytes(const TrainingRun& run, const Efficiency& eff, std::int64_t size, std::int64_t stride) {
  if (eff.nvls_buffer_bytes <= 0 || !run.hardware.nvlink_multicast || size <= 2) return 0;
  const std::int64_t local = place_ranks(run.cluster, size, stride).members_per_node;
  return local > 2 ? double(local) * eff.nvls_buffer_bytes : 0.0;
}

/// NVLS buffers of the communicators one GPU belongs to (communicator_buffer_sets's groups, as they lie on the nodes:
/// parallel.cpp's rank order tp, cp, dp, pp; expert groups on their own strides).
double communicator_nvls_bytes(const TrainingRun& run, const Efficiency& eff) {
  const ParallelConfig& p = run.parallel;
  double bytes = nvls_bytes(run, eff, p.tp, 1) + nvls_bytes(run, eff, p.cp, p.tp) +
                 nvls_bytes(run, eff, p.dp * p.cp, p.tp) + nvls_bytes(run, eff, p.pp, p.tp * p.cp * p.dp);
  if (run.model.is_moe()) {
    bytes += nvls_bytes(run, eff, p.ep, p.expert_tp());
    if (p.edp() != p.dp * p.cp) bytes += nvls_bytes(run, eff, p.edp(), p.expert_tp() * p.ep);
  }
  if (eff.world_communicator) bytes += nvls_bytes(run, eff, run.cluster.gpus, 1);
  return bytes;
}

/// Device bytes outside the framework's allocator: the CUDA context and each communicator's NCCL buffers.
double runtime_bytes(const TrainingRun& run, const Efficiency& eff) {
  return eff.runtime_context_bytes + communicator_buffer_sets(run, eff) * eff.nccl_buffer_bytes +
         communicator_nvls_bytes(run, eff);
}

}  // namespace

std::vector<StageLayerCounts> stage_layer_kinds(const TrainingRun& run) { return stage_kinds(run); }

ParamsOnGpu params_on_stage(const TrainingRun& run, std::int64_t stage, const StageLayerCounts& n) {
  return params_held(run, count_params(run.model), stage, n);
}

double states_memory_bound(const TrainingRun& run, const Efficiency& eff) {
  double most = 0;
  const ParamCounts c = count_params(run.model);
  const std::vector<StageLayerCounts>& stages = stage_kinds(run);
  for (std::int64_t s = 0; s < run.parallel.pp; ++s) {
    const MemoryPerGpu mem = states_on_gpu(run, eff, params_held(run, c, s, stages[std::size_t(s)]));
    most = std::max(most, mem.weights + mem.gradients + mem.optimizer);
  }
  return most;
}

MemoryPerGpu memory_per_gpu(const TrainingRun& run, const Efficiency& eff, const PipelineMetrics& schedule) {
  return memory_per_gpu(run, eff, schedule.peak_activations.data(), schedule.peak_activations.size());
}

MemoryPerGpu memory_per_gpu(const TrainingRun& run, const Efficiency& eff, const int* peak, std::size_t peaks) {
  return memory_per_gpu(run, eff, peak, peaks, count_params(run.model));
}

namespace {

/// The stages memory_per_gpu counts, in stage order, each passed to `visit`. A stage between the ends holds what every
/// other such stage with its layer counts holds, but for activations growing with its peak: one that holds no more
/// activation sets than an earlier one of its kind cannot be the (first) most loaded, so only the first of each kind
/// and peak is counted (the same answer, bit for bit).
template <typename Visit>
void visit_counted_stages(const ParallelConfig& p, const std::vector<StageLayerCounts>& stages, const int* peak,
                          std::size_t peaks, Visit visit) {
  struct Kind {
    std::int64_t layers, moe;
    std::int64_t peak;
  };
  Kind seen[4];
  int kinds = 0;
  for (std::int64_t s = 0; s < p.pp; ++s) {
    const StageLayerCounts& n = stages[std::size_t(s)];
    const std::int64_t held_sets = std::size_t(s) < peaks ? std::int64_t(peak[s]) : -1;
    if (s > 0 && s < p.pp - 1) {
      int k = 0;
      while (k < kinds && (seen[k].layers != n.layers || seen[k].moe != n.moe)) ++k;
      if (k < kinds) {
        if (seen[k].peak >= held_sets) continue;
        seen[k].peak = held_sets;
      } else if (kinds < 4) {
        seen[kinds++] = {n.layers, n.moe, held_sets};
      }
    }
    visit(s, n);
  }
}

}  // namespace

LayerActivations layer_activations(const TrainingRun& run, const Efficiency& eff) {
  const ModelShape& m = run.model;
  const ParallelConfig& p = run.parallel;
  // Activation bytes of one dense-FFN layer and one MoE layer (Korthikanti et al. 2022 Table 2, layer_work.cpp): the
  // run with every layer of one kind (with_layer_kind) has an MoE share of 0 or 1.
  const double moe_kind_share = m.is_moe() ? 1.0 : 0.0;
  LayerActivations a;
  a.dense = activation_bytes_per_layer(m, p, eff, 0.0);
  a.moe = activation_bytes_per_layer(m, p, eff, moe_kind_share);
  ParallelConfig unrecomputed = p;
  unrecomputed.recompute = Recompute::none;
  const double whole_layer = std::max(activation_bytes_per_layer(m, unrecomputed, eff, 0.0),
                                      activation_bytes_per_layer(m, unrecomputed, eff, moe_kind_share));
  if (p.recompute == Recompute::full || p.recompute == Recompute::op) a.rebuilt = whole_layer;
  // A layer's backward holds a gradient for each tensor it saved while it consumes them (autograd frees a saved
  // tensor once its node has run): at most about one more layer's activations, beside those still in flight.
  a.workspace = whole_layer;
  return a;
}

namespace {

/// The moment memory_per_gpu counts for stage s: the schedule's most activation sets (none when `peak` does not reach
/// the stage), during a backward, with the loss's logits on the last stage.
MemoryMoment peak_moment(const int* peak, std::size_t peaks, std::int64_t s) {
  return {std::size_t(s) < peaks ? peak[s] : -1, true, true};
}

/// What stage s's GPU holds (its layer counts `n`, its parameters `held`) at `moment` (MemoryMoment).
MemoryPerGpu stage_memory(const TrainingRun& run, const Efficiency& eff, const MemoryMoment& moment,
                          const LayerActivations& act, double runtime, std::int64_t s, const StageLayerCounts& n,
                          const ParamsOnGpu& held) {
  const ModelShape& m = run.model;
  const ParallelConfig& p = run.parallel;
  const double act_dense = act.dense, act_moe = act.moe, rebuilt = act.rebuilt;
  MemoryPerGpu mem = states_on_gpu(run, eff, held);

  // Activations: the stage holds, for every microbatch whose backward has not run, its chunk's layers
  // (peak_activations per stage, counted by the schedule); a chunk holds n/vpp of the stage's n layers on average.
  const double per_layer =
      n.layers > 0 ? (double(n.layers - n.moe) * act_dense + double(n.moe) * act_moe) / double(n.layers) : 0.0;
  if (moment.sets >= 0) {
    mem.activations = double(moment.sets) * double(n.layers) / double(p.vpp) * per_layer;
  }
  if (moment.backward) mem.activations += rebuilt;
  // The peak's transient: on the last stage the loss's logits for one microbatch (loss_bytes_per_logit: the
  // bf16 logits and the cross-entropy's fp32 copies, vocabulary split over tp; Korthikanti et al. 2022 Sec. 4.3
  // count the fp32 logits alone; with tp > 1 the vocabulary-parallel loss's own temporaries,
  // loss_parallel_extra_bytes), elsewhere, or when larger, one layer's backward workspace.
  const double tokens = double(p.microbatch_size) * double(m.seq) / double(p.cp);
  // The larger of the loss's forward and backward (loss_backward_bytes_per_logit: eager PyTorch's three fp32 tensors).
  const double per_logit = std::max(eff.loss_bytes_per_logit, eff.loss_backward_bytes_per_logit) +
                           (p.tp > 1 ? eff.loss_parallel_extra_bytes : 0.0);
  const double loss = moment.loss && s == p.pp - 1 ? per_logit * tokens * double(m.vocab) / double(p.tp) : 0.0;
  const double workspace = moment.backward ? act.workspace : 0.0;
  mem.peak_at_loss = loss > workspace;
  mem.transient = std::max(loss, workspace);
  const double allocated = mem.weights + mem.gradients + mem.optimizer + mem.activations + mem.transient;
  // The caching allocator's reserve grows where blocks of changing sizes come and go: activations, the loss's
  // logits, the backward's workspace. The model states are allocated once at start-up as a few large buffers
  // (Megatron-Core's param and grad buffers, FSDP2's flat shards, the optimizer's states) and never freed, so they
  // leave no free blocks to strand. The reserve fills at most the device's free bytes: before it reports out of
  // memory the allocator frees its cached blocks and retries (c10/cuda/CUDACachingAllocator.cpp, malloc's
  // release_cached_blocks), so a run whose allocated bytes fit starts with less cache.
  mem.allocator_reserve = eff.allocator_reserve * (mem.activations + mem.transient) + reduce_bucket(eff, held);
  if (run.hardware.memory_bytes > 0) {
    const double free = std::max(0.0, run.hardware.memory_bytes - allocated - runtime);
    mem.allocator_reserve = std::min(mem.allocator_reserve, free);
  }
  mem.runtime = runtime;
  mem.total = allocated + mem.allocator_reserve + mem.runtime;
  return mem;
}

/// memory_per_gpu over the stages `visit_stages` names (all it may count, in stage order, each with its parameters):
/// the most loaded (the first on a tie), and its place among them in `most`.
template <typename VisitStages>
MemoryPerGpu most_loaded(const TrainingRun& run, const Efficiency& eff, const int* peak, std::size_t peaks,
                         const LayerActivations& act, VisitStages visit_stages, std::size_t* most = nullptr) {
  const double runtime = runtime_bytes(run, eff);
  MemoryPerGpu best;
  std::size_t visited = 0;
  visit_stages([&](std::int64_t s, const StageLayerCounts& n, const ParamsOnGpu& held) {
    const MemoryPerGpu mem = stage_memory(run, eff, peak_moment(peak, peaks, s), act, runtime, s, n, held);
    if (s == 0 || mem.total > best.total) {
      best = mem;
      if (most) *most = visited;
    }
    ++visited;
  });
  return best;
}

}  // namespace

MemoryPerGpu memory_per_gpu(const TrainingRun& run, const Efficiency& eff, const int* peak, std::size_t peaks,
                            const ParamCounts& c) {
  const std::vector<StageLayerCounts>& stages = stage_kinds(run);
  return most_loaded(run, eff, peak, peaks, layer_activations(run, eff), [&](auto&& count) {
    visit_counted_stages(run.parallel, stages, peak, peaks,
                         [&](std::int64_t s, const StageLayerCounts& n) { count(s, n, params_held(run, c, s, n)); });
  });
}

void counted_stages(const TrainingRun& run, const int* peak, std::size_t peaks, const ParamCounts& c,
                    CountedStages& out) {
  out.stage.clear();
  out.layers.clear();
  out.held.clear();
  visit_counted_stages(run.parallel, stage_kinds(run), peak, peaks, [&](std::int64_t s, const StageLayerCounts& n) {
    out.stage.push_back(s);
    out.layers.push_back(n);
    out.held.push_back(params_held(run, c, s, n));
  });
}

MemoryPerGpu memory_per_gpu(const TrainingRun& run, const Efficiency& eff, const int* peak, std::size_t peaks,
                            const CountedStages& counted, const LayerActivations& act, std::size_t* most) {
  return most_loaded(
      run, eff, peak, peaks, act,
      [&](auto&& count) {
        for (std::size_t i = 0; i < counted.stage.size(); ++i) {
          count(counted.stage[i], counted.layers[i], counted.held[i]);
        }
      },
      most);
}

double counted_stage_total(const TrainingRun& run, const Efficiency& eff, const int* peak, std::size_t peaks,
                           const CountedStages& counted, const LayerActivations& act, std::size_t i) {
  return stage_memory(run, eff, peak_moment(peak, peaks, counted.stage[i]), act, runtime_bytes(run, eff),
                      counted.stage[i], counted.layers[i], counted.held[i])
      .total;
}

StageMemoryInputs stage_memory_inputs(const TrainingRun& run, const Efficiency& eff, std::int64_t stage) {
  StageMemoryInputs in;
  in.stage = stage;
  in.layers = stage_kinds(run)[std::size_t(stage)];
  in.held = params_held(run, count_params(run.model), stage, in.layers);
  in.act = layer_activations(run, eff);
  in.runtime = runtime_bytes(run, eff);
  return in;
}

MemoryPerGpu stage_memory_at(const TrainingRun& run, const Efficiency& eff, const StageMemoryInputs& in,
                             const MemoryMoment& moment) {
  return stage_memory(run, eff, moment, in.act, in.runtime, in.stage, in.layers, in.held);
}

}  // namespace parascope::detail
