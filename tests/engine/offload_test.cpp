// Optimizer offload against its closed forms: the bytes that leave the GPU for the host, the host's Adam step paced by
// the slowest of its copies and its DRAM pass, and the refusals when the hardware does not say how fast its host is.
#include <gtest/gtest.h>

#include <algorithm>
#include <nlohmann/json.hpp>
#include <string>

#include "parascope/api.hpp"

namespace {

using nlohmann::json;

json ask(const json& request) { return json::parse(parascope::call(request.dump())); }

/// Llama 3 70B on 64 H100s, tp 8 × dp 8, ZeRO 1: each GPU steps 1/64 of the parameters.
/// `offload` null: the field left out.
json llama70b(const json& offload, const std::string& software, const json& hardware = "h100-sxm") {
  json parallel = {{"tp", 8}, {"dp", 8}, {"global_batch", 256}, {"zero", 1}, {"recompute", "full"}};
  if (!offload.is_null()) parallel["offload_optimizer"] = offload;
  return {{"op", "step"},         {"model", "llama3-70b"}, {"hardware", hardware}, {"cluster", {{"gpus", 64}}},
          {"parallel", parallel}, {"software", software}};
}

double at(const json& answer, const char* group, const char* key) { return answer[group][key].get<double>(); }

TEST(Offload, NoneOrZeroIsTheSameAnswer) {
  const json none = ask(llama70b(nullptr, "megatron-core"));
  const json zero = ask(llama70b(0, "megatron-core"));
  EXPECT_EQ(none, zero);
  EXPECT_FALSE(none["memory_per_gpu"].contains("host_offloaded"));
}

TEST(Offload, TheOptimizersStatesMoveToTheHostAsEachStackKeepsThem) {
  for (const std::string software : {"megatron-core", "deepspeed", "pytorch"}) {
    const json on = ask(llama70b(0, software));
    const json off = ask(llama70b(1, software));
    ASSERT_FALSE(off.contains("error")) << off.dump();
    // The parameters this GPU steps: 12 bytes of Adam state each without offload (ZeRO 1 shards them over dp 8).
    const double updated = at(on, "memory_per_gpu", "optimizer_states") / 12.0;
    // On the host: fp32 master, momentum, variance and the pinned fp32 gradient, 16 bytes each.
    EXPECT_NEAR(at(off, "memory_per_gpu", "host_offloaded"), 16.0 * updated, 1e-6 * updated);
    // Megatron-Core keeps its fp32 main weights on the GPU (4 of the 12 bytes); ZeRO-Offload and the others none.
    const double kept = software == "megatron-core" ? 4.0 : 0.0;
    EXPECT_NEAR(at(off, "memory_per_gpu", "optimizer_states"), kept * updated, 1e-6 * updated) << software;
    EXPECT_NEAR(at(on, "memory_per_gpu", "total") - at(off, "memory_per_gpu", "total"), (12.0 - kept) * updated,
                1e-6 * updated)
        << software;
    EXPECT_DOUBLE_EQ(at(off, "memory_per_gpu", "gradients"), at(on, "memory_per_gpu", "gradients"));
  }
}

TEST(Offload, TheHostStepIsPacedByItsSlowestPartAndAddsToTheStep) {
  // H100's host (hardware.json): 57.6 GB/s each way over PCIe 5.0, 76.8 GB/s of DDR5 per GPU at 3/4 sustained.
  const double link = 57.6e9, dram = 76.8e9 * 0.75;
  const struct {
    const char* software;
    double adam_bytes;
  } stacks[] = {{"megatron-core", 28.0}, {"deepspeed", 30.0}, {"pytorch", 80.0}};
  for (const auto& s : stacks) {
    const json on = ask(llama70b(0, s.software));
    const json off = ask(llama70b(1, s.software));
    const double updated = at(on, "memory_per_gpu", "optimizer_states") / 12.0;
    const double grad_bytes = s.software == std::string("megatron-core") ? 4.0 : 2.0;  // grad_reduce_bytes
    const double back = s.software == std::string("megatron-core") ? 4.0 : 2.0;        // fp32 main or bf16 weights
    const double expected =
        std::max({updated * grad_bytes / link, updated * s.adam_bytes / dram, updated * back / link});
    EXPECT_NEAR(at(off, "breakdown", "optimizer"), expected, 1e-9 * expected) << s.software;
    // Only the optimizer changed: the step grows by exactly its difference.
    EXPECT_NEAR(off["step_time"].get<double>() - on["step_time"].get<double>(),
                at(off, "breakdown", "optimizer") - at(on, "breakdown", "optimizer"), 1e-9)
        << s.software;
  }
}

TEST(Offload, HalfOffloadedStepsTheGpusHalfBesideTheHostsHalf) {
  const json on = ask(llama70b(0, "megatron-core"));
  const json half = ask(llama70b(0.5, "megatron-core"));
  const json all = ask(llama70b(1, "megatron-core"));
  // The host's half is the slower: half of the whole host step; the GPU's own half runs beside it.
  EXPECT_NEAR(at(half, "breakdown", "optimizer"), 0.5 * at(all, "breakdown", "optimizer"), 1e-12);
  EXPECT_GT(at(half, "breakdown", "optimizer"), 0.5 * at(on, "breakdown", "optimizer"));
  EXPECT_NEAR(at(half, "memory_per_gpu", "host_offloaded"), 0.5 * at(all, "memory_per_gpu", "host_offloaded"), 1.0);
  EXPECT_DOUBLE_EQ(half["parallel"]["offload_optimizer"].get<double>(), 0.5);
}

TEST(Offload, AHostTheHardwareDoesNotDescribeIsRefusedByName) {
  json tpu = llama70b(1, "xla", "tpu-v5p");
  tpu["cluster"] = {{"gpus", 64}};
  const json refused = ask(tpu);
  ASSERT_TRUE(refused.contains("error")) << refused.dump();
  EXPECT_EQ(refused["error"]["field"], "parallel.offload_optimizer");
  EXPECT_NE(refused["error"]["message"].get<std::string>().find("host_bandwidth"), std::string::npos);
  // Given in the request's hardware object, the same run is priced.
  json custom = ask({{"op", "presets"}})["hardware"];
  json chip;
  for (const json& h : custom) {
    if (h["id"] == "tpu-v5p") chip = h;
  }
  chip.erase("sources");
  chip["host_bandwidth"] = 2.88e10;
  chip["host_memory_bandwidth"] = 5e10;
  const json priced = ask(llama70b(1, "xla", chip));
  EXPECT_FALSE(priced.contains("error")) << priced.dump();
}

TEST(Offload, AShareOutsideZeroToOneIsRefused) {
  for (const double bad : {-0.1, 1.5}) {
    const json refused = ask(llama70b(bad, "megatron-core"));
    ASSERT_TRUE(refused.contains("error")) << bad;
    EXPECT_EQ(refused["error"]["field"], "parallel.offload_optimizer");
  }
}

}  // namespace

