// Memory per GPU: mixed-precision Adam states under ZeRO (Rajbhandari et al. 2020) and activations in flight
// (Korthikanti et al. 2022) counted from the pipeline schedule itself.
#include "memory_model.hpp"

#include <algorithm>
#include <cmath>

#include "layer_work.hpp"

namespace parascope::detail {

ParamsOnGpu params_on_gpu(const TrainingRun& run) {
  const ModelShape& m = run.model;
  const ParallelConfig& p = run.parallel;
  const ParamCounts c = count_params(m);
  const double tp = double(p.tp);
  const double layers = std::ceil(double(m.layers) / double(p.pp * p.vpp)) * double(p.vpp);
  const double moe_share = double(m.moe_layers()) / double(m.layers);
  ParamsOnGpu out;
  // Megatron splits every weight matrix over tp (norms are replicated, negligible) and the experts over ep × tp.
  const double dense_layer = c.attention_per_layer / tp + c.norms_per_layer + (1.0 - moe_share) * c.dense_ffn_per_layer / tp +
                             moe_share * (double(m.shared_experts) * c.expert_ffn / tp + c.router_per_layer);
  // DualPipe feeds microbatches from both ends, so every GPU holds its stage and the mirrored one: two copies of the
  // parameters (DeepSeek-V3 report, Sec. 3.2.1, Table 2: "Parameter 2×").
  const double copies = p.schedule == "dualpipe" && p.pp > 1 ? 2.0 : 1.0;
  out.dense = copies * layers * dense_layer;
  out.expert = copies * layers * moe_share * double(m.experts) * c.expert_ffn / (double(p.ep) * tp);
  // Embeddings, vocabulary-parallel over tp: with pp = 1 the GPU holds them all; otherwise the first stage holds the
  // input table and the last the output table (a tied table is kept on both).
  const double table = double(m.vocab) * double(m.hidden) / tp;
  out.dense += (p.pp == 1 ? c.embedding / tp : table) + c.final_norm;
  return out;
}

MemoryPerGpu memory_per_gpu(const TrainingRun& run, const Efficiency& eff, const PipelineMetrics& schedule) {
  const ParallelConfig& p = run.parallel;
  const ParamsOnGpu held = params_on_gpu(run);
  const double dp_group = double(p.dp * p.cp);
  const double expert_group = std::max(1.0, dp_group / double(p.ep));
  // Sharded under ZeRO stage `from` and above, replicated below it.
  auto per_gpu = [&](double bytes_per_param, int from) {
    return p.zero >= from ? bytes_per_param * (held.dense / dp_group + held.expert / expert_group)
                          : bytes_per_param * (held.dense + held.expert);
  };
  MemoryPerGpu mem;
  // Mixed-precision Adam (Rajbhandari et al. 2020, Sec. 3.1): bf16 weights (2 B), gradients (grad_reduce_bytes:
  // Megatron keeps fp32 main gradients, 4 B), fp32 master weights + momentum + variance (K = 12 B).
  mem.weights = per_gpu(2.0, 3);
  mem.gradients = per_gpu(eff.grad_reduce_bytes, 2);
  mem.optimizer = per_gpu(12.0, 1);

  // Activations: each stage holds, for every microbatch whose backward has not run, its chunk's layers
  // (peak_activations per stage, counted by the schedule). Full recomputation also rebuilds one layer at a time.
  const double per_layer = activation_bytes_per_layer(run, eff);
  const double chunk_layers = std::ceil(double(run.model.layers) / double(p.pp * p.vpp));
  double first = 0, last = 0;
  if (!schedule.peak_activations.empty()) {
    first = double(schedule.peak_activations.front()) * chunk_layers * per_layer;
    last = double(schedule.peak_activations.back()) * chunk_layers * per_layer;
  }
  if (p.recompute == Recompute::full) {
    TrainingRun unrecomputed = run;
    unrecomputed.parallel.recompute = Recompute::none;
    const double rebuilt = activation_bytes_per_layer(unrecomputed, eff);
    first += rebuilt;
    last += rebuilt;
  }
  // The output layer's fp32 logits for one microbatch on the last stage (Korthikanti et al. 2022, Sec. 4.3).
  const double tokens = double(p.microbatch_size) * double(run.model.seq) / double(p.cp);
  last += 4.0 * tokens * double(run.model.vocab) / double(p.tp);
  mem.activations = std::max(first, last);
  mem.total = mem.weights + mem.gradients + mem.optimizer + mem.activations;
  return mem;
}

}  // namespace parascope::detail
