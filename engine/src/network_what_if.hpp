/// The network the engine cannot see: the same step on a network between nodes that delivers half its label rate.
#pragma once

#include "json_out.hpp"
#include "step_json.hpp"

namespace parascope::detail {

/// The share of the inter-node link's rate the what-if assumes (a stated scenario, not a fit: engine/API.md,
/// "The network the engine cannot see").
inline constexpr double kNetworkWhatIfFraction = 0.5;

/// True when the answer leans on a network the engine cannot see: GPUs on more than one node, no nccl-tests rows.
bool network_unseen(const StepRequest& request);

/// `error_band.network`: the request re-costed with the inter-node bandwidth × kNetworkWhatIfFraction (tokens/s, MFU,
/// step time), and why. Call only when network_unseen(request).
json network_what_if_json(const StepRequest& request);

}  // namespace parascope::detail
