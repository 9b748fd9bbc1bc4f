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
  big.tokens = 1 << 19, big.experts = 256, big.top_k = 8, big.ep = 64, big.skew = 1, big.seed = 1;
  Timing b = time_calls([&] { parascope::route_tokens(big); }, 1.0);
  report("route 2^19 tokens, 256 experts, top-8 (the op cap 2^22, median)", b.median * 1e3, "ms", "< 1 s");
  // Skew 10 with every expert drawn: the case whose old fallback scan cost O(top_k × experts) per token (66 s).
  parascope::RouteSpec skewed;
  skewed.tokens = 1024, skewed.experts = 4096, skewed.top_k = 4096, skewed.ep = 256, skewed.skew = 10, skewed.seed = 1;
  Timing c = time_calls([&] { parascope::route_tokens(skewed); }, 1.0);
  report("route 1024 tokens, top-4096 of 4096 experts, skew 10 (cap, median)", c.median * 1e3, "ms", "< 1 s");
});

}  // namespace
