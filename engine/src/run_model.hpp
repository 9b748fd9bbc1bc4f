/// The whole run from one step: failures, restarts, checkpoints (Young 1974 / Daly 2006), goodput, energy and cost.
#pragma once

#include <cstdint>

namespace parascope::detail {

/// What the run is made of, in SI units (seconds, bytes, bytes/s, watts, dollars), every field already validated.
struct RunInputs {
  double step_time = 0;  ///< s, one optimizer step (the step op's answer)
  double steps = 0;      ///< optimizer steps of the run
  std::int64_t gpus = 1;
  double failure_rate = 0;      ///< failures per GPU per hour (> 0)
  double detect_time = 0;       ///< s from a failure to the job noticing it
  double reschedule_time = 0;   ///< s to replace the node, relaunch and rebuild the communicators
  double checkpoint_bytes = 0;  ///< the whole checkpoint (every GPU's shard)
  double checkpoint_bytes_per_gpu = 0;
  double storage_bandwidth = 0;    ///< aggregate bytes/s the file system writes and reads
  bool async_checkpoint = false;   ///< training blocks only for the device-to-host snapshot
  double host_copy_bandwidth = 0;  ///< bytes/s per GPU, device to host (the async snapshot)
  double interval = 0;             ///< s of training between checkpoints; 0 = Daly's optimum
  double price_per_gpu_hour = 0;   ///< $
  double gpu_power = 0;            ///< W per GPU at full load
  double idle_power = 0;           ///< W per GPU with no kernel running
  double utilization = 0;          ///< share of a step some kernel runs (the power model's u)
  double pue = 1;
};

/// The run's expected time, failures and costs.
struct RunResult {
  double mtbf = 0;           ///< s, the whole job's mean time between failures: 1 / (gpus · rate)
  double write_time = 0;     ///< s to write one checkpoint to storage
  double blocking_time = 0;  ///< s training stops per checkpoint (sync: write_time; async: the snapshot)
  double reload_time = 0;    ///< s to read the checkpoint back after a failure
  double young_interval = 0, daly_interval = 0, interval = 0;  ///< s of training between checkpoints
  bool interval_raised = false;  ///< async: the interval was raised to the write time (one write at a time)
  double restart_time = 0;       ///< s: detect + reschedule + reload
  double loss_per_failure = 0;   ///< s: restart_time + interval / 2
  double useful_time = 0;        ///< s: steps · step_time
  double checkpoint_time = 0;    ///< s spent blocked on checkpoints
  double wall_time = 0;          ///< s, expected
  double failures = 0;           ///< expected over the run
  double lost_time = 0;          ///< s: failures · loss_per_failure
  double goodput = 0;            ///< useful_time / wall_time
  double gpu_hours = 0;
  double energy_joules = 0;      ///< at the facility (PUE included)
  double average_gpu_power = 0;  ///< W per GPU over the run
  double cost = 0;               ///< $
};

/// Young 1974: τ = √(2·δ·M) for a checkpoint costing δ and a mean time between failures M.
double young_interval(double delta, double mtbf);
/// Daly 2006, Eq. 37: τ = √(2δM)·[1 + ⅓·√(δ/(2M)) + (1/9)·δ/(2M)] − δ when δ < 2M, else M.
double daly_interval(double delta, double mtbf);

/// The run's expected wall clock and costs. False when it never finishes (a failure's expected loss plus the
/// checkpoints leave no progress within the mean time between failures); `out` then holds what was computed.
bool evaluate_run(const RunInputs& in, RunResult& out);

}  // namespace parascope::detail
