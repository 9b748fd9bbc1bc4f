// Native speed of the JSON API itself: a round trip of the cheapest and of an MFU request.
#include "bench.hpp"
#include "parascope/api.hpp"

namespace {

using namespace parascope::bench;

const bool registered = add("api", [] {
  Timing version = time_calls([] { parascope::call(R"({"op":"version"})"); });
  report("version round trip (median)", version.median * 1e6, "us");
  Timing mfu = time_calls([] {
    parascope::call(R"({"op":"mfu","model":"palm-540b","hardware":"tpu-v4","gpus":6144,"tokens_per_second":238300})");
  });
  report("mfu round trip (median)", mfu.median * 1e6, "us");
});

}  // namespace
