// Native speed of the collectives: the O(1) cost functions the cost model calls in its loops, and the traced ring.
#include "bench.hpp"
#include "parascope/api.hpp"
#include "parascope/collectives.hpp"

namespace {

using namespace parascope::bench;

volatile double sink = 0;  // keeps the optimiser from dropping the calls

const bool registered = add("collectives", [] {
  const parascope::Link nvlink{450e9, 3.4e-6}, ib{50e9, 14e-6};
  Timing ring = time_calls([&] { sink = sink + parascope::ring_allreduce(16384, 1e9 + sink * 0, ib).time; });
  report("ring_allreduce(16384) (median)", ring.median * 1e9, "ns", "< 50 ns");
  Timing hier =
      time_calls([&] { sink = sink + parascope::hierarchical_allreduce(16384, 8, 1e9 + sink * 0, nvlink, ib).time; });
  report("hierarchical_allreduce(16384, 8) (median)", hier.median * 1e9, "ns", "< 50 ns");
  Timing tree = time_calls([&] { sink = sink + parascope::tree_allreduce(1'000'000, 1e9 + sink * 0, ib).time; });
  report("tree_allreduce(10^6) (median)", tree.median * 1e9, "ns", "< 50 ns");
  Timing cost = time_calls([] {
    parascope::call(R"({"op":"allreduce","algorithm":"hierarchical","gpus":16384,"bytes":1e9,"link":"h100-sxm"})");
  });
  report("allreduce op round trip, no trace (median)", cost.median * 1e6, "us");
  Timing t16 = time_calls([] {
    parascope::call(
        R"({"op":"allreduce","algorithm":"ring","gpus":16,"bytes":1e9,"link":"h100-sxm","link_kind":"intra","trace":true})");
  });
  report("allreduce op round trip, trace N = 16 (median)", t16.median * 1e3, "ms", "< 5 ms");
  Timing t64 = time_calls([] {
    parascope::call(
        R"({"op":"allreduce","algorithm":"ring","gpus":64,"bytes":1e9,"bandwidth":1e9,"latency":0,"trace":true})");
  });
  report("allreduce op round trip, trace N = 64 (median)", t64.median * 1e3, "ms");
});

}  // namespace
