// The "step" operation: a 4-D training configuration -> step time, breakdown, MFU/HFU, memory per GPU.
#include "error_band.hpp"
#include "json_out.hpp"
#include "network_what_if.hpp"
#include "ops.hpp"
#include "step_json.hpp"

namespace parascope::detail {

namespace {

/// Why HFU (and perhaps MFU) came out above 1, for the answer to say so: a FLOP count above the work the kernels were
/// timed for. The full-attention convention (PaLM App. B) counts the causal half of attention that FlashAttention
/// skips; FP8 GEMMs outrun the BF16 peak both are measured against; otherwise only efficiency overrides at or near 1
/// can put the kernels at the counted FLOPs' pace.
std::string above_peak_note(const Efficiency& e) {
  if (e.precision == Precision::fp8) {
    return "hfu is above 1: the weight GEMMs run in FP8, faster than the dense BF16 peak that mfu and hfu are measured "
           "against (the convention of the published FP8 runs)";
  }
  if (e.attention == AttentionFlops::full && e.flash_attention) {
    return "hfu is above 1: attention \"full\" (PaLM's convention) counts the masked half of causal attention, which "
           "FlashAttention skips, so the GPUs do fewer FLOPs than counted; attention \"causal\" counts only the work "
           "done";
  }
  return "hfu is above 1: the efficiency overrides let the kernels run at or near peak, and the FLOP formula counts "
         "work the timed kernels do not do";
}

}  // namespace

json op_step(RequestReader& request) {
  const StepRequest s = read_step_request(request);
  request.finish();
  const StepResult r = evaluate(s);
  json out = step_to_json(r);
  if (r.hfu > 1) put(out, "hfu_note", above_peak_note(s.efficiency));
  json band = error_band_json(error_bands(s.software, s.run.hardware.id), r);
  if (network_unseen(s)) put(band, "network", network_what_if_json(s));
  put(out, "error_band", std::move(band));
  if (!s.run.cluster.measured.empty()) {
    // The cluster's nccl-tests rows as fitted (network_fit.hpp): what the groups that cross nodes rode.
    json& fit = put_array(out, "network_fit");
    for (const MeasuredNetwork& m : s.run.cluster.measured) {
      json& row = push_object(fit);
      put(row, "gpus", m.gpus);
      put(row, "bandwidth", m.bandwidth);
      put(row, "latency", m.latency);
    }
  }
  return out;
}

}  // namespace parascope::detail
