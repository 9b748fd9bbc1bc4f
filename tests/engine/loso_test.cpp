// Leave-one-source-out: the GEMM ceilings' one fitted constant (the share of MAMF a stack's GEMMs hold) is fitted
// without each publication in turn and that publication is predicted; the held-out errors are the engine's track
// record and its error bands (engine/data/error_bands.json, which this test checks and `scripts/calibrate` writes).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <string>
#include <vector>

#include "parascope/api.hpp"
#include "published_runs.hpp"

namespace {

using nlohmann::json;
using parascope::test::PublishedRun;

/// The shares tried: 0.30 to 1.00 in steps of 0.025.
std::vector<double> grid() {
  std::vector<double> g;
  for (int i = 0; i <= 28; ++i) g.push_back(0.3 + 0.025 * i);
  return g;
}

/// The allocator reserves tried: 0 to 1.00 of the dynamic bytes in steps of 0.01.
std::vector<double> reserve_grid() {
  std::vector<double> g;
  for (int i = 0; i <= 100; ++i) g.push_back(0.01 * i);
  return g;
}

json call(const json& request) { return json::parse(parascope::call(request.dump())); }

/// The chip's measured GEMM ceilings (BF16, FP8) of a request's hardware, preset or object; 0 when it gives none.
std::pair<double, double> gemm_ceilings(const json& request) {
  static const json presets = call({{"op", "presets"}})["hardware"];
  json hw = request["hardware"];
  if (hw.is_string()) {
    for (const json& h : presets) {
      if (h["id"] == hw) hw = h;
    }
  }
  return {hw.value("gemm_efficiency", 0.0), hw.value("gemm_efficiency_fp8", 0.0)};
}

/// What the engine says of one run at one share: measured / predicted throughput, MFU, memory.
struct Prediction {
  double ratio = 0;  ///< measured / predicted throughput (0: the run has no throughput measurement)
  double mfu = 0;
  double memory = 0;   ///< the predicted allocated peak
  double dynamic = 0;  ///< its activations and transients, the part the allocator's reserve grows on
  double runtime = 0;  ///< what the measured figure holds beyond the allocator (0 for the allocator's own reading)
  double engine_runtime = 0;  ///< the engine's runtime bytes (CUDA context, NCCL buffers), whatever the source reads
  double reserve = 0;         ///< the engine's allocator reserve as a share of the dynamic bytes
  double capacity = 0;        ///< the device's bytes (the reserve fills at most what the rest leaves free)
  bool fits = true;
};

/// The reserve's part that is not the fitted share: a stack's reduction bucket (Efficiency::reduce_bucket_elements),
/// read from the request with the share set to 0. It does not depend on the GEMM ceilings.
double reduction_bucket(const json& request) {
  json unshared = request;
  unshared["efficiency"]["allocator_reserve"] = 0;
  return call(unshared)["memory_per_gpu"]["allocator_reserve"].get<double>();
}

/// The engine's own answer for a run (share < 0), or with the GEMM ceilings at `share` of the chip's MAMF; `bucket`
/// is the run's reduction_bucket (computed when < 0).
Prediction predict(const PublishedRun& run, double share, double bucket = -1) {
  json request = run.request;
  const auto [bf16, fp8] = gemm_ceilings(request);
  if (bf16 > 0 && share >= 0) {
    request["efficiency"]["gemm_max"] = bf16 * share;
    request["efficiency"]["gemm_max_fp8"] = (fp8 > 0 ? fp8 : bf16) * share;
  }
  const json r = call(request);
  EXPECT_FALSE(r.contains("error")) << run.label << ": " << r.dump();
  Prediction p;
  if (r.contains("error")) return p;
  const double gpus = request["cluster"]["gpus"];
  if (run.tokens_per_second > 0) p.ratio = run.tokens_per_second / (r["tokens_per_second"].get<double>() / gpus);
  if (run.step_time > 0) p.ratio = r["step_time"].get<double>() / run.step_time;
  p.mfu = r["mfu"];
  const json& m = r["memory_per_gpu"];
  if (bucket < 0) bucket = reduction_bucket(run.request);
  // Memory as the allocator would hold it with no fitted reserve, plus the runtime where the source reads the device
  // (nvidia-smi) rather than the allocator: the reserve's share is fitted on top.
  const double allocated =
      (m["total"].get<double>() - m["runtime"].get<double>() - m["allocator_reserve"].get<double>()) + bucket;
  p.memory = allocated;
  p.dynamic = m["activations"].get<double>() + m["transient"].get<double>();
  p.reserve = p.dynamic > 0 ? (m["allocator_reserve"].get<double>() - bucket) / p.dynamic : 0.0;
  p.capacity = r["memory_capacity"];
  p.runtime = run.memory_kind == "reserved" ? 0.0 : m["runtime"].get<double>();
  p.engine_runtime = m["runtime"];
  p.fits = r["fits"];
  return p;
}

double median(std::vector<double> v) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  return v.size() % 2 ? v[v.size() / 2] : 0.5 * (v[v.size() / 2 - 1] + v[v.size() / 2]);
}

