// Native speed of the MoE router: the widget's default routing and the largest request the op accepts.
#include "bench.hpp"
#include "parascope/moe.hpp"

namespace {

using namespace parascope::bench;

const bool registered = add("moe", [] {
  parascope::RouteSpec widget;
  widget.tokens = 262144, widget.experts = 8, widget.top_k = 2, widget.ep = 8, widget.skew = 1, widget.seed = 1;
  Timing a = time_calls([&] { parascope::route_tokens(widget); });
  report("route 262144 tokens, 8 experts, top-2 (median)", a.median * 1e3, "ms", "< 50 ms");
  parascope::RouteSpec big;
  big.tokens = 1 << 20, big.experts = 256, big.top_k = 8, big.ep = 64, big.skew = 1, big.seed = 1;
  Timing b = time_calls([&] { parascope::route_tokens(big); }, 1.0);
  report("route 2^20 tokens, 256 experts, top-8 (the op cap 2^23, median)", b.median * 1e3, "ms", "< 2 s");
});

}  // namespace
