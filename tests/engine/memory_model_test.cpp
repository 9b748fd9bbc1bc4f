// The memory model's allocation-free path (cached layer split, one parameter count per call, only the stages that can
// bound) and the planner's (those stages and their parameters found once per pipeline shape) against the plain
// stage-by-stage model they replaced, bit for bit, on seeded random configurations.
#include "../../engine/src/memory_model.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <vector>

#include "../../engine/src/layer_work.hpp"
#include "../../engine/src/pipeline_detail.hpp"
#include "parascope/pipeline.hpp"
#include "parascope/presets.hpp"
#include "parascope/stages.hpp"

namespace {

using namespace parascope;
using namespace parascope::detail;

// The model as it was (memory_model.cpp before the fast path): every stage from stage_chunks, the parameters counted
// per stage, each kind of layer's activations from a copy of the run (with_layer_kind).
std::vector<StageLayerCounts> reference_kinds(const TrainingRun& run) {
  const std::vector<std::vector<Span>> chunks = stage_chunks(run.model.layers, run.parallel);
  std::vector<StageLayerCounts> out(chunks.size());
  for (std::size_t s = 0; s < chunks.size(); ++s) {
    for (const Span& chunk : chunks[s]) {
      out[s].layers += chunk.size();
      out[s].moe += run.model.moe_layers_in(chunk.first, chunk.end);
    }
  }
  return out;
}

MemoryPerGpu reference_states(const TrainingRun& run, const Efficiency& eff, const ParamsOnGpu& held) {
  const ParallelConfig& p = run.parallel;
  const double dp_group = double(p.dp * p.cp);
  const double expert_group = double(p.edp());
  const bool unsharded_weights = p.zero == 3 && !p.reshard_after_forward;
  const bool unsharded_grads = p.zero == 3 && p.pp > 1;
  auto per_gpu = [&](double bytes_per_param, int from, bool unsharded = false) {
    return p.zero >= from && !unsharded ? bytes_per_param * (held.dense / dp_group + held.expert / expert_group)
                                        : bytes_per_param * (held.dense + held.expert);
  };
  MemoryPerGpu mem;
  mem.weights = per_gpu(2.0, 3, unsharded_weights);
  if (p.zero == 3 && p.reshard_after_forward && held.layers > 0) {
    mem.weights += 2.0 * 2.0 * (held.dense + held.expert) / held.layers;
  }
  mem.gradients = per_gpu(eff.grad_reduce_bytes, 2, unsharded_grads);
  if (p.zero <= 1) mem.gradients += eff.grad_copy_bytes * (held.dense + held.expert);
  if (p.zero <= 1 && dp_group > 1) mem.gradients += eff.ddp_bucket_bytes * (held.dense + held.expert);
  mem.optimizer = per_gpu(12.0, 1);
  return mem;
}

/// The CUDA context and one NCCL buffer set per parallel group of more than one GPU.
double reference_runtime(const TrainingRun& run, const Efficiency& eff) {
  const ParallelConfig& p = run.parallel;
  int groups = (p.tp > 1) + (p.cp > 1) + (p.dp * p.cp > 1) + (p.pp > 1);
  if (run.model.is_moe()) groups += (p.ep > 1) + (p.edp() > 1 && p.edp() != p.dp * p.cp);
  return eff.runtime_context_bytes + groups * eff.nccl_buffer_bytes;
}

MemoryPerGpu reference_memory(const TrainingRun& run, const Efficiency& eff, const std::vector<int>& peaks) {
  const ParallelConfig& p = run.parallel;
  const double act_dense = activation_bytes_per_layer(with_layer_kind(run, false), eff);
  const double act_moe = activation_bytes_per_layer(with_layer_kind(run, true), eff);
  TrainingRun unrecomputed = run;
  unrecomputed.parallel.recompute = Recompute::none;
  const double whole_layer = std::max(activation_bytes_per_layer(with_layer_kind(unrecomputed, false), eff),
                                      activation_bytes_per_layer(with_layer_kind(unrecomputed, true), eff));
  const double rebuilt = p.recompute == Recompute::full ? whole_layer : 0.0;
  MemoryPerGpu best;
  const std::vector<StageLayerCounts> stages = reference_kinds(run);
  for (std::int64_t s = 0; s < p.pp; ++s) {
    const StageLayerCounts& n = stages[std::size_t(s)];
    MemoryPerGpu mem = reference_states(run, eff, params_on_stage(run, s, n));
    const double per_layer =
        n.layers > 0 ? (double(n.layers - n.moe) * act_dense + double(n.moe) * act_moe) / double(n.layers) : 0.0;
    if (std::size_t(s) < peaks.size()) {
      mem.activations = double(peaks[std::size_t(s)]) * double(n.layers) / double(p.vpp) * per_layer;
    }
    mem.activations += rebuilt;
    const double tokens = double(p.microbatch_size) * double(run.model.seq) / double(p.cp);
    const double per_logit = eff.loss_bytes_per_logit + (p.tp > 1 ? eff.loss_parallel_extra_bytes : 0.0);
    const double loss = s == p.pp - 1 ? per_logit * tokens * double(run.model.vocab) / double(p.tp) : 0;
    mem.transient = std::max(loss, whole_layer);
    const double allocated = mem.weights + mem.gradients + mem.optimizer + mem.activations + mem.transient;
    // The reserve on the dynamic bytes, at most what the device leaves free.
    mem.runtime = reference_runtime(run, eff);
    mem.allocator_reserve = eff.allocator_reserve * (mem.activations + mem.transient);
    if (run.hardware.memory_bytes > 0) {
      mem.allocator_reserve =
          std::min(mem.allocator_reserve, std::max(0.0, run.hardware.memory_bytes - allocated - mem.runtime));
    }
    mem.total = allocated + mem.allocator_reserve + mem.runtime;
    if (s == 0 || mem.total > best.total) best = mem;
  }
  return best;
}

template <class T>
T pick(std::mt19937_64& rng, std::initializer_list<T> values) {
  return *(values.begin() + std::uniform_int_distribution<std::size_t>(0, values.size() - 1)(rng));
}
std::int64_t between(std::mt19937_64& rng, std::int64_t lo, std::int64_t hi) {
  return std::uniform_int_distribution<std::int64_t>(lo, hi)(rng);
}

TEST(MemoryModel, FastPathEqualsTheStageByStageModelBitForBit) {
  std::mt19937_64 rng(20261201);
  const std::vector<ModelShape>& models = model_presets();
  int moe_runs = 0, interleaved_runs = 0, dualpipe_runs = 0;
  for (int i = 0; i < 4000; ++i) {
    TrainingRun run;
    run.model = models[std::size_t(between(rng, 0, std::int64_t(models.size()) - 1))];
    if (i % 7 == 0) run.model.bias = !run.model.bias;  // dropout masks or not
    ParallelConfig& p = run.parallel;
    const std::int64_t layers = run.model.layers;
    p.tp = pick<std::int64_t>(rng, {1, 2, 4, 8});
    p.dp = pick<std::int64_t>(rng, {1, 2, 3, 8, 64});
    p.cp = pick<std::int64_t>(rng, {1, 1, 2, 4});
    p.pp = between(rng, 1, std::min<std::int64_t>(layers, 128));
    if (i % 3 == 0) p.pp = pick<std::int64_t>(rng, {1, 2, 4, 8, 16});
    p.pp = std::min(p.pp, layers);
    p.schedule = pick(rng, {Schedule::gpipe, Schedule::one_f_one_b, Schedule::interleaved, Schedule::zb_h1,
                            Schedule::zb_h2, Schedule::dualpipe});
    p.vpp = 1;
    if (p.schedule == Schedule::interleaved && p.pp > 1) {
      std::vector<std::int64_t> vs;
      for (std::int64_t v = 2; p.pp * v <= layers; ++v) vs.push_back(v);
      if (!vs.empty()) p.vpp = vs[std::size_t(between(rng, 0, std::int64_t(vs.size()) - 1))];
    }
    if (p.pp > 2 && i % 5 == 0) {  // uneven ends
      const std::int64_t spare = layers - p.pp;
      if (spare > 2) {
        p.first_stage_layers = between(rng, 0, std::min<std::int64_t>(spare / 2, 6));
        p.last_stage_layers = between(rng, 0, std::min<std::int64_t>(spare / 2, 6));
      }
    }
    if (run.model.is_moe()) {
      std::vector<std::int64_t> eps;
      for (std::int64_t ep = 1; ep <= run.model.experts; ++ep) {
        if (run.model.experts % ep == 0 && (p.dp * p.cp) % ep == 0) eps.push_back(ep);
      }
      p.ep = eps[std::size_t(between(rng, 0, std::int64_t(eps.size()) - 1))];
      p.etp = i % 2 == 0 ? p.tp : 0;
      ++moe_runs;
    }
    p.microbatch_size = pick<std::int64_t>(rng, {1, 2, 3, 4, 16});
    p.global_batch = p.dp * p.microbatch_size * between(rng, 1, 300);
    p.recompute = pick(rng, {Recompute::none, Recompute::selective, Recompute::full});
    p.sequence_parallel = p.tp > 1 && between(rng, 0, 1) == 1;
    p.zero = int(between(rng, 0, 3));
    p.reshard_after_forward = between(rng, 0, 1) == 1;
    Efficiency eff;
    eff.grad_reduce_bytes = pick(rng, {2.0, 4.0});
    eff.flash_attention = between(rng, 0, 3) != 0;
    eff.grad_copy_bytes = pick(rng, {0.0, 2.0});
    eff.ddp_bucket_bytes = pick(rng, {0.0, 2.0});
    eff.loss_bytes_per_logit = pick(rng, {6.0, 10.0});
    eff.loss_parallel_extra_bytes = pick(rng, {0.0, 4.0});
    eff.eager_elementwise = between(rng, 0, 1) == 1;
    eff.allocator_reserve = pick(rng, {0.0, 0.13});
    eff.runtime_context_bytes = pick(rng, {0.0, 4e8});
    eff.nccl_buffer_bytes = pick(rng, {0.0, 3e8});
    interleaved_runs += p.vpp > 1;
    dualpipe_runs += p.schedule == Schedule::dualpipe;

    // The activation sets in flight: the schedule's floor (what the planner passes), random counts (ties and any
    // order: what a timed schedule may give), or fewer than the stages.
    std::vector<int> peaks;
    const int mode = int(between(rng, 0, 2));
    if (mode == 0) {
      PipelineSpec spec;
      spec.schedule = p.schedule;
      spec.stages = int(p.pp);
      spec.microbatches = int(std::min<std::int64_t>(p.microbatches(), 2 * p.pp + 3));
      if (p.schedule == Schedule::dualpipe) spec.microbatches += spec.microbatches % 2;  // DualPipe: even counts
      spec.chunks = int(p.vpp);
      spec.times = default_times(spec.schedule);
      if (!pipeline_refusal(spec)) peaks = peak_activations_floor(spec);
    }
    if (mode != 0 || peaks.empty()) {
      peaks.resize(std::size_t(mode == 1 ? p.pp : between(rng, 0, p.pp)));
      for (int& n : peaks) n = int(between(rng, 0, 4));
    }
    const MemoryPerGpu want = reference_memory(run, eff, peaks);
    PipelineMetrics metrics;
    metrics.peak_activations = peaks;
    // The planner's path: the stages to count and their parameters found once per pipeline shape (here from a run
    // with another recompute mode, sequence parallelism and ZeRO stage, which must not change them).
    TrainingRun other = run;
    other.parallel.recompute = p.recompute == Recompute::full ? Recompute::none : Recompute::full;
    other.parallel.sequence_parallel = !p.sequence_parallel && p.tp > 1;
    other.parallel.zero = 3 - p.zero;
    CountedStages counted;
    counted_stages(other, peaks.data(), peaks.size(), count_params(run.model), counted);
    // And the activation bytes per layer from a run with another pipeline and ZeRO stage.
    TrainingRun unpiped = run;
    unpiped.parallel.pp = 1;
    unpiped.parallel.vpp = 1;
    unpiped.parallel.schedule = Schedule::gpipe;
    unpiped.parallel.zero = 3 - p.zero;
    const LayerActivations act = layer_activations(unpiped, eff);
    for (int again = 0; again < 3; ++again) {  // the second time from the cached layer split
      const MemoryPerGpu got = again == 0   ? memory_per_gpu(run, eff, metrics)
                               : again == 1 ? memory_per_gpu(run, eff, peaks.data(), peaks.size())
                                            : memory_per_gpu(run, eff, peaks.data(), peaks.size(), counted, act);
      SCOPED_TRACE("run " + std::to_string(i) + " " + run.model.id + " pp " + std::to_string(p.pp) + " vpp " +
                   std::to_string(p.vpp) + " tp " + std::to_string(p.tp) + " zero " + std::to_string(p.zero));
      EXPECT_EQ(got.weights, want.weights);
      EXPECT_EQ(got.gradients, want.gradients);
      EXPECT_EQ(got.optimizer, want.optimizer);
      EXPECT_EQ(got.activations, want.activations);
      EXPECT_EQ(got.transient, want.transient);
      EXPECT_EQ(got.allocator_reserve, want.allocator_reserve);
      EXPECT_EQ(got.runtime, want.runtime);
      EXPECT_EQ(got.total, want.total);
    }
    const std::vector<StageLayerCounts> kinds = stage_layer_kinds(run), expected = reference_kinds(run);
    ASSERT_EQ(kinds.size(), expected.size());
    for (std::size_t s = 0; s < kinds.size(); ++s) {
      EXPECT_EQ(kinds[s].layers, expected[s].layers);
      EXPECT_EQ(kinds[s].moe, expected[s].moe);
    }
    if (HasFailure()) break;
  }
  EXPECT_GT(moe_runs, 200);
  EXPECT_GT(interleaved_runs, 100);
  EXPECT_GT(dualpipe_runs, 200);
}

TEST(MemoryModel, ActivationBytesOfOneKindOfLayerEqualTheCopiedRunsBitForBit) {
  for (const ModelShape& model : model_presets()) {
    for (const Recompute r : {Recompute::none, Recompute::selective, Recompute::full}) {
      TrainingRun run;
      run.model = model;
      run.parallel.tp = 4;
      run.parallel.cp = 2;
      run.parallel.microbatch_size = 2;
      run.parallel.recompute = r;
      Efficiency eff;
      eff.flash_attention = r != Recompute::selective;
      EXPECT_EQ(activation_bytes_per_layer(model, run.parallel, eff, 0.0),
                activation_bytes_per_layer(with_layer_kind(run, false), eff))
          << model.id;
      EXPECT_EQ(activation_bytes_per_layer(model, run.parallel, eff, model.is_moe() ? 1.0 : 0.0),
                activation_bytes_per_layer(with_layer_kind(run, true), eff))
          << model.id;
    }
  }
}

}  // namespace
