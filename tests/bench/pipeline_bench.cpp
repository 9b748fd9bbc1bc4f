// Native speed of pipeline schedules: a million-op timeline, the metrics-only inner loop the cost model calls, and the
// JSON round trip behind the bubble widget's largest setting.
#include <string>

#include "bench.hpp"
#include "parascope/api.hpp"
#include "parascope/pipeline.hpp"

namespace {

using namespace parascope::bench;
using parascope::PipelineSpec;
using parascope::Schedule;

PipelineSpec spec(Schedule s, int p, int m, int v = 1, bool record = true) {
  PipelineSpec out;
  out.schedule = s;
  out.stages = p;
  out.microbatches = m;
  out.chunks = v;
  out.times = parascope::default_times(s);
  out.record_ops = record;
  return out;
}

const bool registered = add("pipeline", [] {
  struct Big {
    const char* name;
    PipelineSpec spec;
  };
  const Big big[] = {
      {"1f1b p=100 m=5000 (1,000,000 ops)", spec(Schedule::one_f_one_b, 100, 5000)},
      {"interleaved p=32 m=3904 v=4 (999,424 ops)", spec(Schedule::interleaved, 32, 3904, 4)},
      {"zb-h1 p=64 m=5208 (999,936 ops)", spec(Schedule::zb_h1, 64, 5208)},
      {"zb-h2 p=64 m=5208 (999,936 ops, greedy)", spec(Schedule::zb_h2, 64, 5208)},
      {"dualpipe p=64 m=5208 (999,936 ops)", spec(Schedule::dualpipe, 64, 5208)},
  };
  for (const Big& b : big) {
    Timing t = time_calls([&] { parascope::run_pipeline(b.spec); }, 1.0);
    report(std::string("generate ") + b.name + " (median)", t.median * 1e3, "ms", "< 200 ms");
  }
  struct Small {
    const char* name;
    PipelineSpec spec;
  };
  const Small small[] = {
      {"1f1b p=8 m=16", spec(Schedule::one_f_one_b, 8, 16, 1, false)},
      {"1f1b p=8 m=64", spec(Schedule::one_f_one_b, 8, 64, 1, false)},
      {"1f1b p=64 m=512", spec(Schedule::one_f_one_b, 64, 512, 1, false)},
      {"interleaved p=8 m=64 v=4", spec(Schedule::interleaved, 8, 64, 4, false)},
      {"zb-h1 p=8 m=64", spec(Schedule::zb_h1, 8, 64, 1, false)},
      {"zb-h2 p=8 m=64", spec(Schedule::zb_h2, 8, 64, 1, false)},
      {"dualpipe p=8 m=64", spec(Schedule::dualpipe, 8, 64, 1, false)},
      {"dualpipe p=64 m=512", spec(Schedule::dualpipe, 64, 512, 1, false)},
  };
  for (const Small& s : small) {
    Timing t = time_calls([&] { parascope::run_pipeline(s.spec); });
    report(std::string("metrics only, ") + s.name + " (median)", t.median * 1e6, "us",
           std::string(s.name) == "1f1b p=8 m=16" ? "a few us" : "");
  }
  const std::string widget_max =
      R"({"op":"pipeline","schedule":"interleaved","stages":32,"microbatches":128,"chunks":4,"ops_format":"columns"})";
  Timing json = time_calls([&] { parascope::call(widget_max); });
  report("JSON round trip 32x128 v=4, columns (median)", json.median * 1e3, "ms");
  report("  response size", double(parascope::call(widget_max).size()) / 1024, "KiB");
});

}  // namespace