/// Quantile q of values with weights (each source's rows share one unit of weight): the weighted empirical CDF.
double weighted_quantile(std::vector<std::pair<double, double>> vw, double q) {
  std::sort(vw.begin(), vw.end());
  double total = 0;
  for (const auto& [v, w] : vw) total += w;
  double seen = 0;
  for (const auto& [v, w] : vw) {
    seen += w;
    if (seen >= q * total) return v;
  }
  return vw.empty() ? 1.0 : vw.back().first;
}

struct Row {
  const PublishedRun* run;
  std::vector<Prediction> at;  ///< per grid share
};

/// The grid share that best fits `sources`: the least sum over them of (median log(measured / predicted))², so each
/// publication counts once however many rows it has.
std::size_t fit(const std::vector<Row>& rows, const std::set<std::string>& sources) {
  const std::size_t n = grid().size();
  std::size_t best = n / 2;
  double best_cost = INFINITY;
  for (std::size_t g = 0; g < n; ++g) {
    std::map<std::string, std::vector<double>> logs;
    for (const Row& r : rows) {
      if (sources.count(r.run->source) && r.at[g].ratio > 0) logs[r.run->source].push_back(std::log(r.at[g].ratio));
    }
    double cost = 0;
    for (const auto& [source, v] : logs) cost += median(v) * median(v);
    if (!logs.empty() && cost < best_cost - 1e-12) best_cost = cost, best = g;
  }
  return best;
}

struct Row;

struct HeldOut {
  std::string family, source;
  double share = 0;
  std::vector<double> ratios, points;  ///< measured / predicted, and predicted − measured MFU in points
  std::size_t grid_index = 0;          ///< the share's place in grid() (speed)
  std::vector<const Row*> rows;        ///< the rows behind ratios, in order
};

/// Every published run at every grid share, computed once for the tests of this file.
const std::vector<Row>& predictions() {
  static const std::vector<PublishedRun> runs = parascope::test::published_runs();
  static const std::vector<Row> rows = [] {
    std::vector<Row> out;
    for (const PublishedRun& run : runs) {
      Row r{&run, {}};
      const double bucket = reduction_bucket(run.request);
      for (double share : grid()) r.at.push_back(predict(run, share, bucket));
      out.push_back(std::move(r));
    }
    return out;
  }();
  return rows;
}

/// Every source predicted with the share fitted on the other sources of its family (or, for a family with one
/// source, on every other source).
std::vector<HeldOut> leave_one_source_out(const std::vector<Row>& rows) {
  std::map<std::string, std::set<std::string>> family_sources;
  for (const Row& r : rows) {
    if (r.run->tokens_per_second > 0 || r.run->step_time > 0) family_sources[r.run->family].insert(r.run->source);
  }
  std::vector<HeldOut> out;
  for (const auto& [family, sources] : family_sources) {
    for (const std::string& held : sources) {
      std::set<std::string> rest;
      for (const std::string& s : sources) {
        if (s != held) rest.insert(s);
      }
      if (rest.empty()) {
        for (const auto& [f, s] : family_sources) {
          if (f != family) rest.insert(s.begin(), s.end());
        }
      }
      const std::size_t g = fit(rows, rest);
      HeldOut h{family, held, grid()[g], {}, {}, g, {}};
      for (const Row& r : rows) {
        if (r.run->source != held || r.at[g].ratio <= 0) continue;
        h.rows.push_back(&r);
        h.ratios.push_back(r.at[g].ratio);
        h.points.push_back(100 * r.at[g].mfu * (1 - r.at[g].ratio));
      }
      out.push_back(std::move(h));
    }
  }
  return out;
}

/// The hardware presets the held-out runs ran on, sorted: where the band has been tried.
json chips_of(const std::vector<const HeldOut*>& held) {
  std::set<std::string> chips;
  for (const HeldOut* h : held)
    for (const Row* r : h->rows)
      if (!r->run->chip.empty()) chips.insert(r->run->chip);
  return json(std::vector<std::string>(chips.begin(), chips.end()));
}

