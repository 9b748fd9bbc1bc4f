// The "mfu" operation: measured throughput -> model FLOPs utilization (and HFU), nanoGPT's estimate_mfu at any scale.
#include "json_out.hpp"
#include "names.hpp"
#include "ops.hpp"
#include "spec_json.hpp"

namespace parascope::detail {

namespace {

constexpr std::int64_t kMaxGpus = 10'000'000;

}  // namespace

json op_mfu(RequestReader& request) {
  const ModelShape model = resolve_model(request, "model");
  const Hardware hardware = resolve_hardware(request, "hardware");
  const std::int64_t gpus = request.integer("gpus", 1, kMaxGpus);

  request.accept("tokens_per_second");
  request.accept("step_time");
  request.accept("tokens_per_step");
  double tokens_per_second = 0;
  if (request.has("tokens_per_second")) {
    if (request.has("step_time") || request.has("tokens_per_step")) {
      refuse(code::conflicting_fields, {"give either tokens_per_second, or step_time with tokens_per_step, not both"},
             request.has("step_time") ? "step_time" : "tokens_per_step");
    }
    tokens_per_second = request.number("tokens_per_second", 0, 1e18, true);
  } else if (request.has("step_time") || request.has("tokens_per_step")) {
    const double step_time = request.number("step_time", 1e-6, 1e9);  // ≥ 1 µs: tokens / step_time stays finite
    const double tokens_per_step = request.number("tokens_per_step", 0, 1e15, true);
    tokens_per_second = tokens_per_step / step_time;
  } else {
    refuse(code::missing_field, {"tokens_per_second (or step_time with tokens_per_step) is required"},
           "tokens_per_second");
  }

  const auto attention = parse_attention(request.choice_or("attention", "full", attention_ids()));
  const Recompute recompute = parse_recompute(request.choice_or("recompute", "none", recompute_ids()));
  check_op_recompute(model, recompute, "recompute");
  request.finish();

  const ParamCounts params = count_params(model);
  const FlopsPerToken flops = flops_per_token(model, attention, recompute);
  const double peak = double(gpus) * hardware.peak_flops;
  const double achieved = flops.model * tokens_per_second;
  json out;
  put(out, "params", params.flops_params);
  put(out, "params_total", params.total);
  put(out, "flops_per_token", flops.model);
  put(out, "hardware_flops_per_token", flops.hardware);
  put(out, "tokens_per_second", tokens_per_second);
  put(out, "achieved_flops", achieved);
  put(out, "peak_flops", peak);
  put(out, "mfu", achieved / peak);
  put(out, "hfu", flops.hardware * tokens_per_second / peak);
  put(out, "formula", flops.formula);
  return out;
}

}  // namespace parascope::detail
