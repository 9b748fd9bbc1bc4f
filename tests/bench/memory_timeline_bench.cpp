// The memory figure's time axis at its largest (issue 30): one GPU's memory through a 64-stage, 512-microbatch step,
// natively here and in the wasm under node (tests/bench/run-web.mjs: memory_timeline_64x512_wasm_ms, budget 20 ms;
// tests/bench/memory.bench.mjs times it in the page, a new schedule each call).
#include <string>

#include "bench.hpp"
#include "parascope/api.hpp"

namespace {

using namespace parascope::bench;

const bool registered = add("memory timeline (JSON API)", [] {
  // Megatron 1T on 3,072 A100s, tp 8, pp 64: dp 6, 512 microbatches per pipeline, 1F1B; the first stage (the most
  // activation sets in flight) is the one a reader sees first.
  const std::string request =
      R"({"op":"memory_timeline","model":"megatron-1t","hardware":"a100-80gb","cluster":{"gpus":3072},)"
      R"("parallel":{"tp":8,"pp":64,"global_batch":3072}})";
  const std::string answer = parascope::call(request);
  if (answer.find("\"error\"") != std::string::npos) {
    report("memory_timeline 64 stages x 512 microbatches: REFUSED " + answer.substr(0, 120), 0, "");
    return;
  }
  // The same request again keeps its schedule (memory_timeline.cpp, scheduled_ops): what a stage walk costs.
  Timing t = time_calls([&] { parascope::call(request); }, 0.3);
  report_request("memory_timeline 64 stages x 512 microbatches (Megatron 1T, tp 8 pp 64)", request, t.median);
  // A move that changes the ops' times lays the schedule out anew: full recomputation and none, in turn.
  std::string full = request;
  full.insert(full.find("\"global_batch\""), R"("recompute":"full",)");
  bool flip = false;
  Timing cold = time_calls([&] { parascope::call((flip = !flip) ? full : request); }, 0.3);
  report("memory_timeline 64 x 512, a new schedule each call (recompute full <-> none)", cold.median * 1e6, "us");
});

}  // namespace