json band(const std::vector<const HeldOut*>& held) {
  std::vector<std::pair<double, double>> vw;
  int rows = 0;
  for (const HeldOut* h : held) {
    for (double r : h->ratios) vw.push_back({r, 1.0 / double(h->ratios.size())});
    rows += int(h->ratios.size());
  }
  auto round3 = [](double v) { return std::round(v * 1000) / 1000; };
  return {{"measured_over_predicted",
           {{"p10", round3(weighted_quantile(vw, 0.1))},
            {"p50", round3(weighted_quantile(vw, 0.5))},
            {"p90", round3(weighted_quantile(vw, 0.9))}}},
          {"held_out_sources", int(held.size())},
          {"rows", rows},
          {"chips", chips_of(held)}};
}

/// measured / predicted peak memory of a run with the allocator holding `reserve` of its dynamic bytes on top.
double memory_ratio(const Row& r, double reserve) {
  const Prediction& p = r.at.front();  // memory does not depend on the GEMM share
  double cache = reserve * p.dynamic;  // capped by the device's free bytes, as memory_model.cpp caps it
  if (p.capacity > 0) cache = std::min(cache, std::max(0.0, p.capacity - p.memory - p.engine_runtime));
  return r.run->peak_memory / (p.memory + cache + p.runtime);
}

/// The reserve that best fits `sources`' peak-memory measurements: least sum of (median log ratio)² per source.
double fit_reserve(const std::vector<Row>& rows, const std::set<std::string>& sources) {
  double best = 0, best_cost = INFINITY;
  for (double f : reserve_grid()) {
    std::map<std::string, std::vector<double>> logs;
    for (const Row& r : rows) {
      if (r.run->peak_memory > 0 && sources.count(r.run->source))
        logs[r.run->source].push_back(std::log(memory_ratio(r, f)));
    }
    double cost = 0;
    for (const auto& [source, v] : logs) cost += median(v) * median(v);
    if (cost < best_cost - 1e-12) best_cost = cost, best = f;
  }
  return best;
}

/// Peak memory, leave-one-source-out: the allocator reserve fitted without each source, that source predicted.
std::vector<HeldOut> memory_held_out(const std::vector<Row>& rows) {
  std::set<std::string> sources;
  for (const Row& r : rows) {
    if (r.run->peak_memory > 0) sources.insert(r.run->source);
  }
  std::vector<HeldOut> out;
  for (const std::string& held : sources) {
    std::set<std::string> rest = sources;
    rest.erase(held);
    const double f = fit_reserve(rows, rest);
    HeldOut h{"memory", held, f, {}, {}, 0, {}};
    for (const Row& r : rows) {
      if (r.run->peak_memory > 0 && r.run->source == held) h.ratios.push_back(memory_ratio(r, f)), h.rows.push_back(&r);
    }
    out.push_back(std::move(h));
  }
  return out;
}

json memory_band(const std::vector<HeldOut>& held) {
  std::vector<const HeldOut*> all;
  for (const HeldOut& h : held) all.push_back(&h);
  return band(all);
}

/// Whether a published run ran: not reported out of memory, and measured or reported as having run.
bool ran_run(const PublishedRun& run) {
  const bool measured = run.tokens_per_second > 0 || run.step_time > 0 || run.peak_memory > 0;
  return run.oom != 1 && (measured || run.oom == 0);
}

/// The memory model's verdict against what happened: every published run that ran should be called a fit, every one
/// reported out of memory not. `fits` does not depend on the GEMM share.
json fits_record(const std::vector<Row>& rows) {
  int ran = 0, ran_fits = 0, oom = 0, oom_refused = 0;
  for (const Row& r : rows) {
    if (r.run->oom == 1) {
      ++oom;
      oom_refused += r.at.front().fits ? 0 : 1;
    } else if (ran_run(*r.run)) {
      ++ran;
      ran_fits += r.at.front().fits ? 1 : 0;
    }
  }
  return {{"ran", ran},
          {"ran_called_fits", ran_fits},
          {"out_of_memory", oom},
          {"out_of_memory_called_no_fit", oom_refused}};
}

