// Context parallelism step by step (context_ring op) against its closed forms: zig-zag balance, cp − 1 K/V transfers,
// exposed = Σ max(0, transfer − compute), the all-gather's bytes, and the same exposed time step charges.
#include "../../engine/src/context_ring.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

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

TEST(ContextRing, TheBusiestGpuSetsEachContiguousStepAtTwoThenFourBlocks) {
  // Contiguous chunks (Liu et al. 2023's ring as first written): at step 0 every GPU its own diagonal pair (2 blocks),
  // then the GPUs r ≥ i a whole earlier pair (4) and the others nothing; zig-zag 2 everywhere; unfused 4 everywhere.
  for (std::int64_t cp = 2; cp <= 16; ++cp) {
    const std::vector<double> contiguous = busiest_blocks_per_step(cp, false, true);
    ASSERT_EQ(contiguous.size(), std::size_t(cp));
    for (std::int64_t i = 0; i < cp; ++i) {
      EXPECT_EQ(contiguous[std::size_t(i)], i == 0 ? 2.0 : 4.0) << cp << " " << i;
      EXPECT_EQ(busiest_blocks_per_step(cp, true, true)[std::size_t(i)], 2.0);
      EXPECT_EQ(busiest_blocks_per_step(cp, false, false)[std::size_t(i)], 4.0);
    }
  }
}

TEST(ContextRing, ContiguousStepsAndTheAllGathersComputeMatchTheirClosedForms) {
  // t_b = one block's time = a zig-zag step's compute / 2. Contiguous ring: step 0 2·t_b, later steps 4·t_b, the
  // same transfers, exposed Σ_{i<cp−1} max(0, T − C_i). All-gather (Dubey et al. 2024 Sec. 3.3.2): the busiest GPU's
  // blocks over the pass, 2cp zig-zag (= the ring's compute), 4cp − 2 contiguous; the backward twice.
  for (const std::int64_t seq : {4096, 32768, 131072}) {
    const json model = model_with_seq("llama3-8b", seq);
    const std::int64_t cp = 8;
    const json r = step_request::ask(ring_request(model, 64, {{"tp", 8}, {"cp", cp}, {"global_batch", 8}}));
    ASSERT_FALSE(r.contains("error")) << r.dump();
    for (const char* pass : {"forward", "backward"}) {
      const json& zig = r["p2p"][pass];
      const json& con = r["p2p"]["contiguous"][pass];
      const double c = zig["steps"][0]["compute_time"], t = zig["steps"][0]["transfer_time"];
      const double tb = c / 2.0;
      ASSERT_EQ(con["steps"].size(), std::size_t(cp));
      double exposed = 0;
      for (std::int64_t i = 0; i < cp; ++i) {
        const json& s = con["steps"][std::size_t(i)];
        const double ci = (i == 0 ? 2.0 : 4.0) * tb;
        EXPECT_NEAR(s["compute_time"].get<double>(), ci, 1e-12 * ci) << seq << pass << i;
        EXPECT_DOUBLE_EQ(s["compute_flops"].get<double>(),
                         (i == 0 ? 1.0 : 2.0) * zig["steps"][0]["compute_flops"].get<double>());
        EXPECT_EQ(s["transfer_time"].get<double>(), i < cp - 1 ? t : 0.0);
        EXPECT_EQ(s["transfer_bytes"].get<double>(), zig["steps"][std::size_t(i)]["transfer_bytes"].get<double>());
        if (i < cp - 1) exposed += std::max(0.0, t - ci);
      }
      EXPECT_NEAR(con["exposed"].get<double>(), exposed, 1e-12 * (exposed + t)) << seq << pass;
      EXPECT_NEAR(con["compute_time"].get<double>(), double(4 * cp - 2) * tb, 1e-12 * c * double(cp)) << seq << pass;
    }
    const json& ag = r["all_gather"];
    const double ring_compute = r["p2p"]["forward"]["compute_time"];
    const double tb = r["p2p"]["forward"]["steps"][0]["compute_time"].get<double>() / 2.0;
    EXPECT_NEAR(ag["forward_compute_time"].get<double>(), ring_compute, 1e-12 * ring_compute);
    EXPECT_NEAR(ag["backward_compute_time"].get<double>(), r["p2p"]["backward"]["compute_time"].get<double>(),
                1e-12 * ring_compute);
    EXPECT_NEAR(ag["contiguous_forward_compute_time"].get<double>(), double(4 * cp - 2) * tb, 1e-12 * ring_compute);
    EXPECT_DOUBLE_EQ(ag["contiguous_backward_compute_time"].get<double>(),
                     2.0 * ag["contiguous_forward_compute_time"].get<double>());
    EXPECT_EQ(r["p2p"]["contiguous"]["recomputed_exposed"].get<double>(), 0.0);
  }
}

TEST(ContextRing, ContiguousEqualsZigZagWhenTheKernelComputesEveryBlock) {
  json model = model_with_seq("llama3-8b", 16384);
  json request = ring_request(model, 64, {{"tp", 8}, {"cp", 4}, {"global_batch", 8}, {"recompute", "full"}});
  request["efficiency"] = {{"flash_attention", false}};
  const json r = step_request::ask(request);
  ASSERT_FALSE(r.contains("error")) << r.dump();
  for (const char* pass : {"forward", "backward"}) {
    for (std::size_t i = 0; i < 4; ++i) {
      EXPECT_EQ(r["p2p"]["contiguous"][pass]["steps"][i]["compute_time"], r["p2p"][pass]["steps"][i]["compute_time"]);
    }
  }
  EXPECT_DOUBLE_EQ(r["all_gather"]["contiguous_forward_compute_time"].get<double>(),
                   r["all_gather"]["forward_compute_time"].get<double>());
  // Full recomputation runs the contiguous forward ring again, as it does the zig-zag one.
  EXPECT_EQ(r["p2p"]["contiguous"]["recomputed_exposed"], r["p2p"]["contiguous"]["forward"]["exposed"]);
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
