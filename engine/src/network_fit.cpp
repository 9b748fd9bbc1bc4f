// nccl-tests rows -> a bandwidth and a per-step latency per GPU count (least squares), read back by group size.
#include "network_fit.hpp"

#include <algorithm>
#include <map>

namespace parascope::detail {

std::vector<MeasuredNetwork> fit_nccl_tests(std::vector<NcclTestRow> rows) {
  std::map<std::int64_t, std::vector<NcclTestRow>> by_gpus;
  for (const NcclTestRow& r : rows) by_gpus[r.gpus].push_back(r);
  std::vector<MeasuredNetwork> out;
  for (const auto& [n, list] : by_gpus) {
    // t_i = S_i·f / busbw_i with f = 2(n−1)/n; fit t = a + b·S: B = f / b, α = a / (2(n−1)).
    const double f = 2.0 * double(n - 1) / double(n);
    double sx = 0, sy = 0, sxx = 0, sxy = 0, best = 0;
    for (const NcclTestRow& r : list) {
      const double t = r.bytes * f / r.busbw;
      sx += r.bytes, sy += t, sxx += r.bytes * r.bytes, sxy += r.bytes * t;
      best = std::max(best, r.busbw);
    }
    const double k = double(list.size());
    const double det = k * sxx - sx * sx;
    double b = det > 0 ? (k * sxy - sx * sy) / det : 0.0;
    double a = det > 0 ? (sy - b * sx) / k : 0.0;
    if (!(b > 0) || a < 0) {
      // Too few or too noisy sizes for a line: the best bandwidth seen and no latency term.
      b = f / best;
      a = 0.0;
    }
    out.push_back({n, f / b, a / (2.0 * double(n - 1))});
  }
  return out;
}

MeasuredNetwork measured_at(const std::vector<MeasuredNetwork>& fit, std::int64_t gpus) {
  if (gpus <= fit.front().gpus) return {gpus, fit.front().bandwidth, fit.front().latency};
  if (gpus >= fit.back().gpus) return {gpus, fit.back().bandwidth, fit.back().latency};
  std::size_t i = 1;
  while (fit[i].gpus < gpus) ++i;
  const MeasuredNetwork& lo = fit[i - 1];
  const MeasuredNetwork& hi = fit[i];
  // The alpha-beta model's two coefficients, each a time (Hockney 1994; Thakur, Rabenseifner & Gropp 2005): α per
  // step and β = 1/B per byte, each read linearly in the GPU count between the two measured counts.
  const double x = double(gpus - lo.gpus) / double(hi.gpus - lo.gpus);
  const double per_byte = (1.0 - x) / lo.bandwidth + x / hi.bandwidth;
  return {gpus, 1.0 / per_byte, lo.latency + (hi.latency - lo.latency) * x};
}

}  // namespace parascope::detail
