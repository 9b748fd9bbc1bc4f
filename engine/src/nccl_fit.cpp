// nccl-tests rows -> per size range a latency and a bandwidth (weighted least squares), and the busbw they predict.
#include "nccl_fit.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace parascope::detail {

CollectiveModel collective_model(NcclCollective c, std::int64_t gpus) {
  const double n = double(std::max<std::int64_t>(gpus, 1));
  switch (c) {
    case NcclCollective::all_reduce:
      return {2.0 * (n - 1.0), 2.0 * (n - 1.0) / n};
    case NcclCollective::alltoall:
      return {std::ceil((n - 1.0) / 8.0), (n - 1.0) / n};
    default:
      return {n - 1.0, (n - 1.0) / n};
  }
}

namespace {

/// Prefix sums of w, w·x, w·x², w·t, w·x·t, w·t² with x = bus bytes, t = time, w = 1/t²: any range's line in O(1).
struct Sums {
  std::vector<double> w, wx, wxx, wt, wxt, wtt;
  explicit Sums(std::size_t n) : w(n + 1), wx(n + 1), wxx(n + 1), wt(n + 1), wxt(n + 1), wtt(n + 1) {}
  void add(std::size_t i, double x, double t) {
    const double v = 1.0 / (t * t);
    w[i + 1] = w[i] + v, wx[i + 1] = wx[i] + v * x, wxx[i + 1] = wxx[i] + v * x * x;
    wt[i + 1] = wt[i] + v * t, wxt[i + 1] = wxt[i] + v * x * t, wtt[i + 1] = wtt[i] + v * t * t;
  }
};

/// The line t = a + b·x over rows [i, j) with a, b ≥ 0 (a negative one clamped to 0 and the other refitted), and its
/// summed squared relative error.
struct Line {
  double a = 0, b = 0, cost = 0;
};

Line fit_range(const Sums& s, std::size_t i, std::size_t j) {
  const double w = s.w[j] - s.w[i], wx = s.wx[j] - s.wx[i], wxx = s.wxx[j] - s.wxx[i];
  const double wt = s.wt[j] - s.wt[i], wxt = s.wxt[j] - s.wxt[i], wtt = s.wtt[j] - s.wtt[i];
  Line l;
  const double det = w * wxx - wx * wx;
  if (det > 1e-12 * w * wxx) {
    l.a = (wt * wxx - wx * wxt) / det;
    l.b = (w * wxt - wx * wt) / det;
  } else {
    l.a = wt / w;
  }
  if (l.b < 0) l.b = 0, l.a = wt / w;
  if (l.a < 0) l.a = 0, l.b = wxx > 0 ? wxt / wxx : 0.0;
  l.cost = std::max(0.0, wtt - 2.0 * (l.a * wt + l.b * wxt) + l.a * l.a * w + 2.0 * l.a * l.b * wx + l.b * l.b * wxx);
  return l;
}

/// The split of rows [0, n) into at most `most` ranges of at least `min_rows` rows with the least summed cost
/// (dynamic programming over the range ends): the ends, ascending, the last one n.
std::vector<std::size_t> best_split(const Sums& s, std::size_t n, std::size_t most, std::size_t min_rows) {
  const double inf = std::numeric_limits<double>::infinity();
  std::vector<std::vector<double>> cost(most + 1, std::vector<double>(n + 1, inf));
  std::vector<std::vector<std::size_t>> from(most + 1, std::vector<std::size_t>(n + 1, 0));
  cost[0][0] = 0;
  for (std::size_t k = 1; k <= most; ++k) {
    for (std::size_t j = min_rows; j <= n; ++j) {
      for (std::size_t i = 0; i + min_rows <= j; ++i) {
        if (cost[k - 1][i] == inf) continue;
        const double c = cost[k - 1][i] + fit_range(s, i, j).cost;
        if (c < cost[k][j]) cost[k][j] = c, from[k][j] = i;
      }
    }
  }
  std::size_t k_best = 1;
  for (std::size_t k = 2; k <= most; ++k) {
    if (cost[k][n] < cost[k_best][n] * (1.0 - 1e-9)) k_best = k;  // a range more only when it lowers the error
  }
  std::vector<std::size_t> ends;
  for (std::size_t k = k_best, j = n; k > 0; j = from[k][j], --k) ends.push_back(j);
  std::reverse(ends.begin(), ends.end());
  return ends;
}

}  // namespace

NcclTableFit fit_nccl_table(const std::vector<NcclRow>& rows, const CollectiveModel& model) {
  std::vector<std::size_t> order;  // rows that carry a time and bytes, by size
  for (std::size_t i = 0; i < rows.size(); ++i) {
    if (rows[i].bytes > 0 && rows[i].time > 0) order.push_back(i);
  }
  std::stable_sort(order.begin(), order.end(),
                   [&](std::size_t a, std::size_t b) { return rows[a].bytes < rows[b].bytes; });
  NcclTableFit fit;
  fit.model_time.assign(rows.size(), 0.0);
  fit.model_busbw.assign(rows.size(), 0.0);
  if (order.empty()) return fit;
  Sums sums(order.size());
  for (std::size_t k = 0; k < order.size(); ++k) {
    sums.add(k, model.bus_factor * rows[order[k]].bytes, rows[order[k]].time);
  }
  const std::size_t min_rows = order.size() >= 2 ? 2 : 1;
  const std::size_t most = std::max<std::size_t>(1, std::min<std::size_t>(3, order.size() / min_rows));
  std::size_t start = 0;
  for (const std::size_t end : best_split(sums, order.size(), most, min_rows)) {
    const Line l = fit_range(sums, start, end);
    NcclRegime regime{rows[order[start]].bytes, rows[order[end - 1]].bytes, model.steps > 0 ? l.a / model.steps : 0.0,
                      l.b > 0 ? 1.0 / l.b : 0.0};
    fit.regimes.push_back(regime);
    for (std::size_t k = start; k < end; ++k) {
      const NcclRow& r = rows[order[k]];
      const double t = l.a + l.b * model.bus_factor * r.bytes;
      fit.model_time[order[k]] = t;
      fit.model_busbw[order[k]] = t > 0 ? r.bytes * model.bus_factor / t : 0.0;
    }
    start = end;
  }
  return fit;
}

}  // namespace parascope::detail
