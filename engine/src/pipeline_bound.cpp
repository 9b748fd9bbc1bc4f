// A lower bound of a pipeline's makespan from its shape and op times alone (nothing built or timed): the planner's
// pruning test. Each bound is a chain of ops that must run one after another in every timeline of the schedule.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <tuple>
#include <vector>

#include "cache_map.hpp"
#include "pipeline_detail.hpp"
#include "schedule_registry.hpp"

namespace parascope::detail {

double makespan_floor(const PipelineSpec& spec) {
  const PipelineTimes& t = spec.times;
  const double p = double(spec.stages), m = double(spec.microbatches);
  const ScheduleInfo& info = schedule_info(spec.schedule);
  const double v = info.interleaves ? double(std::max(spec.chunks, 1)) : 1.0;
  const bool split = info.splits_backward && !spec.forward_only;
  const double f = t.f, b = spec.forward_only ? 0.0 : t.b, w = split ? t.w : 0.0;
  // Every stage runs m·v of each of its kinds of op, one at a time (DualPipe too: m/2 microbatches per direction, each
  // through one of the stage's two parts).
  const double busy = m * v * (f + b + w);
  if (spec.stages <= 1) return busy;
  double floor = busy;
  if (info.holds_two_stages) {
    // DualPipe: stage s's first op is a forward of part s (fed from stage 0) or of part p−1−s (fed from stage p−1),
    // which waits for min(s, p−1−s) forwards and sends before it; the middle stages wait longest, p/2 − 1 of each.
    const double hops = std::floor(p / 2) - 1;
    return busy + hops * (f + t.comm);
  }
  // The last stage's first op is a forward of part p−1 (an F of any later part, or a B or W, comes after one), which
  // waits for p−1 forwards on the stages before it, each followed by a send: the last stage starts no earlier, then
  // runs all its ops.
  const double fill = (p - 1) * (f + t.comm);
  floor = busy + fill;
  if (spec.forward_only) return floor;
  if (!split) {
    // GPipe, 1F1B, interleaved: the last stage's last op and the first stage's last op are the backward of the same
    // microbatch through parts p−1 and 0 (GPipe: microbatch 0; 1F1B and interleaved: the last one, chunk 0), and the
    // gradient crosses p−1 stages between them, each a backward and a send.
    floor += (p - 1) * (b + t.comm);
  } else {
    // ZB-H1 and ZB-H2 run each kind in microbatch order on every stage: the last stage's last B (microbatch m−1) comes
    // after all its F and B ops, its input gradient crosses p−1 stages to stage 0, whose W of that microbatch follows.
    floor = std::max(floor, fill + m * (f + b) + (p - 1) * (b + t.comm) + w);
  }
  return floor;
}

namespace {

/// Each stage's most activation sets held at once, counted on its program (the same rule as count_ops in
/// pipeline_compile.cpp: an F holds one; a W, or a B where the backward is not split, frees one). One stage's program
/// at a time, so nothing of the size of the whole schedule is kept.
std::vector<int> counted_peaks(const PipelineSpec& spec) {
  const auto orders_of = schedule_entry(spec.schedule).orders;
  const bool split = splits_backward(spec.schedule);
  std::vector<int> peak(std::size_t(spec.stages), 0);
  StageOrders scratch;
  for (int s = 0; s < spec.stages; ++s) {
    scratch.ops.clear();
    scratch.begin.clear();
    Program prog(scratch, spec.forward_only);
    prog.start_stage();
    orders_of(prog, spec.stages, spec.microbatches, spec.chunks, s);
    int held = 0;
    for (const StageOp& op : scratch.ops) {
      if (op.kind == 'F') {
        peak[std::size_t(s)] = std::max(peak[std::size_t(s)], ++held);
      } else if (op.kind == 'W' || !split) {
        --held;
      }
    }
  }
  return peak;
}

/// counted_peaks through a per-thread cache by shape (a planner asks for the same few shapes again and again).
const std::vector<int>& counted(const PipelineSpec& spec) {
  using Key = std::tuple<int, int, int, int, bool>;
  struct Hash {
    std::size_t operator()(const Key& k) const {
      // Mixed in 64 bits, then folded: size_t is 32 bits in wasm, where shifting it by 40 or 60 is undefined.
      const std::uint64_t h = std::uint64_t(std::get<0>(k)) ^ (std::uint64_t(std::get<1>(k)) << 4) ^
                              (std::uint64_t(std::get<2>(k)) << 16) ^ (std::uint64_t(std::get<3>(k)) << 40) ^
                              (std::uint64_t(std::get<4>(k)) << 60);
      return std::size_t(h ^ (h >> 32));
    }
  };
  thread_local CacheMap<Key, std::vector<int>, Hash> cache;
  const Key key{int(spec.schedule), spec.stages, spec.microbatches, spec.chunks, spec.forward_only};
  const auto found = cache.find(key);
  if (found != cache.end()) return found->second;
  if (cache.size() >= 4096) cache.clear();  // bounds its memory: at most 4096 shapes of at most 1024 stages
  return cache.emplace(key, counted_peaks(spec)).first->second;
}

}  // namespace

std::vector<int> peak_activations_floor(const PipelineSpec& spec) {
  std::vector<int> out;
  peak_activations_floor(spec, out);
  return out;
}

void peak_activations_floor(const PipelineSpec& given, std::vector<int>& peak) {
  PipelineSpec spec = given;
  if (spec.stages == 1 && spec.schedule == Schedule::dualpipe) spec.schedule = Schedule::zb_h1;  // as pipeline_metrics
  if (!schedule_info(spec.schedule).interleaves) spec.chunks = 1;
  if (!schedule_entry(spec.schedule).orders) {
    // ZB-H2 decides its order while simulating (pipeline_simulate.cpp). Every stage holds its first forward's
    // activations until that microbatch's W. Stage 0's next forward is always ready, so it runs a W only when no F is
    // allowed (2p−1 microbatches already wait for their W) or none is left: it reaches min(m, 2p−1) exactly.
    peak.assign(std::size_t(spec.stages), spec.microbatches > 0 ? 1 : 0);
    if (!peak.empty()) peak[0] = std::min(spec.microbatches, 2 * spec.stages - 1);
    return;
  }
  const int p = spec.stages, m = spec.microbatches, v = spec.chunks;
  // The fixed programs' counts in closed form (pipeline_orders.cpp; checked against the simulation in
  // tests/engine/pipeline_steady_test.cpp): a forward-only run frees nothing; GPipe holds every microbatch; 1F1B holds
  // its p−s−1 warm-up forwards and one more; interleaved its 2(p−s−1) + (v−1)·p warm-up forwards and one more;
  // ZB-H1's warm-up and s held-back W's leave p−1 held before its first F, B, W, so p.
  peak.assign(std::size_t(p), 0);
  const std::int64_t total = std::int64_t(m) * v;
  for (int s = 0; s < p; ++s) {
    std::int64_t n = 0;
    if (spec.forward_only || spec.schedule == Schedule::gpipe) {
      n = total;
    } else if (spec.schedule == Schedule::one_f_one_b || (spec.schedule == Schedule::interleaved && v == 1)) {
      n = std::min(p - s, m);
    } else if (spec.schedule == Schedule::interleaved) {
      n = std::min<std::int64_t>(total, 2 * std::int64_t(p - s - 1) + std::int64_t(v - 1) * p + 1);
    } else if (spec.schedule == Schedule::zb_h1) {
      n = std::min(m, p);
    } else if (spec.schedule == Schedule::dualpipe && !dualpipe_rule(spec)) {
      n = p + 1;  // DeepSeek-V3 report, Table 2: PP + 1 activation sets per device (counted on the programs: every
                  // stage of every accepted shape, tests/engine/pipeline_steady_test.cpp)
    } else {
      const std::vector<int>& known = counted(spec);  // a shape DualPipe refuses: counted on its programs
      peak.assign(known.begin(), known.end());
      return;
    }
    peak[std::size_t(s)] = int(n);
  }
}

PipelineMetrics gpipe_metrics(const PipelineSpec& spec) {
  // GPipe at uniform op times, op by op (Clock's rule): stage s's forward of microbatch j ends at (j + s + 1)·f + s·c
  // (its input and its stage free at the same instant), so stage p−1's forwards end at (m + p − 1)·f + (p − 1)·c and
  // its backwards follow back to back; stage s's first backward (microbatch m−1) starts b + c after stage s+1's, and
  // each later one finds its input arriving just as the stage frees. Each stage is busy m·(f + b) from s·(f + c).
  // Sends on the chain of waits: p − 1 down (every forward's two candidate waits carry the same count) and p − 1 back.
  const PipelineTimes& t = spec.times;
  const int p = spec.stages, m = spec.microbatches;
  std::vector<double> busy(static_cast<std::size_t>(p)), first(busy), last(busy);
  const double fill = double(m + p - 1) * t.f + double(p - 1) * t.comm;  // the last stage's first backward starts
  for (int s = 0; s < p; ++s) {
    busy[std::size_t(s)] = double(m) * t.f + double(m) * t.b;
    first[std::size_t(s)] = double(s) * (t.f + t.comm);
    last[std::size_t(s)] = fill + double(p - 1 - s) * (t.b + t.comm) + double(m) * t.b;
  }
  PipelineMetrics out = timeline_metrics(p, busy, first, last, std::vector<int>(std::size_t(p), m));
  out.critical_sends = 2 * std::int64_t(p - 1);
  return out;
}

}  // namespace parascope::detail