namespace {

TEST(Offload, DeepSpeedsAndMegatronsSwitchesImportAsTheShare) {
  const char* deepspeed =
      R"({"train_micro_batch_size_per_gpu": 1, "bf16": {"enabled": true},
          "zero_optimization": {"stage": 2, "offload_optimizer": {"device": "%s", "pin_memory": true}}})";
  auto deepspeed_with = [&](const std::string& device) {
    std::string text = deepspeed;
    text.replace(text.find("%s"), 2, device);
    return ask({{"op", "config_import"},
                {"format", "deepspeed"},
                {"text", text},
                {"base", {{"model", "llama3-8b"}, {"hardware", "h100-sxm"}, {"cluster", {{"gpus", 16}}}}}});
  };
  const json cpu = deepspeed_with("cpu");
  ASSERT_FALSE(cpu.contains("error")) << cpu.dump();
  EXPECT_EQ(cpu["request"]["parallel"]["offload_optimizer"], 1);
  EXPECT_TRUE(cpu["unmapped"].empty()) << cpu["unmapped"].dump();
  EXPECT_FALSE(ask(cpu["request"]).contains("error"));
  const json nvme = deepspeed_with("nvme");
  EXPECT_FALSE(nvme["request"]["parallel"].contains("offload_optimizer"));
  EXPECT_FALSE(nvme["unmapped"].empty());

  const std::string megatron =
      "torchrun --nproc_per_node 8 pretrain_gpt.py --num-layers 32 --hidden-size 4096 --num-attention-heads 32 "
      "--seq-length 4096 --max-position-embeddings 4096 --micro-batch-size 1 --global-batch-size 64 --bf16 "
      "--use-distributed-optimizer --optimizer-cpu-offload --optimizer-offload-fraction 0.5 "
      "--overlap-cpu-optimizer-d2h-h2d";
  const json m = ask({{"op", "config_import"}, {"format", "megatron"}, {"text", megatron}, {"vocab", 32000}});
  ASSERT_FALSE(m.contains("error")) << m.dump();
  EXPECT_EQ(m["request"]["parallel"]["offload_optimizer"], 0.5);
  EXPECT_EQ(m["request"]["parallel"]["zero"], 1);
}

