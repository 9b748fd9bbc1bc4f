// The timeline's budget (issue 29): a 64-stage, 512-microbatch step laid out per GPU and stream in <= 50 ms native
// (<= 100 ms in the wasm: the requests are kept for run-web.mjs), its Chrome trace <= 20 MB. Measured, never asserted.
#include <string>

#include "../../engine/src/timeline.hpp"
#include "bench.hpp"
#include "parascope/api.hpp"
#include "parascope/presets.hpp"

namespace {

using namespace parascope::bench;

/// Megatron-LM's 1T GPT on 3,072 A100s (Narayanan et al. 2021, Table 1): tp 8, pp 64, dp 6, global batch 3,072,
/// so 512 microbatches per pipeline; every stage's first GPU drawn.
std::string request(const char* format) {
  return std::string(R"({"op":"timeline","model":"megatron-1t","hardware":"a100-80gb","cluster":{"gpus":3072},)") +
         R"("parallel":{"tp":8,"pp":64,"global_batch":3072},"format":")" + format + "\"}";
}

const bool registered = add("timeline (issue 29 budget)", [] {
  for (const char* format : {"columns", "chrome"}) {
    const std::string r = request(format);
    const std::string answer = parascope::call(r);
    if (parascope::is_error_response(answer)) {
      report(std::string("timeline refused: ") + answer.substr(0, 200), 0, "");
      continue;
    }
    const Timing t = time_calls([&] { parascope::call(r); }, 1.0);
    report_request(std::string("timeline, Megatron 1T, 64 stages x 512 mb, every stage, format ") + format, r,
                   t.median);
    report(std::string("timeline, 64 x 512, ") + format + " time", t.median * 1e3, "ms", "<= 50 ms native");
    report(std::string("timeline, 64 x 512, ") + format + " answer size", double(answer.size()) / 1e6, "MB",
           std::string(format) == "chrome" ? "<= 20 MB" : "");
  }
  // The events alone, no JSON: what the op spends before writing its answer (default efficiencies, not
  // megatron-core's).
  parascope::TrainingRun run;
  run.model = *parascope::find_model("megatron-1t");
  run.hardware = *parascope::find_hardware("a100-80gb");
  run.cluster.gpus = 3072;
  run.cluster.gpus_per_node = run.hardware.gpus_per_node;
  run.cluster.intra_bandwidth = run.hardware.intra_bandwidth;
  run.cluster.intra_latency = run.hardware.intra_latency;
  run.cluster.inter_bandwidth = run.hardware.inter_bandwidth;
  run.cluster.inter_latency = run.hardware.inter_latency;
  run.parallel.tp = 8;
  run.parallel.pp = 64;
  run.parallel.dp = 6;
  run.parallel.global_batch = 3072;
  const parascope::Efficiency eff;
  std::int64_t events = 0;
  const Timing built = time_calls([&] { events = parascope::detail::build_timeline(run, eff, {}).events; }, 1.0);
  report("timeline, 64 x 512, ops and shapes alone (build_timeline, no JSON), " + std::to_string(events) + " events",
         built.median * 1e3, "ms", "<= 50 ms native");
  const Timing laid = time_calls(
      [&] {
        parascope::detail::Timeline t = parascope::detail::build_timeline(run, eff, {});
        parascope::detail::lay_out(t);
      },
      1.0);
  report("timeline, 64 x 512, every event laid out too (as the objects answer would)", laid.median * 1e3, "ms");
  // A typical step: Llama 3 70B on 64 H100s (tp 8, pp 4, dp 2, 64 microbatches), every stage, at full detail.
  const std::string typical = R"({"op":"timeline","model":"llama3-70b","hardware":"h100-sxm","cluster":{"gpus":64},)"
                              R"("parallel":{"tp":8,"pp":4,"global_batch":128},"format":"chrome"})";
  const std::string trace = parascope::call(typical);
  const Timing typical_time = time_calls([&] { parascope::call(typical); }, 0.5);
  report_request("timeline, Llama 3 70B on 64 H100s, pp 4 x 64 mb, chrome", typical, typical_time.median);
  report("timeline, Llama 3 70B, 4 x 64, chrome answer size", double(trace.size()) / 1e6, "MB");
  // One stage only: what a figure showing the slowest GPU asks.
  std::string one = request("columns");
  one.insert(one.size() - 1, R"(,"stages":[63])");
  const Timing t = time_calls([&] { parascope::call(one); }, 0.5);
  report_request("timeline, Megatron 1T, 64 stages x 512 mb, one stage, columns", one, t.median);
});

}  // namespace
