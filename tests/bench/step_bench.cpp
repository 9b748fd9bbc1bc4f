// Native speed of one cost-model evaluation (the planner's inner loop), direct and through the JSON API.
#include "../../engine/src/pipeline_compiled.hpp"
#include "../../engine/src/run_json.hpp"
#include "bench.hpp"
#include "parascope/api.hpp"
#include "parascope/cost.hpp"
#include "parascope/presets.hpp"

namespace {

using namespace parascope;
using namespace parascope::bench;

TrainingRun run(const char* model, const char* hw, std::int64_t gpus, std::int64_t tp, std::int64_t pp,
                std::int64_t gbs) {
  TrainingRun r;
  r.model = *find_model(model);
  r.hardware = *find_hardware(hw);
  r.cluster.gpus = gpus;
  r.cluster.gpus_per_node = r.hardware.gpus_per_node;
  r.cluster.intra_bandwidth = r.hardware.intra_bandwidth;
  r.cluster.intra_latency = r.hardware.intra_latency;
  r.cluster.inter_bandwidth = r.hardware.inter_bandwidth;
  r.cluster.inter_latency = r.hardware.inter_latency;
  r.parallel.tp = tp;
  r.parallel.pp = pp;
  r.parallel.dp = gpus / (tp * pp);
  r.parallel.global_batch = gbs;
  return r;
}

const bool registered = add("step (cost model)", [] {
  const Efficiency eff;
  struct Case {
    const char* name;
    TrainingRun run;
  } cases[] = {
      {"evaluate_step, Llama 3 8B, 64 H100, tp 1 pp 1, 8 microbatches", run("llama3-8b", "h100-sxm", 64, 1, 1, 512)},
      {"evaluate_step, GPT-3 175B, 64 A100, tp 8 pp 8, 64 microbatches", run("gpt3-175b", "a100-80gb", 64, 8, 8, 64)},
      {"evaluate_step, Llama 3 405B, 16384 H100, tp 8 pp 16, 16 mb",
       run("llama3-405b", "h100-sxm", 16384, 8, 16, 2048)},
      {"evaluate_step, GPT-3 175B, 1024 A100, tp 8 pp 32, 128 mb", run("gpt3-175b", "a100-80gb", 1024, 8, 32, 512)},
      {"evaluate_step, Megatron 1T, 3072 A100, tp 8 pp 64, 512 mb", run("megatron-1t", "a100-80gb", 3072, 8, 64, 3072)},
  };
  // Warm: the schedule's shape (schedule, p, microbatches of the timed copy, v) is compiled already, as in a
  // planner's sweep over times; cold: compiled afresh on every call (the first evaluation of a shape).
  for (const auto& c : cases) {
    Timing t = time_calls([&] { evaluate_step(c.run, eff); }, 0.3);
    report(c.name, t.median * 1e6, "us", "< 20 us");
  }
  for (const auto& c : cases) {
    Timing t = time_calls(
        [&] {
          parascope::detail::clear_compiled_pipelines();
          evaluate_step(c.run, eff);
        },
        0.3);
    report(std::string(c.name) + ", cold", t.median * 1e6, "us");
  }
  const char* request =
      R"({"op":"step","model":"gpt3-175b","hardware":"a100-80gb","cluster":{"gpus":64},"parallel":{"tp":8,"pp":8,"global_batch":64}})";
  Timing api = time_calls([&] { parascope::call(request); }, 0.3);
  report("step request through the JSON API, GPT-3 175B, 64 mb", api.median * 1e6, "us");
});

}  // namespace
