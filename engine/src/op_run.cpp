// The "run" operation: a step request plus the run's length, failures, checkpoints, power and price -> the whole run.
#include <cmath>
#include <string>

#include "json_out.hpp"
#include "kernel_model.hpp"
#include "ops.hpp"
#include "parascope/model.hpp"
#include "run_model.hpp"
#include "step_json.hpp"

namespace parascope::detail {

namespace {

// Defaults, each from a published run or document (engine/API.md, `run`, lists them with their sources).
/// Llama 3 405B: 419 unexpected interruptions in 54 days on 16,384 H100s (Dubey et al. 2024, Sec. 3.3.4, Table 5).
constexpr double kLlama3FailureRate = 419.0 / (54.0 * 24.0 * 16384.0);
/// PyTorch's default NCCL process-group timeout (torch/distributed/constants.py, default_pg_nccl_timeout): 10 min.
constexpr double kDetectTime = 600.0;
/// FlashRecovery (Zhang et al. 2025, arXiv 2509.03047): training restored on 4,800 devices in 150 s.
constexpr double kRescheduleTime = 150.0;
/// Llama 3's Tectonic file system: 2 TB/s sustained (Dubey et al. 2024, Sec. 3.3.1).
constexpr double kStorageBandwidth = 2e12;
/// PCIe 4.0 x16, one direction: 32 GB/s (the device-to-host copy an asynchronous save stages through).
constexpr double kHostCopyBandwidth = 32e9;
/// DeepSeek-V3's assumed rental price: $2 per H800 GPU-hour (DeepSeek-AI 2024, Table 1).
constexpr double kPricePerGpuHour = 2.0;
/// Google's fleet-wide trailing-twelve-month PUE, 1.10 (Google data centers, "Efficiency", 2023).
constexpr double kPue = 1.10;
/// Chinchilla: ~20 training tokens per parameter (Hoffmann et al. 2022).
constexpr double kTokensPerParam = 20.0;
/// `steps`, or `tokens` / tokens per step (rounded up), or Chinchilla's 20 tokens per active parameter.
double read_steps(RequestReader& r, const StepRequest& s, json& defaults) {
  if (r.has("steps") && r.has("tokens")) {
    refuse(code::conflicting_fields, {"give steps or tokens, not both"}, "tokens");
  }
  const double per_step = double(s.run.parallel.global_batch) * double(s.run.model.seq);
  if (r.has("steps")) return double(r.integer("steps", 1, 1'000'000'000'000));
  double tokens = 0;
  if (r.has("tokens")) {
    tokens = r.number("tokens", 1, 1e17);
  } else {
    tokens = kTokensPerParam * count_params(s.run.model).flops_params;
    put(defaults, "tokens", "20 tokens per active parameter (Chinchilla, Hoffmann et al. 2022)");
  }
  return std::ceil(tokens / per_step);
}

/// A number with its default; the default's source is listed in the answer's `defaults` when it was used.
double with_default(RequestReader& r, json& defaults, const char* key, double fallback, double min, double max,
                    const char* source, bool min_exclusive = false) {
  if (!r.has(key)) put(defaults, key, source);
  return r.number_or(key, fallback, min, max, min_exclusive);
}

void read_failures(RequestReader& r, RunInputs& in, json& d) {
  in.failure_rate = with_default(r, d, "failure_rate", kLlama3FailureRate, 0, 1,
                                 "Llama 3 405B: 419 unexpected interruptions in 54 days on 16,384 H100s (Dubey et al. "
                                 "2024, Table 5)",
                                 true);
  in.detect_time = with_default(r, d, "detect_time", kDetectTime, 0, 1e6,
                                "PyTorch's default NCCL timeout, 10 min (torch.distributed default_pg_nccl_timeout)");
  in.reschedule_time = with_default(r, d, "reschedule_time", kRescheduleTime, 0, 1e6,
                                    "FlashRecovery: 4,800 devices restored in 150 s (Zhang et al. 2025, arXiv "
                                    "2509.03047)");
}

void read_checkpoint(RequestReader& r, RunInputs& in, json& d) {
  in.storage_bandwidth =
      with_default(r, d, "storage_bandwidth", kStorageBandwidth, 1, 1e16,
                   "Llama 3's Tectonic file system, 2 TB/s sustained (Dubey et al. 2024, Sec. 3.3.1)");
  if (!r.has("checkpoint_mode")) put(d, "checkpoint_mode", "synchronous: Megatron-LM's and torchtitan's default");
  in.async_checkpoint = r.choice_or("checkpoint_mode", "sync", {"sync", "async"}) == "async";
  if (r.has("host_copy_bandwidth") && !in.async_checkpoint) {
    refuse(code::inconsistent, {"host_copy_bandwidth applies to checkpoint_mode \"async\""}, "host_copy_bandwidth");
  }
  if (in.async_checkpoint) {
    in.host_copy_bandwidth =
        with_default(r, d, "host_copy_bandwidth", kHostCopyBandwidth, 1, 1e16, "PCIe 4.0 x16, 32 GB/s one direction");
  }
  in.interval = r.number_or("checkpoint_interval", 0, 0, 1e10, true);
}

void read_power_and_price(RequestReader& r, const StepRequest& s, RunInputs& in, json& d) {
  in.price_per_gpu_hour = with_default(r, d, "price_per_gpu_hour", kPricePerGpuHour, 0, 1e6,
                                       "DeepSeek-V3's assumed $2 per H800 GPU-hour (DeepSeek-AI 2024)");
  // Full load draws the cluster's power limit (compute_clock; read_cluster keeps it at most the board power, whose
  // value it takes by default), else the board power.
  const double board = s.run.hardware.board_power;
  const double limit = s.run.cluster.power_limit;
  const double preset = limit > 0 ? limit : board;
  if (!r.has("gpu_power") && preset <= 0) {
    refuse(code::missing_field,
           {"gpu_power is required: the engine knows no board power for hardware \"", s.run.hardware.id,
            "\" (watts per GPU at full load)"},
           "gpu_power");
  }
  in.gpu_power =
      with_default(r, d, "gpu_power", preset, 1, 1e5,
                   preset != board ? "the cluster's power_limit" : "the vendor's data sheet (board power, SXM)");
  in.idle_power = with_default(r, d, "idle_power", kIdlePowerShare * in.gpu_power, 0, in.gpu_power,
                               "an assumption, 10 % of gpu_power: no published idle figure was found");
  in.pue = with_default(r, d, "pue", kPue, 1, 5, "Google's fleet-wide PUE, 1.10 (2023)");
}

/// The checkpoint one GPU writes: its weights and optimizer states, each divided by the ranks holding the same copy
/// (data-parallel replicas below the ZeRO stage that shards it), as a fully parallel save spreads replicated state.
double checkpoint_shard(const StepResult& step, const ParallelConfig& p, const Efficiency& eff) {
  const double replicas = double(p.dp * p.cp);
  const double weights = step.memory.weights / (p.zero >= 3 ? 1.0 : replicas);
  // An offloaded optimizer's state is saved all the same: 12 of the host's 16 bytes per parameter (the pinned gradient
  // is not), less the fp32 master megatron-core also keeps on the GPU (engine/API.md, "Host offload").
  const double offloaded = step.memory.host / 16.0 * (eff.offload_master_on_gpu ? 8.0 : 12.0);
  const double optimizer = (step.memory.optimizer + offloaded) / (p.zero >= 1 ? 1.0 : replicas);
  return weights + optimizer;
}

json failures_json(const RunInputs& in, const RunResult& r) {
  json out;
  put(out, "expected", r.failures);
  put(out, "rate_per_gpu_hour", in.failure_rate);
  put(out, "mtbf", r.mtbf);
  json& restart = put_object(out, "restart_time");
  put(restart, "detect", in.detect_time);
  put(restart, "reschedule", in.reschedule_time);
  put(restart, "reload", r.reload_time);
  put(restart, "total", r.restart_time);
  put(out, "loss_per_failure", r.loss_per_failure);
  put(out, "lost_time", r.lost_time);
  return out;
}

json checkpoint_json(const RunInputs& in, const RunResult& r) {
  json out;
  put(out, "size", in.checkpoint_bytes);
  put(out, "size_per_gpu", in.checkpoint_bytes_per_gpu);
  put(out, "mode", in.async_checkpoint ? "async" : "sync");
  put(out, "write_time", r.write_time);
  put(out, "blocking_time", r.blocking_time);
  put(out, "interval", r.interval);
  put(out, "interval_source", in.interval > 0 ? "checkpoint_interval" : "daly");
  if (r.interval_raised) put(out, "interval_note", "raised to the write time: one asynchronous write at a time");
  put(out, "young_interval", r.young_interval);
  put(out, "daly_interval", r.daly_interval);
  put(out, "count", std::floor(r.useful_time / r.interval));
  put(out, "time", r.checkpoint_time);
  return out;
}

void energy_cost_json(const RunInputs& in, const RunResult& r, json& out) {
  json& energy = put_object(out, "energy");
  put(energy, "mwh", r.energy_joules / 3.6e9);
  put(energy, "gpu_power", in.gpu_power);
  put(energy, "idle_power", in.idle_power);
  put(energy, "utilization", in.utilization);
  put(energy, "average_gpu_power", r.average_gpu_power);
  put(energy, "pue", in.pue);
  put(energy, "model",
      "P(u) = idle + (gpu_power − idle)·u while training, idle while restarting or blocked on a "
      "checkpoint, × PUE (linear power model: Fan, Weber & Barroso 2007); u = the step's "
      "dashboard_utilization; GPUs only, no host CPUs or network");
  json& cost = put_object(out, "cost");
  put(cost, "dollars", r.cost);
  put(cost, "price_per_gpu_hour", in.price_per_gpu_hour);
}

}  // namespace

json op_run(RequestReader& request) {
  const StepRequest s = read_step_request(request);
  json defaults = json::object();
  RunInputs in;
  in.steps = read_steps(request, s, defaults);
  read_failures(request, in, defaults);
  read_checkpoint(request, in, defaults);
  read_power_and_price(request, s, in, defaults);
  request.finish();
  const StepResult step = evaluate(s);
  in.step_time = step.step_time;
  in.gpus = s.run.cluster.gpus;
  in.utilization = step.dashboard_utilization;
  in.checkpoint_bytes_per_gpu = checkpoint_shard(step, step.parallel, s.efficiency);
  in.checkpoint_bytes = in.checkpoint_bytes_per_gpu * double(in.gpus);
  RunResult r;
  if (!evaluate_run(in, r)) {
    refuse(code::inconsistent,
           {"the run never finishes: a failure's expected loss (restart ", r.restart_time, " s + half the ", r.interval,
            " s checkpoint interval) is not shorter than the job's mean time between failures (", r.mtbf, " s at ",
            in.gpus, " GPUs)"},
           "failure_rate");
  }
  json out;
  put(out, "steps", std::int64_t(in.steps));
  put(out, "tokens", in.steps * double(s.run.parallel.global_batch) * double(s.run.model.seq));
  put(out, "step_time", step.step_time);
  put(out, "mfu", step.mfu);
  put(out, "useful_time", r.useful_time);
  put(out, "wall_time", r.wall_time);
  put(out, "wall_clock_days", r.wall_time / 86400.0);
  put(out, "goodput", r.goodput);
  put(out, "effective_mfu", step.mfu * r.goodput);
  put(out, "gpu_hours", r.gpu_hours);
  put(out, "failures", failures_json(in, r));
  put(out, "checkpoint", checkpoint_json(in, r));
  energy_cost_json(in, r, out);
  put(out, "defaults", std::move(defaults));
  return out;
}

}  // namespace parascope::detail