json bands(const std::vector<Row>& rows, const std::vector<HeldOut>& held) {
  json speed = json::array();
  std::map<std::string, std::vector<const HeldOut*>> by_family;
  std::vector<const HeldOut*> all;
  for (const HeldOut& h : held) by_family[h.family].push_back(&h), all.push_back(&h);
  for (const auto& [family, list] : by_family) {
    json b = band(list);
    b["software"] = family;
    speed.push_back(b);
    if (family == "pytorch") {
      for (const char* same : {"pytorch-compile", "nanotron"}) {  // the same family: one constant, one track record
        b["software"] = same;
        speed.push_back(b);
      }
    }
  }
  json b = band(all);
  b["software"] = "all stacks";
  speed.push_back(b);
  return {
      {"units",
       "Written by scripts/calibrate (tests/engine/loso_test.cpp): per software stack, quantiles of measured / "
       "predicted throughput over published runs predicted with the GEMM share fitted without their source; memory: "
       "measured / predicted peak memory (reserved where the source reads the allocator). Do not edit by hand."},
      {"speed", speed},
      {"memory", memory_band(memory_held_out(rows))},
      {"fits", fits_record(rows)}};
}

/// A number to four significant digits: the track record is read by eye and drawn, not recomputed.
double sig4(double v) {
  if (v == 0 || !std::isfinite(v)) return v;
  const double scale = std::pow(10.0, 3 - std::floor(std::log10(std::fabs(v))));
  return std::round(v * scale) / scale;
}

std::string hardware_name(const json& request) {
  const json& hw = request["hardware"];
  return hw.is_string() ? hw.get<std::string>() : hw.value("name", std::string("custom"));
}

/// The column at `key` in `columns`, made `count` nulls long the first time it is asked for.
json& column(json& columns, const std::string& key, std::size_t count) {
  json& c = columns[key];
  if (c.is_null()) c = json(std::vector<json>(count, nullptr));
  return c;
}

/// Runs (one object each) turned column-wise: `count`, then one array of `count` values per field and, for a nested
/// object (`speed`, `memory`), one per its fields under its name; null where a run has no such value. The field names
/// are written once instead of once a run: the file gzips a sixth smaller (12,116 -> 10,152 B gzip -9 with 414 runs),
/// and the figure embedded alone is held to 120,000 bytes (web/widgets/track/model/runs.js turns it back into objects).
json columns_of(const json& runs) {
  json columns = {{"count", runs.size()}};
  for (std::size_t i = 0; i < runs.size(); ++i) {
    for (const auto& field : runs[i].items()) {
      if (!field.value().is_object()) {
        column(columns, field.key(), runs.size())[i] = field.value();
        continue;
      }
      for (const auto& inner : field.value().items())
        column(columns[field.key()], inner.key(), runs.size())[i] = inner.value();
    }
  }
  return columns;
}

/// Every published run as the track-record figure draws it (web/data/track-record.json): what was measured, what the
/// engine predicted with its constants fitted without the run's publication (speed: the GEMM share; memory: the
/// allocator reserve), what its shipped constants predict, and the memory verdict against what happened. Written
/// column-wise (columns_of).
json track_record(const std::vector<Row>& rows, const std::vector<HeldOut>& speed, const std::vector<HeldOut>& memory) {
  std::map<const Row*, json> runs;
  json sources = json::object();
  for (const Row& r : rows) {
    json j = {{"source", r.run->source},
              {"table", r.run->table},
              {"family", r.run->family},
              {"software", r.run->software},
              {"hardware", hardware_name(r.run->request)},
              {"gpus", r.run->request["cluster"]["gpus"]},
              {"run", r.run->label},
              {"called_fits", r.at.front().fits}};
    if (r.run->oom == 1 || ran_run(*r.run)) j["outcome"] = r.run->oom == 1 ? "out of memory" : "ran";
    runs[&r] = std::move(j);
    sources[r.run->table] = r.run->citation;
  }
  for (const HeldOut& h : speed) {
    for (std::size_t i = 0; i < h.rows.size(); ++i) {
      const Prediction& held = h.rows[i]->at[h.grid_index];
      const Prediction shipped = predict(*h.rows[i]->run, -1);
      json& j = runs[h.rows[i]]["speed"] = {{"measured_over_predicted", sig4(held.ratio)},
                                            {"predicted_mfu", sig4(held.mfu)},
                                            {"measured_mfu", sig4(held.mfu * held.ratio)}};
      // Only where the engine's own constants predict otherwise (null in its column elsewhere): 274 of the 405 runs
      // with a throughput agree, and the figure embedded alone is held to 120,000 bytes (issues 29, 30).
      if (sig4(shipped.ratio) != sig4(held.ratio)) j["shipped_measured_over_predicted"] = sig4(shipped.ratio);
    }
  }
  for (const HeldOut& h : memory) {
    for (std::size_t i = 0; i < h.rows.size(); ++i) {
      const double measured = h.rows[i]->run->peak_memory;
      runs[h.rows[i]]["memory"] = {{"measured_gib", sig4(measured / 1073741824.0)},
                                   {"predicted_gib", sig4(measured / h.ratios[i] / 1073741824.0)},
                                   {"kind", h.rows[i]->run->memory_kind}};
    }
  }
  json list = json::array();
  for (const Row& r : rows) list.push_back(std::move(runs[&r]));
  return {
      {"units",
       "Written by scripts/calibrate (tests/engine/loso_test.cpp); every field: engine/API.md, \"Error bands and the "
       "held-out track record\". Do not edit by hand."},
      {"sources", std::move(sources)},
      {"runs", columns_of(list)}};
}

