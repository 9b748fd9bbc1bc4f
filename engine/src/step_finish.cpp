// The cost model's second phase, finish_step: from the scheduled core and the run's ZeRO stage to the step's time,
// its breakdown, MFU and HFU, the dashboard's utilization and memory per GPU, one named phase after another.
#include "step_finish.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "layer_part.hpp"
#include "parascope/stages.hpp"

namespace parascope::detail {

namespace {

/// Host DRAM's sustained share of its peak for a streaming pass: STREAM Triad reaches ~3/4 of the DDR wire rate
/// (McCalpin's STREAM; TI SPRAD45A Table 3-3: 74-78 %; dual Sapphire Rapids DDR5-4800 runs report the same share).
constexpr double kHostStreamShare = 0.75;

/// The optimizer step with the share offload_optimizer of it on the host (memory_model.cpp, offload_states). Each
/// offloaded tensor's gradient goes down (grad_reduce_bytes), steps on the host (host_adam_bytes over the host's DRAM)
/// and its weights come back (4 bytes into Megatron's fp32 main weights, else 2 of bf16), one tensor's copy under the
/// next one's step: Megatron-Core's hybrid optimizer builds one host optimizer per tensor with the copies on their
/// own streams (overlap_cpu_optimizer_d2h_h2d), ZeRO-Offload tiles its CPU-Adam so the bf16 copy of one tile runs
/// under the next (Ren et al. 2021 Sec. 4.2). The slowest of the three sets the pace. The GPU's own share steps
/// beside it (the GPU optimizer's kernels are queued before the host steps begin).
double offloaded_step(const TrainingRun& run, const Efficiency& eff, double updated) {
  const Hardware& hw = run.hardware;
  const double f = run.parallel.offload_optimizer;
  const double moved = f * updated;
  const double down = moved * eff.grad_reduce_bytes / hw.host_bandwidth;
  const double host = moved * eff.host_adam_bytes / (hw.host_memory_bandwidth * kHostStreamShare);
  const double up = moved * (eff.offload_master_on_gpu ? 4.0 : 2.0) / hw.host_bandwidth;
  const double on_gpu = (1.0 - f) * updated * 30.0 / (hw.memory_bandwidth * eff.memory_efficiency);
  return std::max(on_gpu, std::max(down, std::max(host, up)));
}

}  // namespace

OptimizerTimes optimizer_times(const TrainingRun& run, const Efficiency& eff, const StepCore& c, const HeldParams& h) {
  const ParallelConfig& p = run.parallel;
  const double hbm = run.hardware.memory_bandwidth * eff.memory_efficiency;
  OptimizerTimes t;
  // Adam (Kingma & Ba 2015) on the parameters this GPU updates: read fp32 master, m, v and the fp32 gradient,
  // write master, m, v and the bf16 copy: 30 bytes per parameter, memory-bound.
  const double updated = (p.zero >= 1) ? h.held.dense / double(h.dp_group) + h.held.expert / double(h.expert_group)
                                       : h.held.dense + h.held.expert;
  t.optimizer = updated * 30.0 / hbm;
  if (p.offload_optimizer > 0) t.optimizer = offloaded_step(run, eff, updated);
  // A framework that accumulates gradients outside the GEMM (grad_accumulation_bytes: PyTorch's bf16 .grad added into
  // an fp32 buffer after each microbatch's backward) makes one more pass over every gradient it holds whole, at ZeRO
  // 0-2 (FSDP's reduce-scatter leaves only the shard to accumulate: not charged). Memory-bound, once per microbatch.
  t.accumulation = p.zero < 3 ? eff.grad_accumulation_bytes * (h.held.dense + h.held.expert) * c.mb / hbm : 0.0;
  return t;
}

void kernel_breakdown(const TrainingRun& run, const Efficiency& eff, const StepCore& c, double dp_slowdown,
                      double accumulation, StepBreakdown& b) {
  // The average chunk's work per kind (the slowest chunk's excess is "other": pipeline_breakdown).
  const ParallelConfig& p = run.parallel;
  const double hbm = run.hardware.memory_bandwidth * eff.memory_efficiency;
  const double per_gpu = c.mb * double(p.vpp);
  b.compute = per_gpu * c.avg.math() + c.mb * c.logits_math / double(p.pp) + dp_slowdown;
  b.memory_bound = per_gpu * c.avg.memory() + c.mb * ((c.logits.bytes + c.logits.backward_bytes) / hbm) / double(p.pp) +
                   accumulation;
}

void layer_comm_breakdown(const TrainingRun& run, const StepCore& c, StepBreakdown& b) {
  const double per_gpu = c.mb * double(run.parallel.vpp);
  b.tp_comm = per_gpu * (c.avg.tp_fwd + c.avg.tp_bwd);
  b.ep_comm = per_gpu * (c.avg.ep_fwd + c.avg.ep_bwd);
  b.cp_comm = per_gpu * (c.avg.cp_fwd + c.avg.cp_bwd);
}

void pipeline_breakdown(const TrainingRun& run, const StepCore& c, StepBreakdown& b) {
  const double per_gpu = c.mb * double(run.parallel.vpp);
  const PipelineMetrics& with_comm = c.scheduled.metrics;
  b.other = std::max(0.0, c.busy - per_gpu * (c.avg_f + c.avg_b));
  // Clamped at 0: with no idle, makespan and busy are the same sum rounded in two orders (−8.9e-16 s).
  b.pp_comm = std::max(0.0, std::min(c.scheduled.sends, with_comm.makespan - c.busy));
  b.bubble = std::max(0.0, with_comm.makespan - c.busy - b.pp_comm);
  if (run.parallel.pp == 1) {
    // One stage sends nothing and never waits for another: exactly zero, not the two sums' rounding (+2.8e-14 s was
    // reported for GPT-3 with the interleaved schedule at pp 1).
    b.pp_comm = b.bubble = 0.0;
  }
  if (std::isnan(c.scheduled.sends)) {
    // Sends not timed (schedule_step_core without with_sends): the split of idle time into sends and bubble is unknown.
    b.pp_comm = b.bubble = std::numeric_limits<double>::quiet_NaN();
  }
}

double step_time(const StepCore& c, const StepBreakdown& b, double dp_slowdown, double accumulation) {
  return c.scheduled.metrics.makespan + b.dp_comm + b.optimizer + dp_slowdown + accumulation;
}

void flop_utilization(const TrainingRun& run, const Efficiency& eff, const StepCore& c, bool with_formula,
                      StepResult& r) {
  // MFU and HFU (PaLM App. B): model FLOPs per token × tokens per second over the cluster's peak.
  const double peak = run.hardware.peak_flops;
  const FlopsPerToken& flops = c.flops;
  const double tokens_per_step = double(run.parallel.global_batch) * double(run.model.seq);
  const double gpus = double(run.cluster.gpus);
  r.tokens_per_second = tokens_per_step / r.step_time;
  r.flops_per_token = flops.model;
  r.hardware_flops_per_token = flops.hardware;
  // The core keeps the numbers only (build_core): the formula's text is written here, when asked for.
  if (with_formula) r.formula = flops_per_token(run.model, eff.attention, counted_recompute(run.parallel, eff)).formula;
  r.mfu = flops.model * r.tokens_per_second / (gpus * peak);
  r.hfu = flops.hardware * r.tokens_per_second / (gpus * peak);
  r.useful_at_peak = flops.model * tokens_per_step / gpus / peak;
  r.recompute_at_peak = (flops.hardware - flops.model) * tokens_per_step / gpus / peak;
  r.kernel_inefficiency = r.breakdown.compute - r.useful_at_peak - r.recompute_at_peak;
}

void dashboard_utilization(const Efficiency& eff, StepResult& r) {
  // nvidia-smi's "utilization" is the share of time any kernel is resident (NVML nvmlDeviceGetUtilizationRates):
  // NCCL kernels count, and a stage in the bubble waits inside a posted receive kernel.
  const double idle = eff.bubble_kernel_resident ? 0.0 : r.breakdown.bubble;
  r.dashboard_utilization = (r.step_time - idle) / r.step_time;
}

void memory_fit(const TrainingRun& run, const Efficiency& eff, const StepCore& c, StepResult& r) {
  const Hardware& hw = run.hardware;
  r.memory = memory_per_gpu(run, eff, c.scheduled.metrics);
  r.memory_capacity = hw.memory_bytes;
  r.fits = hw.memory_bytes <= 0 || r.memory.total <= hw.memory_bytes;
}

StepResult finish_step(const TrainingRun& run, const Efficiency& eff, const StepCore& c, bool with_axes) {
  StepResult r = c.r;
  r.parallel = run.parallel;
  // For the answer only: not in the core (the planner builds many).
  r.stage_layers = stage_layer_counts(run.model.layers, run.parallel);
  const HeldParams held = held_params(run, c);
  const DataParallelComm dp = data_parallel_comm(run, eff, c, held);
  r.breakdown.dp_comm = dp.exposed;
  const OptimizerTimes opt = optimizer_times(run, eff, c, held);
  r.breakdown.optimizer = opt.optimizer;
  kernel_breakdown(run, eff, c, dp.slowdown, opt.accumulation, r.breakdown);
  layer_comm_breakdown(run, c, r.breakdown);
  pipeline_breakdown(run, c, r.breakdown);
  r.step_time = step_time(c, r.breakdown, dp.slowdown, opt.accumulation);
  flop_utilization(run, eff, c, with_axes, r);
  dashboard_utilization(eff, r);
  memory_fit(run, eff, c, r);
  if (with_axes) axis_traffic(run, c, dp, r);
  return r;
}

}  // namespace parascope::detail