TEST(Offload, TheCheckpointStillHoldsTheOffloadedState) {
  for (const std::string software : {"megatron-core", "deepspeed"}) {
    json request = llama70b(nullptr, software);
    request["op"] = "run";
    const json on = ask(request);
    request["parallel"]["offload_optimizer"] = 1;
    const json off = ask(request);
    ASSERT_FALSE(off.contains("error")) << off.dump();
    EXPECT_NEAR(off["checkpoint"]["size"].get<double>(), on["checkpoint"]["size"].get<double>(),
                1e-9 * on["checkpoint"]["size"].get<double>())
        << software;
  }
}

TEST(Offload, ThePlannerSearchesWithTheShareAndFindsWhatFitsOnlyOffloaded) {
  // Llama 3 70B on one node of 8 H100s under PyTorch FSDP: no configuration fits with the optimizer on the GPUs;
  // with it on the host, some do, each exactly what `step` answers for it.
  const json query = {{"op", "plan"},
                      {"model", "llama3-70b"},
                      {"hardware", "h100-sxm"},
                      {"cluster", {{"gpus", 8}}},
                      {"global_batch", 64},
                      {"software", "pytorch"},
                      {"top_k", 3}};
  const json without = ask(query);
  ASSERT_FALSE(without.contains("error")) << without.dump();
  EXPECT_TRUE(without["results"].empty()) << without["results"].dump();
  json offloaded = query;
  offloaded["offload_optimizer"] = 1;
  const json with = ask(offloaded);
  ASSERT_FALSE(with.contains("error")) << with.dump();
  ASSERT_FALSE(with["results"].empty());
  for (const json& r : with["results"]) {
    EXPECT_TRUE(r["fits"].get<bool>()) << r.dump();
    EXPECT_EQ(r["parallel"]["offload_optimizer"], 1) << r.dump();
    const json step = ask({{"op", "step"},
                           {"model", "llama3-70b"},
                           {"hardware", "h100-sxm"},
                           {"cluster", {{"gpus", 8}}},
                           {"parallel", r["parallel"]},
                           {"precision", r["precision"]},
                           {"software", "pytorch"}});
    ASSERT_FALSE(step.contains("error")) << step.dump();
    EXPECT_EQ(step["step_time"], r["step_time"]);
    EXPECT_EQ(step["memory_per_gpu"]["total"], r["memory_per_gpu"]);
  }
  // A chip whose host the presets do not describe is refused by name, as `step` refuses it.
  json tpu = offloaded;
  tpu["hardware"] = "tpu-v5p";
  tpu["software"] = "xla";
  const json refused = ask(tpu);
  ASSERT_TRUE(refused.contains("error")) << refused.dump();
  EXPECT_EQ(refused["error"]["field"], "offload_optimizer");
}

}  // namespace