void print_held_out(const std::vector<HeldOut>& held) {
  std::printf("  %-15s %-26s %6s %5s %9s %9s %9s\n", "family", "held-out source", "fitted", "rows", "med meas/pred",
              "med|pts|", "max|pts|");
  for (const HeldOut& h : held) {
    std::vector<double> abs_points;
    for (double p : h.points) abs_points.push_back(std::fabs(p));
    // A source whose chips give no MAMF (TPU) is predicted at the chip's own ceiling: no share was applied.
    const bool shared = h.family == "memory" || std::any_of(h.rows.begin(), h.rows.end(), [](const Row* r) {
                          return gemm_ceilings(r->run->request).first > 0;
                        });
    const std::string fitted = shared ? std::to_string(h.share).substr(0, 5) : "n/a";
    std::printf("  %-15s %-26s %6s %5zu %9.3f %9.1f %9.1f\n", h.family.c_str(), h.source.c_str(), fitted.c_str(),
                h.ratios.size(), median(h.ratios), median(abs_points),
                abs_points.empty() ? 0.0 : *std::max_element(abs_points.begin(), abs_points.end()));
  }
}

/// Published out-of-memory runs the engine still calls fits, each with what it predicts: issue 24's goal (95 % of
/// them called no fit) is not met, and this list says so instead of a bar lowered to pass. A run that leaves it, or
/// joins it, fails the test below until the list is brought up to date.
const std::set<std::string>& known_out_of_memory_misses() {
  static const std::set<std::string> misses{
      // BLOOM's chronicle, 02-28, BF16_Optimizer, MBS 1: within the spread of the engine's reading of
      // Megatron-DeepSpeed's nvidia-smi peaks (its MBS 2 twin, and 02-25's DP 32 TP 2 PP 6 MBS 1, are called out of
      // memory since DeepSpeed's communicators and the 2022 NCCL's trees are counted: memory_model.cpp).
      "h 12288, 100 layers, NHEADS 64, 384 A100 80GB, DP 16 TP 4 PP 6 MBS 1, GBS 2048, out of memory",
      // 02-28: 63.6 GiB predicted. The same table's h 13312 / 94 layers run, predicted at 63.8 GiB, ran at 67 GB: no
      // model of the states and activations can tell the two apart.
      "h 14336, 82 layers, NHEADS 128, 384 A100 80GB, DP 8 TP 4 PP 12 MBS 2, GBS 2048, out of memory",
  };
  return misses;
}

// Issue 24's goal: "fits" right on at least 95 % of the runs that ran and of those that ran out of memory.
TEST(LeaveOneSourceOut, RunsThatRanAreCalledFitsAndRunsThatRanOutOfMemoryAreNot) {
  const std::vector<Row>& rows = predictions();
  std::set<std::string> misses;
  for (const Row& r : rows) {
    if (ran_run(*r.run) && !r.at.front().fits) std::printf("  ran, called no fit: %s\n", r.run->label.c_str());
    if (r.run->oom == 1 && r.at.front().fits) {
      std::printf("  out of memory, called a fit: %s\n", r.run->label.c_str());
      misses.insert(r.run->label);
    }
  }
  const json f = fits_record(rows);
  std::printf("  fits: %d of %d runs that ran; no fit: %d of %d out of memory\n", f["ran_called_fits"].get<int>(),
              f["ran"].get<int>(), f["out_of_memory_called_no_fit"].get<int>(), f["out_of_memory"].get<int>());
  ASSERT_GT(f["ran"].get<int>(), 0);
  EXPECT_GE(f["ran_called_fits"].get<double>(), 0.95 * f["ran"].get<double>());
  EXPECT_EQ(misses, known_out_of_memory_misses()) << "out-of-memory runs called fits changed: update the list";
}

