// One step of a collected Kineto trace split as Holistic Trace Analysis splits it (Rajan et al. 2023, "temporal
// breakdown" and "communication computation overlap"): web/widgets/step/model/kineto.js's collectedStep, operation
// for operation (the same sums in the same order, so the same doubles), printed as its JSON. Seconds throughout.
#include "kineto.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <nlohmann/json.hpp>

#include "kineto_collect.hpp"

namespace parascope::cli {

namespace {

using nlohmann::ordered_json;
using Intervals = std::vector<std::pair<double, double>>;

struct Mine {
  const GpuEvent* event;
  double start;
  double end;
};

/// Sorted (stably, as Array.prototype.sort), merged copies of intervals.
Intervals merged(Intervals v) {
  v.erase(std::remove_if(v.begin(), v.end(), [](const auto& x) { return !(x.second > x.first); }), v.end());
  std::stable_sort(v.begin(), v.end(), [](const auto& x, const auto& y) { return x.first < y.first; });
  Intervals out;
  for (const auto& [a, b] : v) {
    if (!out.empty() && a <= out.back().second)
      out.back().second = std::max(out.back().second, b);
    else
      out.emplace_back(a, b);
  }
  return out;
}

double length(const Intervals& m) {
  double s = 0;
  for (const auto& [a, b] : m) s += b - a;
  return s;
}

double overlap(const Intervals& x, const Intervals& y) {
  std::size_t i = 0, j = 0;
  double s = 0;
  while (i < x.size() && j < y.size()) {
    const double a = std::max(x[i].first, y[j].first);
    const double b = std::min(x[i].second, y[j].second);
    if (b > a) s += b - a;
    if (x[i].second < y[j].second)
      ++i;
    else
      ++j;
  }
  return s;
}

Intervals concat(Intervals a, const Intervals& b) {
  a.insert(a.end(), b.begin(), b.end());
  return a;
}

struct Step {
  std::string name;
  double number;
  double start;
  double end;
};

std::vector<Step> profiler_steps(const Collected& c) {
  std::vector<Step> steps;
  for (const auto& m : c.markers) {
    const std::string digits = m.name.substr(m.name.find_last_not_of("0123456789") + 1);
    steps.push_back({m.name, std::stod(digits), (m.ts - c.base) / 1e6, (m.ts - c.base + m.dur) / 1e6});
  }
  std::stable_sort(steps.begin(), steps.end(), [](const Step& a, const Step& b) { return a.start < b.start; });
  return steps;
}

/// The GPU events launched inside [start, end) (all of them when `all`).
std::vector<Mine> gpu_events(const Collected& c, const Step* window) {
  const auto inside = [&](double t) { return !window || (t >= window->start && t < window->end); };
  std::unordered_set<std::string> launched;
  for (const auto& [corr, ts] : c.launches)
    if (inside((ts - c.base) / 1e6)) launched.insert(corr);
  std::vector<Mine> out;
  for (const auto& g : c.gpu) {
    const double start = (g.ts - c.base) / 1e6;
    const bool mine = (g.corr && launched.count(*g.corr)) || (!(g.corr && c.launched.count(*g.corr)) && inside(start));
    if (mine) out.push_back({&g, start, start + g.dur / 1e6});
  }
  return out;
}

Intervals of(const std::vector<Mine>& mine, const std::vector<std::string>& kinds) {
  Intervals v;
  for (const auto& g : mine)
    if (std::find(kinds.begin(), kinds.end(), g.event->kind) != kinds.end()) v.emplace_back(g.start, g.end);
  return merged(std::move(v));
}

ordered_json breakdown(const std::vector<Mine>& mine, double span) {
  const Intervals compute = of(mine, {"gemm", "attention", "elementwise", "other"});
  const Intervals comm = of(mine, {"nccl"});
  const Intervals copies = of(mine, {"memcpy"});
  const Intervals busy = merged(concat(compute, comm));
  const double overlapped = overlap(comm, compute);
  ordered_json b;
  b["compute"] = length(compute);
  b["overlapped"] = overlapped;
  b["exposed"] = length(comm) - overlapped;
  b["memcpy"] = length(copies) - overlap(copies, busy);
  b["idle"] = span - length(merged(concat(busy, copies)));
  return b;
}

/// Per stream: its kernels' count and seconds per kind, busiest stream first (kineto.js's streamsOf).
ordered_json streams(const std::vector<Mine>& mine, const std::vector<std::string>& kinds) {
  std::vector<std::pair<std::string, ordered_json>> by;  // stream's JSON text -> entry, in order of appearance
  for (const auto& g : mine) {
    const std::string key = g.event->stream.dump();
    auto it = std::find_if(by.begin(), by.end(), [&](const auto& s) { return s.first == key; });
    if (it == by.end()) {
      ordered_json s{{"stream", g.event->stream}, {"count", 0}, {"seconds", ordered_json::object()}};
      for (const auto& k : kinds) s["seconds"][k] = 0.0;
      by.emplace_back(key, std::move(s));
      it = by.end() - 1;
    }
    it->second["count"] = it->second["count"].get<long long>() + 1;
    auto& sec = it->second["seconds"][g.event->kind];
    sec = sec.get<double>() + (g.end - g.start);
  }
  const auto total = [](const ordered_json& s) {
    double t = 0;
    for (const auto& [k, v] : s["seconds"].items()) t = t + v.get<double>();
    return t;
  };
  std::stable_sort(by.begin(), by.end(),
                   [&](const auto& a, const auto& b) { return total(b.second) < total(a.second); });
  ordered_json out = ordered_json::array();
  for (auto& s : by) out.push_back(std::move(s.second));
  return out;
}

ordered_json collectives(const std::vector<Mine>& mine) {
  ordered_json out = ordered_json::object();
  for (const auto& g : mine) {
    if (g.event->kind != "nccl") continue;
    auto& v = out[g.event->collective];
    v = (v.is_null() ? 0.0 : v.get<double>()) + (g.end - g.start);
  }
  return out;
}

ordered_json step_json(const Step& s) {
  const ordered_json number =
      s.number <= 9007199254740992.0 ? ordered_json(static_cast<long long>(s.number)) : ordered_json(s.number);
  return {{"name", s.name}, {"number", number}, {"start", s.start}, {"end", s.end}};
}

ordered_json error(const std::string& code, const std::string& message) {
  return {{"error", {{"code", code}, {"message", message}, {"field", "--kineto"}}}};
}

/// kineto.js's collectedStep; `pick` the index of the marker (the last when absent).
ordered_json answer(const Collected& c, const std::vector<Step>& steps, std::optional<std::size_t> pick,
                    const std::vector<std::string>& kinds) {
  const Step* step = steps.empty() ? nullptr : &steps[pick.value_or(steps.size() - 1)];
  const std::vector<Mine> mine = gpu_events(c, step);
  if (mine.empty()) return error("no_gpu_events", "the trace has no GPU kernels in the step picked");
  double first = std::numeric_limits<double>::infinity();
  double last = -std::numeric_limits<double>::infinity();
  for (const auto& g : mine) {
    first = std::min(first, g.start);
    last = std::max(last, g.end);
  }
  const double span = last - first;
  ordered_json out;
  out["steps"] = ordered_json::array();
  for (const auto& s : steps) out["steps"].push_back(step_json(s));
  out["step"] = step ? step_json(*step) : ordered_json();
  const auto& d = c.distributed;
  out["rank"] = d.is_object() && d.contains("rank") ? ordered_json(d["rank"]) : ordered_json();
  out["world_size"] = d.is_object() && d.contains("world_size") ? ordered_json(d["world_size"]) : ordered_json();
  out["kernels"] = mine.size();
  out["span"] = span;
  out["breakdown"] = breakdown(mine, span);
  out["streams"] = streams(mine, kinds);
  out["collectives"] = collectives(mine);
  return out;
}

}  // namespace

int kineto_main(const std::string& path, std::optional<long long> step, std::ostream& out, std::ostream& err) {
  const KinetoRules rules;
  Collector collector(rules);
  bool opened = false;
  if (const auto fault = read_trace(path, collector, opened)) {
    if (!opened) {
      err << "parascope: cannot read " << path << "\n";
      return 1;
    }
    out << error(fault->code, fault->message).dump() << "\n";
    return 2;
  }
  const Collected& c = collector.collected();
  const std::vector<Step> steps = profiler_steps(c);
  std::optional<std::size_t> pick;
  if (step) {
    const auto it = std::find_if(steps.begin(), steps.end(), [&](const Step& s) { return s.number == *step; });
    if (it == steps.end()) {
      out << error("no_step", "the trace has no marker ProfilerStep#" + std::to_string(*step)).dump() << "\n";
      return 2;
    }
    pick = static_cast<std::size_t>(it - steps.begin());
  }
  const ordered_json a = answer(c, steps, pick, rules.kinds());
  out << a.dump() << "\n";
  return a.contains("error") ? 2 : 0;
}

}  // namespace parascope::cli
