// Issue 24's mechanisms, each against its closed form: the nccl-tests fit, the embedding and loss as pipeline layers,
// memory as the allocator sees it, and the error band every step answer carries.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>
#include <tuple>

#include "../../engine/src/network_fit.hpp"
#include "parascope/api.hpp"
#include "parascope/presets.hpp"
#include "parascope/stages.hpp"

namespace {

using nlohmann::json;

json ask(const json& request) { return json::parse(parascope::call(request.dump())); }

json llama8b(json parallel, json cluster = {{"gpus", 64}}, const std::string& software = "megatron-core") {
  return {{"op", "step"},
          {"model", "llama3-8b"},
          {"hardware", "h100-sxm"},
          {"cluster", std::move(cluster)},
          {"parallel", std::move(parallel)},
          {"software", software}};
}

TEST(NetworkFit, TwoMessageSizesGiveBackTheRingsBandwidthAndLatency) {
  // Rows made from t = 2(n−1)α + 2(n−1)/n·S/B with α = 20 µs, B = 40 GB/s at 16 GPUs: the fit returns both.
  const double alpha = 20e-6, bandwidth = 40e9;
  const std::int64_t n = 16;
  std::vector<parascope::detail::NcclTestRow> rows;
  for (const double bytes : {1e6, 1e8, 1e9}) {
    const double f = 2.0 * double(n - 1) / double(n);
    const double t = 2.0 * double(n - 1) * alpha + f * bytes / bandwidth;
    rows.push_back({n, bytes, bytes * f / t});
  }
  const auto fit = parascope::detail::fit_nccl_tests(rows);
  ASSERT_EQ(fit.size(), 1u);
  EXPECT_NEAR(fit[0].bandwidth, bandwidth, 1e-6 * bandwidth);
  EXPECT_NEAR(fit[0].latency, alpha, 1e-9);
  // Between measured counts the time per byte (1/B) is linear in the count: a bandwidth that falls as 1/n (100 GB/s
  // at 16 GPUs, 25 at 64) is read back as 1/n at every count between.
  const auto two = parascope::detail::fit_nccl_tests({{16, 1e9, 100e9}, {64, 1e9, 25e9}});
  for (const std::int64_t gpus : {24, 32, 48, 63})
    EXPECT_NEAR(parascope::detail::measured_at(two, gpus).bandwidth, 1600e9 / double(gpus), 1e-3) << gpus;
  EXPECT_EQ(parascope::detail::measured_at(two, 4).bandwidth, 100e9);    // the nearest below
  EXPECT_EQ(parascope::detail::measured_at(two, 1024).bandwidth, 25e9);  // and above
  // The latency per step is linear in the count too: a quarter of the way from 8 to 24 GPUs, a quarter of the way
  // from 10 to 30 µs.
  const std::vector<parascope::MeasuredNetwork> latencies = {{8, 50e9, 10e-6}, {24, 50e9, 30e-6}};
  EXPECT_NEAR(parascope::detail::measured_at(latencies, 12).latency, 15e-6, 1e-15);
  EXPECT_NEAR(parascope::detail::measured_at(latencies, 12).bandwidth, 50e9, 1e-3);
}

TEST(NetworkFit, AClusterThatMeasuredLessMakesTheDataParallelReductionSlower) {
  const json parallel = {{"tp", 1}, {"global_batch", 512}, {"zero", 1}};
  const json sold = ask(llama8b(parallel, {{"gpus", 256}}));
  const json measured =
      ask(llama8b(parallel, {{"gpus", 256}, {"nccl_tests", {{{"gpus", 256}, {"bytes", 1e9}, {"busbw", 13e9}}}}}));
  ASSERT_FALSE(measured.contains("error")) << measured.dump();
  EXPECT_GT(measured["breakdown"]["dp_comm"].get<double>(), sold["breakdown"]["dp_comm"].get<double>());
  EXPECT_LT(measured["mfu"].get<double>(), sold["mfu"].get<double>());
  EXPECT_DOUBLE_EQ(measured["network_fit"][0]["bandwidth"].get<double>(), 13e9);
  EXPECT_FALSE(sold.contains("network_fit"));
}

TEST(NetworkFit, BadRowsAreRefusedNamingTheRow) {
  const json parallel = {{"tp", 1}, {"global_batch", 512}};
  const json one_gpu =
      ask(llama8b(parallel, {{"gpus", 64}, {"nccl_tests", {{{"gpus", 1}, {"bytes", 1e9}, {"busbw", 1e9}}}}}));
  EXPECT_EQ(one_gpu["error"]["field"], "cluster.nccl_tests[0].gpus");
  const json empty = ask(llama8b(parallel, {{"gpus", 64}, {"nccl_tests", json::array()}}));
  EXPECT_EQ(empty["error"]["field"], "cluster.nccl_tests");
  const json extra = ask(
      llama8b(parallel, {{"gpus", 64}, {"nccl_tests", {{{"gpus", 8}, {"bytes", 1e9}, {"busbw", 1e9}, {"algbw", 1}}}}}));
  EXPECT_EQ(extra["error"]["code"], "unknown_field");
}

TEST(PipelineLayers, TheEmbeddingAndTheLossCountAsLayersOfTheEndStages) {
  parascope::ParallelConfig p;
  p.pp = 4;
  p.embedding_in_split = p.loss_in_split = true;
  // 30 layers + 2 = 32 pipeline layers, 8 a stage: the first and last stages hold 7 transformer layers.
  EXPECT_EQ(parascope::stage_layer_counts(30, p), (std::vector<std::int64_t>{7, 8, 8, 7}));
  // Llama 3 8B's 32 layers on pp 2 × vpp 17 = 34 chunks: refused unless both count.
  json parallel = {{"tp", 1}, {"pp", 2}, {"vpp", 17}, {"global_batch", 64}};
  EXPECT_EQ(ask(llama8b(parallel))["error"]["field"], "parallel.vpp");
  parallel["account_for_embedding"] = true;
  parallel["account_for_loss"] = true;
  const json r = ask(llama8b(parallel));
  ASSERT_FALSE(r.contains("error")) << r.dump();
  EXPECT_EQ(r["parallel"]["stage_layers"], json({16, 16}));
  EXPECT_TRUE(r["parallel"]["account_for_loss"].get<bool>());
  EXPECT_EQ(ask(llama8b({{"tp", 8}, {"global_batch", 64}, {"account_for_loss", true}}))["error"]["field"],
            "parallel.account_for_loss");
  EXPECT_EQ(ask(llama8b({{"tp", 1},
                         {"pp", 2},
                         {"global_batch", 64},
                         {"first_stage_layers", 15},
                         {"account_for_embedding", true}}))["error"]["field"],
            "parallel.account_for_embedding");
}

TEST(AllocatorMemory, TheTotalIsItsPartsAndFitsMeansItStarts) {
  const json r =
      ask(llama8b({{"tp", 1}, {"microbatch_size", 1}, {"global_batch", 64}, {"zero", 1}}, {{"gpus", 64}}, "pytorch"));
  const json& m = r["memory_per_gpu"];
  const double parts = m["weights"].get<double>() + m["gradients"].get<double>() + m["optimizer_states"].get<double>() +
                       m["activations"].get<double>() + m["transient"].get<double>() +
                       m["allocator_reserve"].get<double>() + m["runtime"].get<double>();
  EXPECT_NEAR(m["total"].get<double>(), parts, 1e-6 * parts);
  EXPECT_DOUBLE_EQ(m["framework_reserved"].get<double>(), m["total"].get<double>() - m["runtime"].get<double>());
  EXPECT_EQ(r["fits"].get<bool>(), m["total"].get<double>() <= r["memory_capacity"].get<double>());
  // One data-parallel group: the CUDA context and one communicator's NCCL buffers, its rings' and trees' (3 sets:
  // NCCL 2.21.5 connects both at init), with its NVLink SHARP buffers: 8 of its GPUs on each H100 node, 96 MiB a head.
  EXPECT_NEAR(m["runtime"].get<double>(),
              400e6 + 3 * 32.0 * (512.0 * 1024 + 120.0 * 640 * 64 + 4.0 * 1048576) + 8 * 96.0 * 1048576, 1.0);
  // pp 1: the eager loss's backward, 12 bytes per logit (8,192 tokens × 128,256 logits: the saved fp32 log-softmax,
  // nll_loss's gradient and log_softmax's), outweighs its forward's 10 and one layer's workspace.
  EXPECT_EQ(m["peak_moment"], "loss");
  EXPECT_NEAR(m["transient"].get<double>(), 12.0 * 8192 * 128256, 1.0);
}

TEST(AllocatorMemory, NvlinkSharpBuffersGoWithMoreThanTwoGpusOfAGroupOnANode) {
  // NCCL 2.21's NVLS: a communicator with more than two of its GPUs on an NVSwitch node of a multicast chip holds
  // 16 channels × 2 × (1 MiB + 2 MiB) per such GPU on each of them (src/transport/nvls.cc at v2.21.5-1).
  const double head = 16.0 * 2 * 3 * 1048576;
  auto runtime = [](json parallel, const std::string& software, json extra = json::object()) {
    json q = llama8b(std::move(parallel), {{"gpus", 64}}, software);
    q.update(extra);
    const json r = ask(q);
    EXPECT_FALSE(r.contains("error")) << r.dump();
    return r["memory_per_gpu"]["runtime"].get<double>();
  };
  const json dp = {{"tp", 1}, {"microbatch_size", 1}, {"global_batch", 64}, {"zero", 3}};
  const json tp4 = {{"tp", 4}, {"microbatch_size", 1}, {"global_batch", 64}, {"zero", 3}};
  const json tp8 = {{"tp", 8}, {"microbatch_size", 1}, {"global_batch", 64}, {"zero", 3}};
  const json tp2 = {{"tp", 2}, {"microbatch_size", 1}, {"global_batch", 64}, {"zero", 3}};
  const json off = {{"efficiency", {{"nvls_buffer_bytes", 0}}}};
  // 64-way data parallel: 8 of the group on each node. tp 4: its group (4) and the data group's other 2 on the node
  // (2: none). tp 8: its group; the data group has one GPU a node. tp 2: the data group's 4 on each node, and under
  // nanotron the default group's 8 (its start-up barriers build a communicator over every GPU).
  EXPECT_NEAR(runtime(dp, "pytorch") - runtime(dp, "pytorch", off), 8 * head, 1.0);
  EXPECT_NEAR(runtime(tp4, "pytorch") - runtime(tp4, "pytorch", off), 4 * head, 1.0);
  EXPECT_NEAR(runtime(tp8, "pytorch") - runtime(tp8, "pytorch", off), 8 * head, 1.0);
  EXPECT_NEAR(runtime(tp2, "nanotron") - runtime(tp2, "nanotron", off), (4 + 8) * head, 1.0);
  // NeMo's recipes set NCCL_NVLS_ENABLE=0; A100 has no multicast.
  EXPECT_DOUBLE_EQ(runtime(dp, "megatron-core"), runtime(dp, "megatron-core", off));
  const json a100_asked = {{"hardware", "a100-80gb"}, {"efficiency", {{"nvls_buffer_bytes", 1e8}}}};
  EXPECT_DOUBLE_EQ(runtime(dp, "pytorch", a100_asked), runtime(dp, "pytorch", {{"hardware", "a100-80gb"}}));
}

TEST(AllocatorMemory, PytorchDataParallelKeepsDdpsBucketCopyOfEveryGradient) {
  // Without FSDP, PyTorch's data parallelism is DDP: its Reducer's buckets hold a bf16 copy of every gradient (2 bytes
  // a parameter) beside `.grad` and the fp32 accumulation buffer, from the second data-parallel GPU on, at ZeRO 0
  // and 1.
  auto gradients = [](std::int64_t gpus, int zero, const std::string& software) {
    const json parallel = {{"tp", 1}, {"microbatch_size", 1}, {"global_batch", 64}, {"zero", zero}};
    return ask(llama8b(parallel, {{"gpus", gpus}}, software))["memory_per_gpu"]["gradients"].get<double>();
  };
  const double params =
      ask(llama8b({{"tp", 1}, {"global_batch", 64}}, {{"gpus", 1}}))["memory_per_gpu"]["weights"].get<double>() / 2.0;
  for (const int zero : {0, 1}) {
    EXPECT_NEAR(gradients(8, zero, "pytorch") - gradients(1, zero, "pytorch"), 2.0 * params, 1e-9 * params) << zero;
    // Megatron-Core's own contiguous buffers: no second copy.
    EXPECT_DOUBLE_EQ(gradients(8, zero, "megatron-core"), gradients(1, zero, "megatron-core")) << zero;
  }
  // FSDP (ZeRO 2, 3) replaces DDP: no bucket copy, the gradients sharded.
  EXPECT_LT(gradients(8, 2, "pytorch"), gradients(1, 2, "pytorch"));
}

TEST(AllocatorMemory, DeepSpeedsPipelineHoldsACommunicatorPerNeighbourAndItsGridsGroups) {
  // BLOOM's production layout (tp 4, pp 12, dp 8) on GPT-3 175B (tied embeddings, as BLOOM's): Megatron's tensor
  // group, the data group, the pipeline group, two neighbours' two-rank communicators (unbatched send/recv),
  // DeepSpeed's model group, its slice group and the default group Megatron's start-up barrier builds over all 384:
  // 8 communicators beside the eager CUDA context, where one per parallel group and the world's count 4.
  auto runtime = [](json parallel, json efficiency = json::object()) {
    const json request = {{"op", "step"},
                          {"model", "gpt3-175b"},
                          {"hardware", "a100-80gb"},
                          {"cluster", {{"gpus", 384}}},
                          {"software", "deepspeed"},
                          {"parallel", std::move(parallel)},
                          {"efficiency", std::move(efficiency)}};
    const json r = ask(request);
    EXPECT_FALSE(r.contains("error")) << r.dump();
    return r["memory_per_gpu"]["runtime"].get<double>();
  };
  const double context = 1573.0 * 1048576, set = 32.0 * (512.0 * 1024 + 120.0 * 640 * 64 + 4.0 * 1048576);
  const json rings = {{"nccl_connects_trees", false}};
  const json bloom = {{"tp", 4}, {"pp", 12}, {"dp", 8}, {"microbatch_size", 2}, {"global_batch", 2048}};
  EXPECT_NEAR(runtime(bloom, rings), context + 8 * set, 1.0);
  EXPECT_NEAR(runtime(bloom, {{"nccl_connects_trees", false},
                              {"pair_communicators", false},
                              {"model_group_communicators", false},
                              {"world_communicator", false}}),
              context + 3 * set, 1.0);
  // NCCL 2.10.3 connects each communicator's trees beside its rings: 3 buffer sets a communicator of more than two
  // GPUs (the ring's and the tree's two chain neighbours'), 2 of two: 6 · 3 + 2 · 2.
  EXPECT_NEAR(runtime(bloom), context + 22 * set, 1.0);
  // Two stages: one neighbour, and the tied embeddings' group at either end; tp 1: no slice group. Rings only:
  // data, pipeline, neighbour, tied, model, world = 6; with trees 3 + 2 + 2 + 2 + 2 + 3.
  const json two = {{"tp", 1}, {"pp", 2}, {"dp", 192}, {"microbatch_size", 1}, {"global_batch", 2304}};
  EXPECT_NEAR(runtime(two, rings), context + 6 * set, 1.0);
  EXPECT_NEAR(runtime(two), context + 14 * set, 1.0);
}

TEST(DataParallel, APytorchZeroOneWaitsForItsParameterGatherInTheOptimizerStep) {
  // nanotron's and torch's sharded optimizers all-gather the updated parameters before step() returns: the whole
  // gather is exposed, where Megatron-Core's --overlap-param-gather hides it behind the next forward.
  auto dp_comm = [](int zero, bool overlap) {
    json r =
        llama8b({{"tp", 1}, {"microbatch_size", 1}, {"global_batch", 64}, {"zero", zero}}, {{"gpus", 64}}, "pytorch");
    r["efficiency"]["param_gather_overlap"] = overlap;
    const json a = ask(r);
    EXPECT_FALSE(a.contains("error")) << a.dump();
    return a["breakdown"]["dp_comm"].get<double>();
  };
  EXPECT_GT(dp_comm(1, false), dp_comm(1, true));
  // The default of the stack is the waiting one.
  const json plain =
      ask(llama8b({{"tp", 1}, {"microbatch_size", 1}, {"global_batch", 64}, {"zero", 1}}, {{"gpus", 64}}, "pytorch"));
  EXPECT_DOUBLE_EQ(plain["breakdown"]["dp_comm"].get<double>(), dp_comm(1, false));
  // ZeRO 2 under pytorch is FSDP, gathering layer by layer in the forward: the flag changes nothing.
  EXPECT_DOUBLE_EQ(dp_comm(2, false), dp_comm(2, true));
}

TEST(SoftwareStacks, NanotronIsPytorchWithTritonRmsNormAndTheVocabularyParallelLoss) {
  // nanotron's terms over the pytorch stack: TritonRMSNorm, and sharded_cross_entropy (Megatron's algorithm on the fp32
  // cast: 38 + 14 bytes per logit over HBM) with its backward in place over the saved softmax (6 bytes per logit
  // alive), no DTensor temporaries at tp > 1, the default group its ParallelContext's barriers build over every GPU
  // and a two-rank communicator per pipeline neighbour (unbatched isend / irecv). Everything else is the same stack.
  const json parallel = {{"tp", 2}, {"microbatch_size", 1}, {"global_batch", 64}, {"zero", 1}};
  const json nanotron = ask(llama8b(parallel, {{"gpus", 64}}, "nanotron"));
  json as_pytorch = llama8b(parallel, {{"gpus", 64}}, "pytorch");
  as_pytorch["efficiency"] = {{"fused_rmsnorm", true},
                              {"loss_bytes_per_logit", 10},
                              {"loss_backward_bytes_per_logit", 6},
                              {"loss_parallel_extra_bytes", 0},
                              {"loss_traffic_bytes_per_logit", 38},
                              {"loss_backward_traffic_bytes_per_logit", 14},
                              {"tp_backward_allgather", true},
                              {"world_communicator", true},
                              {"pair_communicators", true}};
  const json pytorch = ask(as_pytorch);
  ASSERT_FALSE(nanotron.contains("error")) << nanotron.dump();
  EXPECT_EQ(nanotron["memory_per_gpu"], pytorch["memory_per_gpu"]);
  EXPECT_EQ(nanotron["step_time"], pytorch["step_time"]);
  EXPECT_EQ(nanotron["error_band"]["basis"], "nanotron");
  EXPECT_EQ(nanotron["error_band"]["mfu"], pytorch["error_band"]["mfu"]);  // one family, one track record
  // And it differs from torchtitan's eager stack where the terms say: less memory-bound time in the layers (the
  // loss's traffic set alike) and a smaller loss.
  json eager_request = llama8b(parallel, {{"gpus", 64}}, "pytorch");
  eager_request["efficiency"] = {{"loss_traffic_bytes_per_logit", 38}, {"loss_backward_traffic_bytes_per_logit", 14}};
  const json eager = ask(eager_request);
  EXPECT_LT(nanotron["breakdown"]["memory_bound"].get<double>(), eager["breakdown"]["memory_bound"].get<double>());
  EXPECT_LT(nanotron["memory_per_gpu"]["total"].get<double>(), eager["memory_per_gpu"]["total"].get<double>());
}

TEST(SoftwareStacks, NanotronsSequenceParallelLinearsGatherAgainAndOverlapOnlyWhenAsync) {
  // tp 4 with sequence parallelism on one node: per layer and microbatch the forward waits for 2 all-gathers and 2
  // reduce-scatters, the backward for 2 + 2 and (tp_recompute_allgather) the column GEMMs' 2 re-gathers.
  const json parallel = {{"tp", 4}, {"sequence_parallel", true}, {"microbatch_size", 1}, {"global_batch", 64}};
  auto tp_comm = [&](const json& efficiency) {
    json r = llama8b(parallel, {{"gpus", 64}}, "nanotron");
    r["efficiency"] = efficiency;
    const json a = ask(r);
    EXPECT_FALSE(a.contains("error")) << a.dump();
    return a["breakdown"]["tp_comm"].get<double>();
  };
  const double sync = tp_comm(json::object()), without = tp_comm({{"tp_backward_allgather", false}});
  // A ring all-gather and reduce-scatter of the same bytes take the same time: (8 + 2) / 8 of the collectives.
  EXPECT_NEAR(sync / without, 10.0 / 8.0, 1e-9);
  // Asynchronous: each collective shows only what it exceeds the GEMM beside it; the forward's two reduce-scatters
  // (2 of the 10) are always waited for.
  const double async = tp_comm({{"tp_async_shards", true}});
  EXPECT_LT(async, sync);
  EXPECT_GE(async, 0.2 * sync * (1 - 1e-9));
  // On a link a thousand times slower the GEMMs hide next to nothing: async ≈ sync.
  json slow = llama8b(parallel, {{"gpus", 64}, {"intra_bandwidth", 4.5e8}}, "nanotron");
  const double slow_sync = ask(slow)["breakdown"]["tp_comm"].get<double>();
  slow["efficiency"] = {{"tp_async_shards", true}};
  EXPECT_NEAR(ask(slow)["breakdown"]["tp_comm"].get<double>() / slow_sync, 1.0, 0.02);
  // Megatron-Core's re-gather runs behind the input-gradient GEMM: not counted unless asked.
  const json mcore = ask(llama8b(parallel));
  json regather = llama8b(parallel);
  regather["efficiency"] = {{"tp_backward_allgather", true}};
  EXPECT_GT(ask(regather)["breakdown"]["tp_comm"].get<double>(), mcore["breakdown"]["tp_comm"].get<double>());
}

TEST(SoftwareStacks, TheLossMovesOverHbmWhatItsStacksCodeMoves) {
  // A 1B Llama with Llama 3's 128,256-token vocabulary, data parallel on one node: the loss's passes over the logits
  // are memory-bound seconds, linear in the bytes per logit its code moves (cost_types.hpp).
  auto request = [](const std::string& software, const json& efficiency) {
    json r = {{"op", "step"},
              {"model",
               {{"layers", 16},
                {"hidden", 2048},
                {"heads", 32},
                {"kv_heads", 8},
                {"ffn", 8192},
                {"vocab", 128256},
                {"seq", 4096},
                {"activation", "swiglu"}}},
              {"hardware", "h100-sxm"},
              {"cluster", {{"gpus", 8}}},
              {"parallel", {{"dp", 8}, {"microbatch_size", 1}, {"global_batch", 32}, {"zero", 1}}},
              {"software", software},
              {"efficiency", efficiency}};
    const json a = ask(r);
    EXPECT_FALSE(a.contains("error")) << a.dump();
    return a;
  };
  auto traffic = [](double forward, double backward) {
    return json{{"loss_traffic_bytes_per_logit", forward}, {"loss_backward_traffic_bytes_per_logit", backward}};
  };
  auto memory_bound = [](const json& a) { return a["breakdown"]["memory_bound"].get<double>(); };
  // Each stack's default is the count its code gives: Megatron's and nanotron's cross-entropy on the fp32 cast 38 +
  // 14, PyTorch's eager cross_entropy(pred.float()) 22 + 26, a fused loss 8 + 12.
  for (const auto& [software, forward, backward] :
       {std::tuple{"nanotron", 38.0, 14.0}, std::tuple{"megatron-2021", 38.0, 14.0},
        std::tuple{"deepspeed", 38.0, 14.0}, std::tuple{"pytorch", 22.0, 26.0},
        std::tuple{"pytorch-compile", 8.0, 12.0}, std::tuple{"megatron-core", 8.0, 12.0}}) {
    EXPECT_EQ(request(software, json::object())["step_time"],
              request(software, traffic(forward, backward))["step_time"])
        << software;
  }
  // Linear in the bytes: nanotron's 52 bytes a logit cost 52/20 of the fused loss's 20.
  const double none = memory_bound(request("nanotron", traffic(0, 0)));
  const double nanotron = memory_bound(request("nanotron", json::object())) - none;
  const double fused = memory_bound(request("nanotron", traffic(8, 12))) - none;
  EXPECT_GT(fused, 0.0);
  EXPECT_NEAR(nanotron / fused, 52.0 / 20.0, 1e-9);
}

TEST(SoftwareStacks, UnpaddedAttentionCopiesQkvAndTheOutputInBothPasses) {
  // MPT-7B-shaped (MHA, h 4096, 32 layers) on 8 H100s, microbatch 6 × 2,048 tokens, 4 microbatches a step: the
  // varlen path's gathers and scatters are 5(q + 2kv) + 5q = 40h BF16 bytes per token and layer over HBM, forward and
  // backward together (layer_work.cpp), at the chip's streaming rate.
  json r = {
      {"op", "step"},
      {"model",
       {{"layers", 32}, {"hidden", 4096}, {"heads", 32}, {"vocab", 50368}, {"seq", 2048}, {"activation", "gelu"}}},
      {"hardware", "h100-sxm"},
      {"cluster", {{"gpus", 8}}},
      {"parallel", {{"dp", 8}, {"microbatch_size", 6}, {"global_batch", 192}, {"zero", 3}}},
      {"software", "pytorch"}};
  const json padded = ask(r);
  r["efficiency"] = {{"unpadded_attention", true}};
  const json unpadded = ask(r);
  ASSERT_FALSE(unpadded.contains("error")) << unpadded.dump();
  const parascope::Hardware& hw = *parascope::find_hardware("h100-sxm");
  const double tokens = 6.0 * 2048.0, per_token_layer = 2.0 * 20.0 * 4096.0;
  const double expected = 4.0 * 32.0 * tokens * per_token_layer / (hw.memory_bandwidth * hw.memory_efficiency);
  const double grew =
      unpadded["breakdown"]["memory_bound"].get<double>() - padded["breakdown"]["memory_bound"].get<double>();
  EXPECT_NEAR(grew, expected, 1e-9 * expected);
  EXPECT_GT(unpadded["step_time"].get<double>(), padded["step_time"].get<double>());
}

TEST(SoftwareStacks, TheNanotronPlannerSearchesOnlyWhatNanotronRuns) {
  const json r = ask({{"op", "plan"},
                      {"model", "llama3-8b"},
                      {"hardware", "h100-sxm"},
                      {"cluster", {{"gpus", 64}}},
                      {"global_batch", 256},
                      {"software", "nanotron"},
                      {"top_k", 10}});
  ASSERT_FALSE(r.contains("error")) << r.dump();
  ASSERT_FALSE(r["results"].empty());
  for (const char* list : {"results", "pareto"}) {
    for (const json& c : r[list]) {
      EXPECT_LE(c["parallel"]["zero"].get<int>(), 1) << c.dump();
      const std::string schedule = c["parallel"]["schedule"];
      EXPECT_TRUE(schedule == "1f1b" || schedule == "gpipe") << c.dump();
    }
  }
  // Whole layers or nothing (parallelism.recompute_layer): no selective recomputation among the timed either.
  for (const json& c : r["scatter"]) EXPECT_NE(c["parallel"]["recompute"], "selective") << c.dump();
}

TEST(ErrorBand, EveryStepAnswerBracketsItsNumbersWithTheHeldOutSpread) {
  for (const char* software :
       {"megatron-core", "megatron-2021", "deepspeed", "pytorch", "pytorch-compile", "nanotron", "xla"}) {
    const json r = ask(llama8b({{"tp", 8}, {"global_batch", 64}}, {{"gpus", 64}}, software));
    ASSERT_FALSE(r.contains("error")) << software << r.dump();
    const json& band = r["error_band"];
    EXPECT_GT(band["held_out_runs"].get<int>(), 0) << software;
    const double mfu = r["mfu"], low = band["mfu"][0], high = band["mfu"][1];
    EXPECT_LE(low, high) << software;
    EXPECT_NEAR(band["tokens_per_second"][0].get<double>() / r["tokens_per_second"].get<double>(), low / mfu, 1e-9);
    // Throughput scales with measured / predicted, step time with its inverse: low time × high MFU = high × low.
    const double t = r["step_time"];
    EXPECT_NEAR(band["step_time"][0].get<double>() * high, t * mfu, 1e-9 * t * mfu) << software;
    EXPECT_NEAR(band["step_time"][1].get<double>() * low, t * mfu, 1e-9 * t * mfu) << software;
    EXPECT_LE(band["memory_total"]["range"][0].get<double>(), band["memory_total"]["range"][1].get<double>());
  }
}

TEST(ErrorBand, AStackWithOnePublicationGetsABandThatHoldsItsOwnRecordToo) {
  std::ifstream in(std::string(PARASCOPE_SOURCE_DIR) + "/engine/data/error_bands.json");
  ASSERT_TRUE(in);
  const json bands = json::parse(in);
  json own, all;
  for (const json& b : bands["speed"]) {
    if (b["software"] == "xla") own = b["measured_over_predicted"];
    if (b["software"] == "all stacks") all = b["measured_over_predicted"];
  }
  ASSERT_FALSE(own.is_null());
  const json r = ask(llama8b({{"tp", 8}, {"global_batch", 64}}, {{"gpus", 64}}, "xla"));
  const double mfu = r["mfu"];
  EXPECT_EQ(r["error_band"]["basis"], "all stacks and xla");
  EXPECT_NEAR(r["error_band"]["mfu"][0].get<double>() / mfu,
              std::min(own["p10"].get<double>(), all["p10"].get<double>()), 1e-9);
  EXPECT_NEAR(r["error_band"]["mfu"][1].get<double>() / mfu,
              std::max(own["p90"].get<double>(), all["p90"].get<double>()), 1e-9);
}

}  // namespace
