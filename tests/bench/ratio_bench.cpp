// The workloads timed both natively (here) and in the wasm under node (tests/bench/run-web.mjs): their ratio is the
// bench's wasm_native_ratio. Each is one JSON request through parascope::call, as the page sends it.
#include <string>

#include "bench.hpp"
#include "parascope/api.hpp"

namespace {

using namespace parascope::bench;

const bool registered = add("wasm ratio workloads (JSON API)", [] {
  const char* workloads[][2] = {
      {"pipeline 1f1b p=100 m=5000, metrics only (1,000,000 ops)",
       R"({"op":"pipeline","schedule":"1f1b","stages":100,"microbatches":5000,"include_ops":false})"},
      {"pipeline interleaved 32x128 v=4, binary ops (the bubble's largest)",
       R"({"op":"pipeline","schedule":"interleaved","stages":32,"microbatches":128,"chunks":4,"ops_format":"binary"})"},
      {"step GPT-3 175B, 64 A100, tp 8 pp 8",
       R"({"op":"step","model":"gpt3-175b","hardware":"a100-80gb","cluster":{"gpus":64},"parallel":{"tp":8,"pp":8,"global_batch":64}})"},
      {"traced ring all-reduce, 64 GPUs",
       R"({"op":"allreduce","algorithm":"ring","gpus":64,"bytes":1e9,"bandwidth":1e9,"latency":0,"trace":true})"},
      {"mfu PaLM 540B",
       R"({"op":"mfu","model":"palm-540b","hardware":"tpu-v4","gpus":6144,"tokens_per_second":238300})"},
  };
  for (const auto& w : workloads) {
    const std::string request = w[1];
    const std::string answer = parascope::call(request);
    if (answer.find("\"error\"") != std::string::npos) {
      report(std::string(w[0]) + ": REFUSED " + answer.substr(0, 120), 0, "");
      continue;
    }
    Timing t = time_calls([&] { parascope::call(request); }, 0.3);
    report_request(w[0], request, t.median);
  }
});

}  // namespace
