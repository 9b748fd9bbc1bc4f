// Memory per GPU: mixed-precision Adam states under ZeRO (Rajbhandari et al. 2020) and activations in flight
// (Korthikanti et al. 2022) counted from the pipeline schedule itself, stage by stage from the real layer assignment.
#include "memory_model.hpp"

#include <algorithm>
#include <cmath>

#include "layer_work.hpp"
#include "parascope/stages.hpp"

namespace parascope::detail {

std::vector<StageLayerCounts> stage_layer_kinds(const TrainingRun& run) {
  const std::vector<std::vector<Span>> chunks = stage_chunks(run.model.layers, run.parallel);
  std::vector<StageLayerCounts> out(chunks.size());
  for (std::size_t s = 0; s < chunks.size(); ++s) {
    for (const Span& chunk : chunks[s]) {
      out[s].layers += chunk.size();
      out[s].moe += run.model.moe_layers_in(chunk.first, chunk.end);
    }
  }
  return out;
}

ParamsOnGpu params_on_stage(const TrainingRun& run, std::int64_t stage, const StageLayerCounts& n) {
  const ModelShape& m = run.model;
  const ParallelConfig& p = run.parallel;
  const ParamCounts c = count_params(m);
  const double tp = double(p.tp);
  const double layers = double(n.layers), moe = double(n.moe);
  ParamsOnGpu out;
  // Megatron splits every weight matrix over tp (norms are replicated, negligible); the routed experts over ep and
  // each expert's FFN over etp (MoE parallel folding); shared experts are tensor-parallel like a dense FFN.
  // DualPipe feeds microbatches from both ends, so every GPU holds its stage and the mirrored one: two copies of the
  // parameters (DeepSeek-V3 report, Sec. 3.2.1, Table 2: "Parameter 2×").
  const double copies = schedule_info(p.schedule).holds_two_stages && p.pp > 1 ? 2.0 : 1.0;
  out.dense = copies * (layers * (c.attention_per_layer / tp + c.norms_per_layer) +
                        (layers - moe) * c.dense_ffn_per_layer / tp +
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

namespace {

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
  mem.optimizer = per_gpu(12.0, 1);
  return mem;
}

}  // namespace

double states_memory_bound(const TrainingRun& run, const Efficiency& eff) {
  double most = 0;
  const std::vector<StageLayerCounts> stages = stage_layer_kinds(run);
  for (std::int64_t s = 0; s < run.parallel.pp; ++s) {
    const MemoryPerGpu mem = states_on_gpu(run, eff, params_on_stage(run, s, stages[std::size_t(s)]));
    most = std::max(most, mem.weights + mem.gradients + mem.optimizer);
  }
  return most;
}

MemoryPerGpu memory_per_gpu(const TrainingRun& run, const Efficiency& eff, const PipelineMetrics& schedule) {
  const ParallelConfig& p = run.parallel;
  // Activation bytes of one dense-FFN layer and one MoE layer (Korthikanti et al. 2022 Table 2, layer_work.cpp).
  const double act_dense = activation_bytes_per_layer(with_layer_kind(run, false), eff);
  const double act_moe = activation_bytes_per_layer(with_layer_kind(run, true), eff);
  double rebuilt = 0;  // full recomputation rebuilds one layer's whole activations at a time
  if (p.recompute == Recompute::full) {
    TrainingRun unrecomputed = run;
    unrecomputed.parallel.recompute = Recompute::none;
    rebuilt = std::max(activation_bytes_per_layer(with_layer_kind(unrecomputed, false), eff),
                       activation_bytes_per_layer(with_layer_kind(unrecomputed, true), eff));
  }
  MemoryPerGpu best;
  const std::vector<StageLayerCounts> stages = stage_layer_kinds(run);
  for (std::int64_t s = 0; s < p.pp; ++s) {
    const StageLayerCounts& n = stages[std::size_t(s)];
    const ParamsOnGpu held = params_on_stage(run, s, n);
    MemoryPerGpu mem = states_on_gpu(run, eff, held);

    // Activations: the stage holds, for every microbatch whose backward has not run, its chunk's layers
    // (peak_activations per stage, counted by the schedule); a chunk holds n/vpp of the stage's n layers on average.
    const double per_layer =
        n.layers > 0 ? (double(n.layers - n.moe) * act_dense + double(n.moe) * act_moe) / double(n.layers) : 0.0;
    if (std::size_t(s) < schedule.peak_activations.size()) {
      mem.activations = double(schedule.peak_activations[std::size_t(s)]) * double(n.layers) / double(p.vpp) * per_layer;
    }
    mem.activations += rebuilt;
    if (s == p.pp - 1) {
      // The output layer's fp32 logits for one microbatch on the last stage (Korthikanti et al. 2022, Sec. 4.3).
      const double tokens = double(p.microbatch_size) * double(run.model.seq) / double(p.cp);
      mem.activations += 4.0 * tokens * double(run.model.vocab) / double(p.tp);
    }
    mem.total = mem.weights + mem.gradients + mem.optimizer + mem.activations;
    if (s == 0 || mem.total > best.total) best = mem;
  }
  return best;
}

}  // namespace parascope::detail