TEST(LeaveOneSourceOut, HeldOutErrorsPerSourceAndTheBandsTheEngineShips) {
  const std::vector<Row>& rows = predictions();
  const std::vector<HeldOut> held = leave_one_source_out(rows);
  print_held_out(held);
  print_held_out(memory_held_out(rows));
  // The constants the engine ships: each family's share and the allocator reserve fitted on every source.
  std::map<std::string, std::set<std::string>> family_sources;
  std::set<std::string> memory_sources;
  for (const Row& r : rows) {
    if (r.run->tokens_per_second > 0 || r.run->step_time > 0) family_sources[r.run->family].insert(r.run->source);
    if (r.run->peak_memory > 0) memory_sources.insert(r.run->source);
  }
  for (const auto& [family, sources] : family_sources) {
    const std::size_t g = fit(rows, sources);
    const bool shared = std::any_of(rows.begin(), rows.end(), [&](const Row& r) {
      return r.run->family == family && gemm_ceilings(r.run->request).first > 0;
    });
    if (shared) std::printf("  all-source fit: %-15s share %.3f\n", family.c_str(), grid()[g]);
    if (!shared) std::printf("  all-source fit: %-15s none (its chips give no MAMF to share)\n", family.c_str());
    // The engine's default for the family is that fit: its own answer equals the one at the fitted share.
    for (const Row& r : rows) {
      if (r.run->family != family || (r.run->tokens_per_second <= 0 && r.run->step_time <= 0)) continue;
      if (gemm_ceilings(r.run->request).first <= 0) break;  // a chip with no MAMF (TPU): no share applies
      EXPECT_NEAR(predict(*r.run, -1).ratio, r.at[g].ratio, 1e-9 * r.at[g].ratio)
          << family << ": the engine's sustained_share (engine/src/kernel_model.cpp) is not the all-source fit "
          << grid()[g] << " (" << r.run->label << ")";
      break;
    }
  }
  const double reserve = fit_reserve(rows, memory_sources);
  std::printf("  all-source fit: allocator reserve %.2f\n", reserve);
  double shipped = 0;  // the engine's share, where the device's free bytes do not cap it (the largest seen)
  for (const Row& r : rows) {
    if (r.run->peak_memory > 0) shipped = std::max(shipped, r.at.front().reserve);
  }
  EXPECT_NEAR(shipped, reserve, 1e-12) << "kAllocatorReserve (engine/src/kernel_model.cpp) is not the all-source fit";
  const json computed = bands(rows, held);
  const json record = track_record(rows, held, memory_held_out(rows));
  const std::string record_path = std::string(PARASCOPE_SOURCE_DIR) + "/web/data/track-record.json";
  const std::string path = std::string(PARASCOPE_SOURCE_DIR) + "/engine/data/error_bands.json";
  if (const char* out = std::getenv("PARASCOPE_WRITE_BANDS")) {
    // "units" first (engine/embed_data.cmake leaves each file's leading note out of the engine).
    nlohmann::ordered_json file;
    file["units"] = computed["units"];
    file["speed"] = computed["speed"];
    file["memory"] = computed["memory"];
    file["fits"] = computed["fits"];
    std::ofstream(out) << file.dump(2) << "\n";
    std::ofstream(record_path) << record.dump() << "\n";
    std::printf("  wrote %s and %s\n", out, record_path.c_str());
  }
  std::ifstream in(path);
  ASSERT_TRUE(in) << path;
  const json committed = json::parse(in);
  EXPECT_EQ(committed["speed"].dump(), computed["speed"].dump())
      << "engine/data/error_bands.json is stale: run scripts/calibrate";
  EXPECT_EQ(committed["memory"].dump(), computed["memory"].dump())
      << "engine/data/error_bands.json is stale: run scripts/calibrate";
  EXPECT_EQ(committed["fits"].dump(), computed["fits"].dump())
      << "engine/data/error_bands.json is stale: run scripts/calibrate";
  std::ifstream record_in(record_path);
  ASSERT_TRUE(record_in) << record_path;
  EXPECT_EQ(json::parse(record_in).dump(), record.dump())
      << "web/data/track-record.json is stale: run scripts/calibrate";
}

}  // namespace
