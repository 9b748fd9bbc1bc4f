// The step re-costed on a network between nodes at half its label rate: how much of the answer the network decides.
#include "network_what_if.hpp"

namespace parascope::detail {

bool network_unseen(const StepRequest& request) {
  // GPUs between nodes ride NICs and switches the preset cannot see; a TPU slice's ICI is the chips' own links.
  const Cluster& c = request.run.cluster;
  return request.run.hardware.kind == "gpu" && c.measured.empty() && c.gpus > c.gpus_per_node;
}

json network_what_if_json(const StepRequest& request) {
  StepRequest slower = request;
  // Every group that crosses nodes rides min(intra, k × inter) (parallel.cpp): halving inter halves what the
  // network carries per NIC and leaves NVLink alone. Published nccl-tests runs on real clusters read from about 0.4
  // to 0.9 of the rate their NICs are sold at (engine/API.md cites them), which no preset can know.
  slower.run.cluster.inter_bandwidth *= kNetworkWhatIfFraction;
  const StepResult r = evaluate(slower);
  json out;
  put(out, "inter_bandwidth_fraction", kNetworkWhatIfFraction);
  put(out, "tokens_per_second", r.tokens_per_second);
  put(out, "mfu", r.mfu);
  put(out, "step_time", r.step_time);
  put(out, "why",
      "the cluster spans nodes and no nccl-tests rows were given, so the groups that cross nodes ride the network's "
      "label rate; real clusters often deliver less. These numbers are the same step on a network at half that rate; "
      "give cluster.nccl_tests to cost the network you measured");
  return out;
}

}  // namespace parascope::detail
