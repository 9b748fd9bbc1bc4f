// The cost model against published training runs (tests/fixtures/calibration-runs.jsonl, sources per row):
// Korthikanti et al. 2022 Table 5 iteration times, Narayanan et al. 2021 Tables 1 and 2 per-GPU throughput (A100,
// software "megatron-2021"), and H100/B200/GB200 runs of NeMo / Megatron-Bridge (rows with a "request"). The model is
// not fitted per row: every row runs with its software generation's documented defaults (engine/API.md).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "parascope/api.hpp"
#include "published_runs.hpp"

namespace {

using nlohmann::json;

std::vector<json> rows() { return parascope::test::read_jsonl("calibration-runs.jsonl"); }

json step(const json& row, const std::string& recompute, bool sequence_parallel) {
  const json request = parascope::test::megatron_2021_request(row, recompute, sequence_parallel);
  json r = json::parse(parascope::call(request.dump()));
  EXPECT_FALSE(r.contains("error")) << r.dump() << "\n" << request.dump();
  return r;
}

TEST(Calibration, KorthikantiTable5IterationTimesWithinFivePercentOnAverageAndTenAtWorst) {
  double sum = 0, worst = 0;
  int n = 0;
  for (const json& row : rows()) {
    if (!row.contains("iter_s_full_recompute")) continue;
    for (const bool selective : {false, true}) {
      const double published = row[selective ? "iter_s_seqpar_selective" : "iter_s_full_recompute"];
      const json r = step(row, selective ? "selective" : "full", selective);
      const double predicted = r.value("step_time", 0.0);
      const double error = predicted / published - 1.0;
      std::printf("  Korthikanti %-8s %-22s published %7.2f s  predicted %7.2f s  error %+6.1f %%\n",
                  row["model"].get<std::string>().c_str(), selective ? "selective + SP" : "full recompute", published,
                  predicted, 100 * error);
      sum += std::fabs(error);
      worst = std::max(worst, std::fabs(error));
      ++n;
    }
  }
  ASSERT_EQ(n, 8);
  std::printf("  Korthikanti mean absolute error %.2f %%, worst %.2f %%\n", 100 * sum / n, 100 * worst);
  EXPECT_LE(sum / n, 0.05);
  EXPECT_LE(worst, 0.10);
}

/// Narayanan et al. 2021 count 96·B·s·l·h²·(1 + s/6h + V/16lh) FLOPs per iteration (Eq. 3, with recomputation).
double narayanan_tflops_per_gpu(const json& row, double step_time) {
  const double B = row["gbs_seqs"], s = row["seq"], l = row["layers"], h = row["hidden"], V = row["vocab"];
  const double flops = 96.0 * B * s * l * h * h * (1.0 + s / (6.0 * h) + V / (16.0 * l * h));
  return flops / step_time / double(row["gpus"]) / 1e12;
}

void check_narayanan(bool table1, double tolerance) {
  int n = 0;
  for (const json& row : rows()) {
    if (!row.contains("tflops_per_gpu")) continue;
    const bool is_table1 = row.contains("pct_peak");
    if (is_table1 != table1) continue;
    const json r = step(row, "full", false);
    const double predicted = narayanan_tflops_per_gpu(row, r.value("step_time", 1.0));
    const double published = row["tflops_per_gpu"];
    const double error = predicted / published - 1.0;
    std::printf("  Narayanan T%d %-11s %5d GPUs  published %5.0f TFLOP/s  predicted %6.1f  error %+6.1f %%\n",
                table1 ? 1 : 2, row["model"].get<std::string>().c_str(), row["gpus"].get<int>(), published, predicted,
                100 * error);
    EXPECT_LE(std::fabs(error), tolerance) << row.dump();
    ++n;
  }
  EXPECT_GT(n, 0);
}

// In-sample: the GEMM share of megatron-2021 is fitted on these rows and Korthikanti's (0.90, was 0.94 with the
// earlier model; tests/engine/loso_test.cpp holds each source out). With the slowdown of kernels under hidden
// traffic and the grouped all-to-all charged, the worst Table 1 row is −12.0 % (GPT-18.4B, tp 8 on 256 GPUs).
TEST(Calibration, NarayananTable1ThroughputPerGpuWithinTwelvePointFivePercentOnEveryRow) {
  check_narayanan(true, 0.125);
}

TEST(Calibration, NarayananTable2ThroughputPerGpuWithinTenPercentOnEveryRow) { check_narayanan(false, 0.10); }

/// Rows with a "request": a published run of the H100 generation, measured in tokens/s per GPU. Both MFUs use the
/// engine's own FLOPs per token (the request's `attention` convention) and the BF16 dense peak, so the error in MFU
/// points is the throughput error scaled by the MFU. Rows that need a field this engine does not take yet (listed in
/// "needs": other cost-model work) are refused and skipped, said so in the table; once the field exists they run.
TEST(Calibration, PublishedHopperAndBlackwellRunsPerRowTable) {
  std::vector<double> dense, moe;
  int skipped = 0;
  std::printf("  %-16s %-9s %-29s %-5s %9s %9s %7s\n", "model", "hw", "software", "prec", "measured", "predicted",
              "error");
  for (const json& row : rows()) {
    if (!row.contains("request")) continue;
    json request = row["request"];
    request["op"] = "step";
    const json r = json::parse(parascope::call(request.dump()));
    const std::string label = row["run"].get<std::string>();
    if (r.contains("error")) {
      // A row that needs another field is refused until that field exists: as unknown_field, or (MoE folding) by
      // the rule the field relaxes. Any other refusal is a broken row.
      EXPECT_TRUE(row.contains("needs")) << label << ": " << r.dump();
      std::printf("  %-16s %-9s %-29s skipped: needs %s (%s)\n", label.c_str(), row["hw"].get<std::string>().c_str(),
                  row["software_version"].get<std::string>().c_str(), row.value("needs", json::array()).dump().c_str(),
                  r["error"]["code"].get<std::string>().c_str());
      ++skipped;
      continue;
    }
    const double gpus = row["gpus"];
    const json hw = json::parse(parascope::call(R"({"op":"presets"})"))["hardware"];
    double peak = 0;
    for (const json& h : hw) {
      if (h["id"] == row["hw"]) peak = h["peak_flops"];
    }
    ASSERT_GT(peak, 0) << label;
    const double measured =
        r["flops_per_token"].get<double>() * row["measured_tokens_per_s_per_gpu"].get<double>() / peak;
    const double predicted = r["mfu"];
    const double error = 100 * (predicted - measured);
    const bool is_moe = request["model"].is_object() && request["model"].value("experts", 1) > 1;
    (is_moe ? moe : dense).push_back(std::fabs(error));
    std::printf("  %-16s %-9s %-29s %-5s %8.1f%% %8.1f%% %+6.1f%s\n", label.c_str(),
                row["hw"].get<std::string>().c_str(), row["software_version"].get<std::string>().c_str(),
                row["precision"].get<std::string>().c_str(), 100 * measured, 100 * predicted, error,
                is_moe ? "  (MoE)" : "");
    (void)gpus;
  }
  auto median = [](std::vector<double> v) {
    std::sort(v.begin(), v.end());
    return v.empty() ? 0.0 : v.size() % 2 ? v[v.size() / 2] : (v[v.size() / 2 - 1] + v[v.size() / 2]) / 2;
  };
  std::vector<double> all = dense;
  all.insert(all.end(), moe.begin(), moe.end());
  std::printf(
      "  |MFU error| in points: dense median %.1f, worst %.1f; MoE median %.1f, worst %.1f; all median %.1f; "
      "%d rows skipped (need fields the engine does not read)\n",
      median(dense), dense.empty() ? 0 : *std::max_element(dense.begin(), dense.end()), median(moe),
      moe.empty() ? 0 : *std::max_element(moe.begin(), moe.end()), median(all), skipped);
  EXPECT_GE(dense.size() + moe.size() + skipped, 15u);
  // In-sample (these rows fit megatron-core's GEMM share, 0.90; their held-out errors are tests/engine/loso_test.cpp's:
  // NeMo 24.07 median 3.0 points, Megatron-Bridge 2.8): dense median 2.7, worst 9.3; MoE median 4.4, worst 6.7; all
  // median 2.9. The bounds hold that state so that a change that makes it worse fails. Before issue 24 (share 0.94,
  // no slowdown under hidden traffic, all-to-all latency per peer): dense median 3.2, worst 7.9, all median 3.6.
  EXPECT_LE(median(dense), 3.5);
  // Worst dense row: GPT-3 175B on 512 H100s (NeMo 24.07), −9.3 points: the engine is below the measurement there
  // since hidden communication slows the kernels it hides behind (overlap_slowdown, engine/API.md "Overlap").
  EXPECT_LE(*std::max_element(dense.begin(), dense.end()), 9.5);
  EXPECT_LE(median(moe), 5.0);
  // Worst MoE row: Qwen3-30B-A3B on H100 (FP8 current scaling, pp 2 × vpp 24), +6.7 points; +14.0 before the
  // dropless host wait counted the kernels each FP8 recipe issues per expert (engine/API.md, Kernels).
  EXPECT_LE(*std::max_element(moe.begin(), moe.end()), 7.0);
  EXPECT_LE(median(all), 4.0);
  EXPECT_LE(*std::max_element(all.begin(), all.end()), 9.5);
}

}  // namespace
