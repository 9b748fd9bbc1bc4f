// 1F1B's metrics without simulating: every stage's first start, last end and critical sends in closed form, O(p).
#include <algorithm>
#include <cstdint>
#include <vector>

#include "pipeline_detail.hpp"

namespace parascope::detail {

std::int64_t one_f_one_b_critical_sends(int p, int m, double comm) {
  // With sends (comm > 0) the chain of waits ending at the makespan carries 2(p − 1) sends for microbatch 0's trip down
  // and back, plus 2 for each later microbatch j = 1 .. m − 1 except those with j − 1 ≡ 0 (mod p): ⌈(m − 1)/p⌉ of them,
  // where stage 0's own order (warm-up of p − 1 forwards, then B(j − p), F(j)) hands over without a send. That is the
  // round trip being the critical circuit: per p microbatches it adds p(f + b) + 2(p − 1)·comm, more than a stage's own
  // p(f + b), so steady 1F1B with sends idles 2(p − 1)·comm per p microbatches on every stage. Without sends every
  // chain has the same length, and the timing rule (a tie counts as waiting for the stage) keeps the one with the
  // fewest: down and back once, 2(p − 1).
  if (comm <= 0) return 2 * std::int64_t(p - 1);
  const std::int64_t handed_without_send = (std::int64_t(m) - 1 + p - 1) / p;  // ⌈(m − 1)/p⌉
  return 2 * std::int64_t(p - 1) + 2 * (std::int64_t(m) - 1 - handed_without_send);
}

PipelineMetrics one_f_one_b_metrics(const PipelineSpec& spec) {
  // 1F1B / PipeDream-Flush (Narayanan et al. 2021, Sec. 2.2.1): stage s runs min(p − s − 1, m) warm-up forwards, then
  // F and B in turn, then the remaining B's. At uniform op times f, b and send time c (Clock's rule), with S the
  // critical sends above (one_f_one_b_critical_sends):
  //   first start of stage s:  s·(f + c)                                  (microbatch 0's forward arriving)
  //   last end of stage s:     (m + p − 1)·f + (m + p − 1 − s)·b + (S − s)·c
  //   sends on its chain:      S − s                                      (stage 0 ends last: the makespan's chain)
  // Without sends this is Narayanan et al.'s (m + p − 1)(f + b) makespan, bubble (p − 1)/(m + p − 1) (Sec. 2.2.1);
  // the (S − s)·c term is what the sends add. Stage s ends (b + c) before stage s − 1: the last backward's way back up.
  // Each stage is busy m·(f + b) and holds min(p − s, m) activation sets at its peak (the warm-up plus one).
  //
  // Exact: these are the longest paths of the timing's graph (ops weighted f or b, sends c), found from and checked
  // against the simulation in exact rational arithmetic (every p ≤ 16, m ≤ 70 at random f, b, c, and
  // tests/engine/pipeline_fast_path_test.cpp). In floating point the simulation's end of an op is the largest, over the
  // chains of waits into it, of that chain's durations summed in chain order (addition rounds monotonically); this
  // sums the same terms in another order, so where sums round (times that are not short binary fractions) the two
  // can differ in the last bits: by at most about (2(m + p) + S) units of 2^−53 relative to the makespan. Where every
  // sum is exact (times that are multiples of a power of two with bits to spare, as the tests draw them) they are equal
  // bit for bit, and so are the bubbles and critical sends (timeline_metrics is the same function on the same numbers).
  // Without sends, chains that differ only in where they cross stages tie exactly, and the simulation's rounding picks
  // which one's sends it counts; this counts the fewest, as exact arithmetic and the tie rule do (costing 0 either
  // way).
  const PipelineTimes& t = spec.times;
  const int p = spec.stages, m = spec.microbatches;
  const std::int64_t sends = one_f_one_b_critical_sends(p, m, t.comm);
  std::vector<double> busy(std::size_t(p), double(m) * t.f + double(m) * t.b), first(busy.size()), last(busy.size());
  std::vector<int> peak(busy.size());
  for (int s = 0; s < p; ++s) {
    const std::size_t i = std::size_t(s);
    first[i] = double(s) * (t.f + t.comm);
    last[i] = double(m + p - 1) * t.f + double(m + p - 1 - s) * t.b + double(sends - s) * t.comm;
    peak[i] = std::min(p - s, m);
  }
  PipelineMetrics out = timeline_metrics(p * std::max(spec.chunks, 1), busy, first, last, peak);
  // The critical path ends on the stage that finishes last (the first such stage on a tie), as timed_metrics says.
  const auto critical = std::max_element(last.begin(), last.end()) - last.begin();
  out.critical_sends = sends - critical;
  return out;
}

}  // namespace parascope::detail
