// Native speed of the planner (issue 14): configurations evaluated per second of CPU time, and whole searches of
// GPT-3 175B on 1,024 A100s and Megatron 1T on 3,072 A100-80GB through the JSON API (tests/bench/run-web.mjs
// times the same searches in the wasm).
#include <algorithm>
#include <chrono>
#include <ctime>
#include <nlohmann/json.hpp>
#include <string>

#include "bench.hpp"
#include "parascope/api.hpp"

namespace {

using namespace parascope::bench;

struct Search {
  const char* name;
  const char* figure;
  const char* request;
};

const Search kSearches[] = {
    {"plan GPT-3 175B, 1024 A100-80GB, global batch 1536", "plan_gpt3_175b_ms",
     R"({"op":"plan","model":"gpt3-175b","hardware":"a100-80gb","cluster":{"gpus":1024},"global_batch":1536})"},
    {"plan Megatron 1T, 3072 A100-80GB, global batch 3072", "plan_megatron_1t_ms",
     R"({"op":"plan","model":"megatron-1t","hardware":"a100-80gb","cluster":{"gpus":3072},"global_batch":3072})"},
};

// Three counts of "configurations per second" (engine/API.md, "plan", "Speed"), each over the CPU seconds of both
// searches (the least of 3 runs each): costed (the plan answer's `evaluated`: timed by the whole cost model, pipeline
// schedule included), decided (costed, or proven by an exact bound unable to change the answer: out_of_memory,
// cannot_win) and considered (decided, or refused by the rules before any arithmetic: does_not_divide and
// too_few_layers count a whole split once, schedule_rule each configuration).
const bool registered = add("plan (planner)", [] {
  double evaluated = 0, pruned = 0, ruled_out = 0, cpu = 0;
  for (const Search& s : kSearches) {
    double best = 1e300, least_cpu = 1e300;
    for (int run = 0; run < 3; ++run) {
      const std::clock_t c0 = std::clock();
      const auto t0 = std::chrono::steady_clock::now();
      const std::string answer = parascope::call(s.request);
      const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
      const double used = double(std::clock() - c0) / CLOCKS_PER_SEC;
      best = std::min(best, wall);
      least_cpu = std::min(least_cpu, used);
      if (run == 0) {
        const auto j = nlohmann::json::parse(answer);
        evaluated += j.value("evaluated", 0.0);
        for (const auto& [why, n] : j["rejected"].items()) {
          (why == "out_of_memory" || why == "cannot_win" ? pruned : ruled_out) += n.get<double>();
        }
      }
    }
    cpu += least_cpu;
    // Not a report_request: run-web.mjs times these searches in the wasm itself (plan_* figures), apart from the
    // wasm_native_ratio workloads.
    report(std::string(s.figure) + " native: " + s.name, best * 1e3, "ms");
  }
  report("plan_configs_per_second_native (costed: evaluated / CPU seconds, both searches)", evaluated / cpu, "1/s");
  // Every configuration the search answers for, each either timed or proven unable to change the answer by its
  // exact lower bounds (a memory model per configuration, a cost-model first phase per core that can fit).
  // Issue 14's ">= 10^6 configurations per second per core" is read on these (engine/API.md, "plan", Speed).
  report("plan_decided_per_second_native ((evaluated + pruned) / CPU seconds)", (evaluated + pruned) / cpu, "1/s",
         ">= 1e6");
  report("plan_considered_per_second_native ((evaluated + pruned + ruled out) / CPU seconds)",
         (evaluated + pruned + ruled_out) / cpu, "1/s");
});

// Issue 26: DeepSeek-V3 on 2,048 H800 (global batch 15,360), ep and cp searched (etp = tp): 2,946,439
// configurations, the most a realistic search has within plan's bound. Budget: 1 s natively. Timed apart from the
// two searches above so that their configurations-per-second figures stay comparable across builds.
const bool registered_deepseek = add("plan DeepSeek-V3 (planner)", [] {
  const char* request =
      R"({"op":"plan","model":"deepseek-v3","hardware":"h800","cluster":{"gpus":2048},"global_batch":15360})";
  double best = 1e300;
  for (int run = 0; run < 3; ++run) {
    const auto t0 = std::chrono::steady_clock::now();
    parascope::call(request);
    best = std::min(best, std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
  }
  report("plan_deepseek_v3_native_ms: DeepSeek-V3, 2048 H800, global batch 15360", best * 1e3, "ms", "<= 1000");
});

}  // namespace
