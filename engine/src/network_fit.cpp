// nccl-tests rows -> a bandwidth and a per-step latency per GPU count (least squares), read back by group size.
#include "network_fit.hpp"

#include <algorithm>
#include <cmath>
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
  const double x = std::log(double(gpus) / double(lo.gpus)) / std::log(double(hi.gpus) / double(lo.gpus));
  auto between = [x](double a, double b) { return a > 0 && b > 0 ? a * std::pow(b / a, x) : a + (b - a) * x; };
  return {gpus, between(lo.bandwidth, hi.bandwidth), between(lo.latency, hi.latency)};
}

}  // namespace parascope::detail
