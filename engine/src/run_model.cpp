// The whole run from one step: expected failures, checkpoint interval, wall clock, goodput, energy and cost.
#include "run_model.hpp"

#include <algorithm>
#include <cmath>

namespace parascope::detail {

double young_interval(double delta, double mtbf) { return std::sqrt(2.0 * delta * mtbf); }

double daly_interval(double delta, double mtbf) {
  if (delta >= 2.0 * mtbf) return mtbf;
  const double r = delta / (2.0 * mtbf);
  return std::sqrt(2.0 * delta * mtbf) * (1.0 + std::sqrt(r) / 3.0 + r / 9.0) - delta;
}

namespace {

/// Checkpoint times: the write to storage, what training blocks for, the read back after a failure, and the interval
/// (the user's, or Daly's optimum; asynchronous saves are at least one write apart: one write in flight at a time).
void checkpoint_times(const RunInputs& in, RunResult& out) {
  out.write_time = in.checkpoint_bytes / in.storage_bandwidth;
  out.reload_time = out.write_time;  // read back at the same aggregate bandwidth
  out.blocking_time = in.async_checkpoint ? in.checkpoint_bytes_per_gpu / in.host_copy_bandwidth : out.write_time;
  out.young_interval = young_interval(out.blocking_time, out.mtbf);
  out.daly_interval = daly_interval(out.blocking_time, out.mtbf);
  out.interval = in.interval > 0 ? in.interval : out.daly_interval;
  if (in.async_checkpoint && out.interval < out.write_time) {
    out.interval = out.write_time;
    out.interval_raised = true;
  }
  // Never longer than the run itself: a run shorter than the interval checkpoints once, at its end.
  out.interval = std::max(std::min(out.interval, in.steps * in.step_time), 1e-9);
}

/// Energy over the run: the linear power model P(u) = P_idle + (P_max − P_idle)·u (Fan, Weber & Barroso 2007) while
/// training (first pass and the work redone after failures), P_idle while restarting or blocked on a checkpoint; × PUE.
void energy(const RunInputs& in, RunResult& out) {
  const double busy = out.useful_time + out.failures * out.interval / 2.0;
  const double idle = std::max(0.0, out.wall_time - busy);
  const double busy_power = in.idle_power + (in.gpu_power - in.idle_power) * in.utilization;
  const double joules_per_gpu = busy * busy_power + idle * in.idle_power;
  out.average_gpu_power = out.wall_time > 0 ? joules_per_gpu / out.wall_time : 0.0;
  out.energy_joules = joules_per_gpu * double(in.gpus) * in.pue;
}

}  // namespace

bool evaluate_run(const RunInputs& in, RunResult& out) {
  out = RunResult{};
  out.mtbf = 3600.0 / (double(in.gpus) * in.failure_rate);
  checkpoint_times(in, out);
  out.restart_time = in.detect_time + in.reschedule_time + out.reload_time;
  out.loss_per_failure = out.restart_time + out.interval / 2.0;
  out.useful_time = in.steps * in.step_time;
  out.checkpoint_time = std::floor(out.useful_time / out.interval) * out.blocking_time;
  // Failures arrive at 1/M over the wall clock W and each costs loss_per_failure:
  // W = useful + checkpoints + (W / M)·loss  =>  W = (useful + checkpoints) / (1 − loss / M).
  const double left = 1.0 - out.loss_per_failure / out.mtbf;
  if (!(left > 1e-9)) return false;
  out.wall_time = (out.useful_time + out.checkpoint_time) / left;
  out.failures = out.wall_time / out.mtbf;
  out.lost_time = out.failures * out.loss_per_failure;
  out.goodput = out.useful_time / out.wall_time;
  out.gpu_hours = double(in.gpus) * out.wall_time / 3600.0;
  out.cost = out.gpu_hours * in.price_per_gpu_hour;
  energy(in, out);
  return true;
}

}  // namespace parascope::detail
