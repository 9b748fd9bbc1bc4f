// Context parallelism step by step (context_ring op) against its closed forms: zig-zag balance, cp − 1 K/V transfers,
// exposed = Σ max(0, transfer − compute), the all-gather's bytes, and the same exposed time step charges.
#include "../../engine/src/context_ring.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <nlohmann/json.hpp>
#include <string>

#include "step_request.hpp"

namespace {

using nlohmann::json;
using namespace parascope::detail;

/// A preset model's shape with its training context set to `seq` tokens.
json model_with_seq(const std::string& id, std::int64_t seq) {
  const json presets = step_request::ask({{"op", "presets"}});
  for (const json& m : presets["models"]) {
    if (m["id"] != id) continue;
    json out = m;
    out.erase("derived");
    out["seq"] = seq;
    return out;
  }
  ADD_FAILURE() << "no model " << id;
  return json::object();
}

json ring_request(const json& model, std::int64_t gpus, const json& parallel, const std::string& op = "context_ring") {
  return {
      {"op", op}, {"model", model}, {"hardware", "h100-sxm"}, {"cluster", {{"gpus", gpus}}}, {"parallel", parallel}};
}

TEST(ContextRing, ZigZagGivesEveryGpuTwoBlocksAtEveryStep) {
  for (std::int64_t cp = 2; cp <= 16; ++cp) {
    for (std::int64_t g = 0; g < cp; ++g) {
      for (std::int64_t i = 0; i < cp; ++i) EXPECT_EQ(ring_blocks(cp, g, i, true, true), 2.0) << cp << " " << g;
    }
  }
}

TEST(ContextRing, ContiguousChunksLoadGpuRWithFourRPlusTwoBlocks) {
  // GPU r holds chunks 2r and 2r + 1: (2r + ½) + (2r + 1 + ½) blocks over the pass; the total is (2cp)²/2 either way.
  for (std::int64_t cp = 2; cp <= 16; ++cp) {
    double total = 0, ring = 0;
    for (std::int64_t g = 0; g < cp; ++g) {
      double blocks = 0;
      for (std::int64_t i = 0; i < cp; ++i) blocks += ring_blocks(cp, g, i, false, true);
      EXPECT_EQ(blocks, double(4 * g + 2));
      total += blocks;
    }
    for (std::int64_t i = 0; i < cp; ++i) {
      double most = 0;
      for (std::int64_t g = 0; g < cp; ++g) most = std::max(most, ring_blocks(cp, g, i, false, true));
      ring += most;
    }
    EXPECT_EQ(total, double(2 * cp * cp));
    EXPECT_EQ(ring, double(2 + 4 * (cp - 1)));  // the diagonal step, then a GPU with a whole earlier pair each step
  }
}

TEST(ContextRing, AnUnfusedKernelComputesEveryBlockWhole) {
  for (std::int64_t i = 0; i < 4; ++i) EXPECT_EQ(ring_blocks(4, 1, i, true, false), 4.0);
}

TEST(ContextRing, RingExposesWhatEachOfItsCpMinusOneTransfersExceedsItsStep) {
  EXPECT_EQ(ring_exposed(4, 2.0, 1.0), 3.0);
  EXPECT_EQ(ring_exposed(4, 1.0, 2.0), 0.0);
  EXPECT_EQ(ring_exposed(1, 5.0, 0.0), 0.0);
}

TEST(ContextRing, StepsMatchTheClosedFormsAndStepsOwnExposedTime) {
  const json model = model_with_seq("llama3-8b", 32768);
  const json parallel = {{"tp", 2}, {"cp", 4}, {"global_batch", 8}};
  const json r = step_request::ask(ring_request(model, 64, parallel));
  ASSERT_FALSE(r.contains("error")) << r.dump();
  const json step = step_request::ask(ring_request(model, 64, parallel, "step"));
  ASSERT_FALSE(step.contains("error")) << step.dump();
  // The same number as step's breakdown, bit for bit: one pricing.
  EXPECT_EQ(r["p2p"]["exposed_per_step"].get<double>(), step["breakdown"]["cp_comm"].get<double>());

  const std::int64_t cp = 4, tp = 2, seq = 32768;
  const double heads = model["heads"], kv_heads = model["kv_heads"], head_dim = model["head_dim"];
  const double c = double(seq) / double(2 * cp);
  EXPECT_EQ(r["chunk_tokens"].get<double>(), c);
  EXPECT_NEAR(r["block_flops"].get<double>(), 2.0 * c * c * heads * 2.0 * head_dim / double(tp), 1.0);
  const double kv = 2.0 * double(seq / cp) * kv_heads * head_dim * 2.0 / double(tp);
  EXPECT_EQ(r["kv_bytes"].get<double>(), kv);

  for (const char* pass : {"forward", "backward"}) {
    const json& p = r["p2p"][pass];
    ASSERT_EQ(p["steps"].size(), std::size_t(cp));
    double exposed = 0, bytes = 0;
    int transfers = 0;
    for (const json& s : p["steps"]) {
      transfers += s["transfer_bytes"].get<double>() > 0;
      bytes += s["transfer_bytes"].get<double>();
      exposed += std::max(0.0, s["transfer_time"].get<double>() - s["compute_time"].get<double>());
    }
    EXPECT_EQ(transfers, cp - 1) << pass;  // the last step receives nothing
    EXPECT_EQ(bytes, double(cp - 1) * kv * (std::string(pass) == "forward" ? 1.0 : 2.0)) << pass;
    EXPECT_NEAR(p["exposed"].get<double>(), exposed, 1e-15) << pass;
  }
  // Every GPU the same FLOPs under zig-zag; the contiguous split's busiest GPU (2cp − 1)/cp of the mean.
  for (const json& g : r["gpus"]) EXPECT_EQ(g["zigzag_blocks"].get<double>(), double(2 * cp));
  EXPECT_EQ(r["balance"]["zigzag_max_over_mean"].get<double>(), 1.0);
  EXPECT_DOUBLE_EQ(r["balance"]["contiguous_max_over_mean"].get<double>(), double(2 * cp - 1) / double(cp));
  // The all-gather moves the same bytes as the ring's cp − 1 forward steps: (cp − 1)(α + kv/B) either way.
  EXPECT_NEAR(r["all_gather"]["gather_time"].get<double>(), r["p2p"]["forward"]["transfer_time"].get<double>(), 1e-12);
  EXPECT_EQ(r["all_gather"]["gathered_bytes"].get<double>(), double(cp) * kv);
  // FlashAttention keeps no s² term: a GPU keeps 1/cp of the activations.
  EXPECT_NEAR(r["activations"]["per_layer"].get<double>() * double(cp),
              r["activations"]["per_layer_without_cp"].get<double>(), 1e-6);
}

TEST(ContextRing, BreakEvenIsWhereAStepsComputeMeetsItsTransfer) {
  const json model = model_with_seq("llama3-70b", 8192);
  const json r = step_request::ask(ring_request(model, 64, {{"tp", 8}, {"cp", 8}, {"global_batch", 8}}));
  ASSERT_FALSE(r.contains("error")) << r.dump();
  const json& s = r["p2p"]["forward"]["steps"][0];
  const double compute = s["compute_time"], transfer = s["transfer_time"];
  const double latency = r["link"]["latency"], kv = r["kv_bytes"];
  // Compute grows with the chunk's square, the transfer with its length: P·x² = α + K·x at x = sequence / seq.
  const double x = r["break_even"]["sequence"].get<double>() / 8192.0;
  EXPECT_NEAR(compute * x * x, latency + (transfer - latency) * x, 1e-9 * compute * x * x);
  const double bandwidth = r["break_even"]["bandwidth"];
  if (compute > latency) EXPECT_NEAR(latency + kv / bandwidth, compute, 1e-12 * compute);
}

TEST(ContextRing, ASlowLinkExposesEachStepsExcessNotTheWholeRingsExcess) {
  // cp across nodes (tp 8 fills a node) at a short sequence: each transfer outlasts its step's compute, and the
  // exposed time is (cp − 1)·(T − A/cp), more than the whole ring's max(0, (cp − 1)·T − A).
  const json model = model_with_seq("llama3-8b", 4096);
  const json r = step_request::ask(ring_request(model, 64, {{"tp", 8}, {"cp", 8}, {"global_batch", 8}}));
  ASSERT_FALSE(r.contains("error")) << r.dump();
  const json& f = r["p2p"]["forward"];
  const double t = f["steps"][0]["transfer_time"], a = f["steps"][0]["compute_time"];
  ASSERT_GT(t, a);
  EXPECT_NEAR(f["exposed"].get<double>(), 7.0 * (t - a), 1e-15);
  EXPECT_GT(f["exposed"].get<double>(), std::max(0.0, 7.0 * t - 8.0 * a));
  EXPECT_TRUE(r["link"]["crosses_nodes"].get<bool>());
}

TEST(ContextRing, RefusesAGroupItCannotLayOut) {
  const json model = model_with_seq("llama3-8b", 8192);
  json r = step_request::ask(ring_request(model, 8, {{"tp", 8}, {"global_batch", 8}}));
  EXPECT_EQ(r["error"]["code"], "out_of_range");
  EXPECT_EQ(r["error"]["field"], "parallel.cp");
  r = step_request::ask(ring_request(model, 128, {{"cp", 128}, {"global_batch", 8}}));
  EXPECT_EQ(r["error"]["field"], "parallel.cp");
  json bad = ring_request(model, 16, {{"tp", 8}, {"cp", 2}, {"global_batch", 8}});
  bad["variant"] = "ring";
  r = step_request::ask(bad);
  EXPECT_EQ(r["error"]["code"], "unknown_field");
}

}  // namespace
