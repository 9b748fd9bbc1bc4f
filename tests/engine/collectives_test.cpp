// Collectives: the ring trace really sums, each cost matches its closed form, and bad requests are refused by field.
#include "parascope/collectives.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <nlohmann/json.hpp>

#include "parascope/api.hpp"

namespace {

using nlohmann::json;
using namespace parascope;

const Link kNvlink{450e9, 3.4e-6};
const Link kInfiniband{50e9, 14e-6};

json call(const json& request) { return json::parse(parascope::call(request.dump())); }

json refusal(json request) {
  json r = call(request);
  EXPECT_TRUE(r.contains("error")) << r.dump();
  return r.contains("error") ? r["error"] : json::object();
}

// ---- the trace ----

TEST(RingTrace, EveryGpuEndsWithTheExactSumOfEveryChunkForOneToSixtyFourGpus) {
  for (std::int64_t n = 1; n <= kMaxTraceGpus; ++n) {
    const RingTrace t = ring_allreduce_trace(n);
    const auto& last = t.rounds.empty() ? t.initial : t.rounds.back().buffers;
    for (std::int64_t c = 0; c < n; ++c) {
      std::int64_t sum = 0;
      for (std::int64_t g = 0; g < n; ++g) sum += ring_trace_initial_value(g, c);
      EXPECT_EQ(sum, n * (n + 1) / 2 + n * c);
      for (std::int64_t g = 0; g < n; ++g) ASSERT_EQ(last[g][c], sum) << "N=" << n << " gpu " << g << " chunk " << c;
    }
  }
}

TEST(RingTrace, HasTwoNMinusOneRoundsEachGpuSendingOneChunkToItsClockwiseNeighbour) {
  for (std::int64_t n = 1; n <= kMaxTraceGpus; ++n) {
    const RingTrace t = ring_allreduce_trace(n);
    ASSERT_EQ(std::int64_t(t.rounds.size()), 2 * (n - 1));
    for (std::size_t r = 0; r < t.rounds.size(); ++r) {
      const RingRound& round = t.rounds[r];
      EXPECT_EQ(round.phase, std::int64_t(r) < n - 1 ? RingPhase::scatter_reduce : RingPhase::all_gather);
      ASSERT_EQ(std::int64_t(round.transfers.size()), n);
      std::vector<int> sends(std::size_t(n), 0), receives(std::size_t(n), 0);
      for (const RingTransfer& x : round.transfers) {
        EXPECT_EQ(x.to, (x.from + 1) % n);
        EXPECT_GE(x.chunk, 0);
        EXPECT_LT(x.chunk, n);
        sends[std::size_t(x.from)] += 1;
        receives[std::size_t(x.to)] += 1;
      }
      for (std::int64_t g = 0; g < n; ++g) {
        EXPECT_EQ(sends[std::size_t(g)], 1);
        EXPECT_EQ(receives[std::size_t(g)], 1);
      }
    }
  }
}

TEST(RingTrace, ScatterReduceAddsInAndAllGatherOverwritesOnlyTheReceivedCell) {
  const std::int64_t n = 6;
  const RingTrace t = ring_allreduce_trace(n);
  auto before = t.initial;
  for (const RingRound& round : t.rounds) {
    auto expected = before;
    for (const RingTransfer& x : round.transfers) {
      const std::int64_t sent = before[x.from][x.chunk];
      auto& cell = expected[x.to][x.chunk];
      cell = round.phase == RingPhase::scatter_reduce ? cell + sent : sent;
    }
    EXPECT_EQ(round.buffers, expected);
    before = round.buffers;
  }
}

TEST(RingTrace, AfterScatterReduceGpuGOwnsTheFullSumOfChunkGPlusOne) {
  const std::int64_t n = 5;
  const RingTrace t = ring_allreduce_trace(n);
  const auto& mid = t.rounds[std::size_t(n - 2)].buffers;
  for (std::int64_t g = 0; g < n; ++g) {
    const std::int64_t c = (g + 1) % n;
    EXPECT_EQ(mid[g][c], n * (n + 1) / 2 + n * c);
  }
}

// ---- costs against their closed forms ----

TEST(RingAllreduce, MatchesTwoNMinusOneAlphaPlusTwoNMinusOneOverNTimesSOverB) {
  // Patarasuk & Yuan 2009: 2(N-1)·alpha + 2(N-1)/N · S/B.
  for (std::int64_t n : {2, 3, 4, 8, 64, 1000, 16384}) {
    const double s = 1.5e9;
    const CollectiveCost c = ring_allreduce(n, s, kNvlink);
    const double expected = 2.0 * (n - 1) * 3.4e-6 + 2.0 * (n - 1) / n * s / 450e9;
    EXPECT_DOUBLE_EQ(c.time, expected);
    EXPECT_EQ(c.steps, 2 * (n - 1));
    EXPECT_DOUBLE_EQ(c.bytes_sent_per_gpu, 2.0 * (n - 1) / n * s);
    EXPECT_DOUBLE_EQ(c.algbw, s / expected);
    EXPECT_DOUBLE_EQ(c.busbw, s / expected * 2.0 * (n - 1) / n);  // nccl-tests PERFORMANCE.md
  }
}

TEST(RingAllreduce, BusBandwidthEqualsTheLinkBandwidthWhenLatencyIsZero) {
  // The point of nccl-tests' busbw: with no latency it is the link speed, whatever N.
  for (std::int64_t n : {2, 7, 512}) EXPECT_NEAR(ring_allreduce(n, 1e9, {100e9, 0}).busbw, 100e9, 1e-3);
}

TEST(TreeAllreduce, MatchesNcclsTuningModelTwoLog2NAlphaPlusTwoSOverB) {
  for (std::int64_t n : {2, 3, 8, 1000, 16384}) {
    const CollectiveCost c = tree_allreduce(n, 1e8, kInfiniband);
    const std::int64_t levels = std::int64_t(std::floor(std::log2(double(n))));
    EXPECT_EQ(c.steps, 2 * levels);
    EXPECT_DOUBLE_EQ(c.time, 2.0 * levels * 14e-6 + 2.0 * 1e8 / 50e9);
    EXPECT_DOUBLE_EQ(c.busbw, 1e8 / c.time * 2.0 * (n - 1) / n);
  }
}

TEST(TreeAllreduce, BeatsTheRingOnSmallMessagesAtScaleAndLosesOnLargeOnesAtFewGpus) {
  EXPECT_LT(tree_allreduce(16384, 1e6, kInfiniband).time, ring_allreduce(16384, 1e6, kInfiniband).time);
  EXPECT_GT(tree_allreduce(8, 1e9, kInfiniband).time, ring_allreduce(8, 1e9, kInfiniband).time);
}

TEST(HierarchicalAllreduce, IsReduceScatterInNodePlusAllreduceOfAShardAcrossNodesPlusAllGatherInNode) {
  const std::int64_t n = 64, g = 8, nodes = 8;
  const double s = 4e9;
  const CollectiveCost c = hierarchical_allreduce(n, g, s, kNvlink, kInfiniband);
  const double expected = 2.0 * (g - 1) * 3.4e-6 + 2.0 * (g - 1) / g * s / 450e9 + 2.0 * (nodes - 1) * 14e-6 +
                          2.0 * (nodes - 1) / nodes * (s / g) / 50e9;
  EXPECT_DOUBLE_EQ(c.time, expected);
  EXPECT_EQ(c.steps, 2 * (g - 1) + 2 * (nodes - 1));
  EXPECT_DOUBLE_EQ(c.bytes_sent_per_gpu, 2.0 * (g - 1) / g * s + 2.0 * (nodes - 1) / nodes * s / g);
  EXPECT_DOUBLE_EQ(c.busbw, s / expected * 2.0 * (n - 1) / n);
}

TEST(HierarchicalAllreduce, OneNodeIsTheIntraRingAndOneGpuPerNodeIsTheInterRing) {
  EXPECT_DOUBLE_EQ(hierarchical_allreduce(8, 8, 1e9, kNvlink, kInfiniband).time, ring_allreduce(8, 1e9, kNvlink).time);
  EXPECT_DOUBLE_EQ(hierarchical_allreduce(4, 8, 1e9, kNvlink, kInfiniband).time, ring_allreduce(4, 1e9, kNvlink).time);
  EXPECT_DOUBLE_EQ(hierarchical_allreduce(32, 1, 1e9, kNvlink, kInfiniband).time,
                   ring_allreduce(32, 1e9, kInfiniband).time);
}

TEST(HierarchicalAllreduce, BeatsTheFlatRingOverTheNetworkAt16384Gpus) {
  const double s = 1e9;
  EXPECT_LT(hierarchical_allreduce(16384, 8, s, kNvlink, kInfiniband).time, ring_allreduce(16384, s, kInfiniband).time);
}

TEST(OnePassCollectives, MatchNMinusOneAlphaPlusNMinusOneOverNTimesSOverB) {
  for (std::int64_t n : {2, 5, 8, 4096}) {
    const double s = 3e8;
    const double expected = (n - 1) * 14e-6 + double(n - 1) / n * s / 50e9;
    for (const CollectiveCost& c : {ring_allgather(n, s, kInfiniband), ring_reducescatter(n, s, kInfiniband)}) {
      EXPECT_DOUBLE_EQ(c.time, expected);
      EXPECT_EQ(c.steps, n - 1);
      EXPECT_DOUBLE_EQ(c.bytes_sent_per_gpu, double(n - 1) / n * s);
      EXPECT_DOUBLE_EQ(c.busbw, s / expected * double(n - 1) / n);  // nccl-tests PERFORMANCE.md
    }
  }
}

TEST(AllToAll, PaysOneLatencyPerBatchOfEightPeersAsNcclGroupsThem) {
  // NCCL moves up to 8 peers of a grouped send/receive at once (NCCL_MAX_DEV_WORK_P2P_PER_BATCH): ⌈(N−1)/8⌉ steps.
  for (const auto& [n, batches] : {std::pair<std::int64_t, std::int64_t>{2, 1}, {8, 1}, {9, 1}, {10, 2}, {4096, 512}}) {
    const double s = 3e8;
    const double expected = double(batches) * 14e-6 + double(n - 1) / n * s / 50e9;
    const CollectiveCost c = alltoall(n, s, kInfiniband);
    EXPECT_DOUBLE_EQ(c.time, expected) << n;
    EXPECT_EQ(c.steps, batches) << n;
    EXPECT_EQ(p2p_batches(n - 1), batches) << n;
    EXPECT_DOUBLE_EQ(c.bytes_sent_per_gpu, double(n - 1) / n * s);
    EXPECT_DOUBLE_EQ(c.busbw, s / expected * double(n - 1) / n);
  }
  // 128 experts' ranks over the network: 16 latencies, not the 127 a sequence of pairwise rounds would pay.
  EXPECT_EQ(alltoall(128, 1e6, kInfiniband).steps, 16);
}

TEST(Collectives, OneGpuCostsNothing) {
  for (const CollectiveCost& c :
       {ring_allreduce(1, 1e9, kNvlink), tree_allreduce(1, 1e9, kNvlink),
        hierarchical_allreduce(1, 8, 1e9, kNvlink, kInfiniband), ring_allgather(1, 1e9, kNvlink),
        ring_reducescatter(1, 1e9, kNvlink), alltoall(1, 1e9, kNvlink)}) {
    EXPECT_EQ(c.time, 0);
    EXPECT_EQ(c.algbw, 0);
    EXPECT_EQ(c.busbw, 0);
    EXPECT_EQ(c.bytes_sent_per_gpu, 0);
    EXPECT_EQ(c.steps, 0);
  }
}

TEST(Collectives, AMillionGpusGiveFiniteCosts) {
  const CollectiveCost c = hierarchical_allreduce(1'000'000, 8, 1e18, kNvlink, kInfiniband);
  EXPECT_TRUE(std::isfinite(c.time));
  EXPECT_GT(c.time, 0);
  EXPECT_TRUE(std::isfinite(tree_allreduce(1'000'000, 1e18, kInfiniband).busbw));
}

// ---- the JSON ops ----

TEST(AllreduceOp, AnswersWithThePresetsLinkAndTheSameNumbersAsTheFunction) {
  json r = call({{"op", "allreduce"},
                 {"algorithm", "ring"},
                 {"gpus", 8},
                 {"bytes", 1e9},
                 {"link", "h100-sxm"},
                 {"link_kind", "inter"}});
  const CollectiveCost c = ring_allreduce(8, 1e9, kInfiniband);
  EXPECT_DOUBLE_EQ(r["time"].get<double>(), c.time);
  EXPECT_DOUBLE_EQ(r["busbw"].get<double>(), c.busbw);
  EXPECT_EQ(r["steps"].get<std::int64_t>(), 14);
  EXPECT_EQ(r["link"]["name"], "InfiniBand NDR 400 Gb/s");
  EXPECT_FALSE(r.contains("rounds"));
}

TEST(AllreduceOp, HierarchicalTakesThePresetsNodeSizeUnlessGiven) {
  json r =
      call({{"op", "allreduce"}, {"algorithm", "hierarchical"}, {"gpus", 64}, {"bytes", 1e9}, {"link", "h100-sxm"}});
  EXPECT_EQ(r["gpus_per_node"], 8);
  EXPECT_DOUBLE_EQ(r["time"].get<double>(), hierarchical_allreduce(64, 8, 1e9, kNvlink, kInfiniband).time);
  json explicit_links = call({{"op", "allreduce"},
                              {"algorithm", "hierarchical"},
                              {"gpus", 64},
                              {"bytes", 1e9},
                              {"intra_bandwidth", 450e9},
                              {"intra_latency", 3.4e-6},
                              {"inter_bandwidth", 50e9},
                              {"inter_latency", 14e-6},
                              {"gpus_per_node", 8}});
  EXPECT_EQ(explicit_links["time"], r["time"]);
}

TEST(AllreduceOp, TraceReportsRoundsTransfersAndBuffersThatEndWithTheSum) {
  json r = call({{"op", "allreduce"},
                 {"algorithm", "ring"},
                 {"gpus", 4},
                 {"bytes", 4096},
                 {"bandwidth", 1e9},
                 {"latency", 0},
                 {"trace", true}});
  ASSERT_EQ(r["rounds"].size(), 6u);
  EXPECT_EQ(r["chunk_bytes"], 1024.0);
  EXPECT_EQ(r["rounds"][0]["phase"], "scatter-reduce");
  EXPECT_EQ(r["rounds"][3]["phase"], "all-gather");
  EXPECT_EQ(r["rounds"][0]["transfers"][3], json({{"from", 3}, {"to", 0}, {"chunk", 3}}));
  EXPECT_EQ(r["rounds"][5]["buffers"], json({{10, 14, 18, 22}, {10, 14, 18, 22}, {10, 14, 18, 22}, {10, 14, 18, 22}}));
}

TEST(AllreduceOp, RefusesBadRequestsNamingTheField) {
  const json ok = {{"op", "allreduce"}, {"algorithm", "ring"}, {"gpus", 8},
                   {"bytes", 1e6},      {"bandwidth", 1e9},    {"latency", 1e-6}};
  auto with = [&](const char* key, json value) {
    json r = ok;
    r[key] = std::move(value);
    return refusal(r);
  };
  auto without = [&](const char* key) {
    json r = ok;
    r.erase(key);
    return refusal(r);
  };
  EXPECT_EQ(with("gpus", 0)["code"], "out_of_range");
  EXPECT_EQ(with("gpus", 2.5)["code"], "not_integer");
  EXPECT_EQ(with("gpus", 1'000'001)["code"], "out_of_range");
  EXPECT_EQ(with("bytes", 0)["code"], "out_of_range");
  EXPECT_EQ(with("bytes", -1)["field"], "bytes");
  EXPECT_EQ(with("bytes", "lots")["code"], "wrong_type");
  EXPECT_EQ(with("algorithm", "butterfly")["code"], "invalid_value");
  EXPECT_EQ(with("bandwidth", 0)["field"], "bandwidth");
  EXPECT_EQ(with("latency", -1e-6)["code"], "out_of_range");
  EXPECT_EQ(with("trace", "yes")["code"], "wrong_type");
  EXPECT_EQ(with("link", "h100-sxm")["code"], "conflicting_fields");
  EXPECT_EQ(with("gpus_per_node", 8)["code"], "conflicting_fields");
  EXPECT_EQ(with("colour", "red")["code"], "unknown_field");
  EXPECT_EQ(without("algorithm")["code"], "missing_field");
  EXPECT_EQ(without("latency")["field"], "latency");
  json no_link = ok;
  no_link.erase("bandwidth");
  no_link.erase("latency");
  EXPECT_EQ(refusal(no_link)["field"], "link");
  // JSON has no NaN or infinity: a number too large for a double is refused at parsing.
  json huge = json::parse(
      parascope::call(R"({"op":"allreduce","algorithm":"ring","gpus":8,"bytes":1e999,"bandwidth":1e9,"latency":0})"));
  EXPECT_EQ(huge["error"]["code"], "invalid_json");
}

TEST(AllreduceOp, RefusesAPresetWithoutLinkKindAndAnUnknownPreset) {
  json base = {{"op", "allreduce"}, {"algorithm", "tree"}, {"gpus", 8}, {"bytes", 1e6}, {"link", "h100-sxm"}};
  EXPECT_EQ(refusal(base)["field"], "link_kind");
  base["link_kind"] = "sideways";
  EXPECT_EQ(refusal(base)["code"], "invalid_value");
  base["link_kind"] = "intra";
  base["link"] = "h900";
  EXPECT_EQ(refusal(base)["code"], "unknown_preset");
}

TEST(FlatCollectives, RefuseAnIntraNodeLinkForMoreGpusThanANodeHolds) {
  // An H100 node holds 8 GPUs: a 16-GPU ring cannot run on NVLink alone; it crosses the network.
  for (const char* op : {"allreduce", "allgather", "reducescatter", "alltoall"}) {
    json r = {{"op", op}, {"gpus", 8}, {"bytes", 1e6}, {"link", "h100-sxm"}, {"link_kind", "intra"}};
    if (std::string(op) == "allreduce") r["algorithm"] = "ring";
    EXPECT_FALSE(call(r).contains("error")) << op;
    r["gpus"] = 9;
    const json e = refusal(r);
    EXPECT_EQ(e["code"], "inconsistent") << op;
    EXPECT_EQ(e["field"], "link_kind") << op;
    EXPECT_EQ(e["message"],
              "link_kind \"intra\" joins the accelerators of one node: h100-sxm has 8 per node, so 9 span nodes and "
              "cross the network (link_kind \"inter\")");
    r["link_kind"] = "inter";
    EXPECT_FALSE(call(r).contains("error")) << op;
  }
  // A TPU v4 host holds 4 chips.
  EXPECT_EQ(refusal({{"op", "allreduce"},
                     {"algorithm", "tree"},
                     {"gpus", 5},
                     {"bytes", 1e6},
                     {"link", "tpu-v4"},
                     {"link_kind", "intra"}})["field"],
            "link_kind");
}

TEST(AllreduceOp, RefusesTraceBeyondSixtyFourGpusAndForOtherAlgorithms) {
  json r = {{"op", "allreduce"}, {"algorithm", "ring"}, {"gpus", 65},   {"bytes", 1e6},
            {"bandwidth", 1e9},  {"latency", 0},        {"trace", true}};
  EXPECT_EQ(refusal(r)["code"], "too_large");
  r["gpus"] = 64;
  EXPECT_FALSE(call(r).contains("error"));
  r["algorithm"] = "tree";
  EXPECT_EQ(refusal(r)["field"], "trace");
}

TEST(AllreduceOp, HierarchicalRefusesGpusThatDoNotFillWholeNodesAndAFlatLinkKind) {
  json r = {{"op", "allreduce"}, {"algorithm", "hierarchical"}, {"gpus", 12}, {"bytes", 1e6}, {"link", "h100-sxm"}};
  EXPECT_EQ(refusal(r)["code"], "inconsistent");
  r["gpus"] = 16;
  r["link_kind"] = "intra";
  EXPECT_EQ(refusal(r)["code"], "conflicting_fields");
  json bare = {{"op", "allreduce"}, {"algorithm", "hierarchical"}, {"gpus", 16}, {"bytes", 1e6}};
  EXPECT_EQ(refusal(bare)["field"], "link");
}

TEST(OnePassOps, AnswerWithTheirClosedFormsAndRefuseATrace) {
  for (const char* op : {"allgather", "reducescatter", "alltoall"}) {
    json r = call({{"op", op}, {"gpus", 8}, {"bytes", 1e9}, {"link", "h100-sxm"}, {"link_kind", "intra"}});
    const double latencies = std::string(op) == "alltoall" ? 1 : 7;  // all-to-all: its 7 peers in one batch
    EXPECT_DOUBLE_EQ(r["time"].get<double>(), latencies * 3.4e-6 + 7.0 / 8 * 1e9 / 450e9) << op;
    EXPECT_EQ(
        refusal({{"op", op}, {"gpus", 8}, {"bytes", 1e9}, {"bandwidth", 1e9}, {"latency", 0}, {"trace", true}})["code"],
        "unknown_field");
  }
}

}  // namespace
