// JSON for the cost model: efficiency overrides in, step time / breakdown / memory / traffic out.
#include "step_json.hpp"

#include <algorithm>

#include "json_out.hpp"
#include "kernel_model.hpp"
#include "names.hpp"
#include "parascope/cost.hpp"
#include "parascope/pipeline.hpp"
#include "parascope/stages.hpp"
#include "run_json.hpp"

namespace parascope::detail {

namespace {

// Efficiencies divide the work: at least 1 %, so no time derived from them overflows (1e-300 would make ∞).
constexpr double kMinEfficiency = 0.01;

/// Overrides on top of `e` (the hardware's and software generation's defaults): an override beats both.
Efficiency read_efficiency(RequestReader& r, Efficiency e, const Hardware& hw) {
  e.gemm_max = r.number_or("gemm_max", e.gemm_max, kMinEfficiency, 1);
  e.gemm_max_fp8 = r.number_or("gemm_max_fp8", e.gemm_max_fp8, kMinEfficiency, 1);
  e.compute_units = int(r.integer_or("compute_units", e.compute_units, 0, 100'000));
  e.kernel_overhead = r.number_or("kernel_overhead", e.kernel_overhead, 0, 1e-3);
  // The attention kernel by name (its measured value on this chip), or its efficiency as a number: one or the other.
  const bool named = r.has("attention_kernel");
  const std::string kernel = r.choice_or("attention_kernel", "fused", attention_kernel_ids());
  if (named && r.has("flash_attention_efficiency")) {
    refuse(code::conflicting_fields,
           {"give attention_kernel or flash_attention_efficiency, not both: the kernel's name sets its efficiency"},
           r.path_of("attention_kernel"));
  }
  if (named) e.flash_attention_efficiency = attention_kernel_efficiency(hw, kernel);
  e.flash_attention_efficiency =
      r.number_or("flash_attention_efficiency", e.flash_attention_efficiency, kMinEfficiency, 1);
  e.memory_efficiency = r.number_or("memory_efficiency", e.memory_efficiency, kMinEfficiency, 1);
  e.link_efficiency = r.number_or("link_efficiency", e.link_efficiency, kMinEfficiency, 1);
  e.flash_attention = r.boolean_or("flash_attention", e.flash_attention);
  if (named && !e.flash_attention) {
    refuse(code::inconsistent, {"attention_kernel names a fused kernel, but flash_attention false runs it unfused"},
           r.path_of("attention_kernel"));
  }
  e.tp_overlap = r.number_or("tp_overlap", e.tp_overlap, 0, 1);
  e.tp_comm_overlap = r.boolean_or("tp_comm_overlap", e.tp_comm_overlap);
  e.tp_backward_allgather = r.boolean_or("tp_backward_allgather", e.tp_backward_allgather);
  e.tp_async_shards = r.boolean_or("tp_async_shards", e.tp_async_shards);
  e.dp_overlap = r.boolean_or("dp_overlap", e.dp_overlap);
  e.param_gather_overlap = r.boolean_or("param_gather_overlap", e.param_gather_overlap);
  e.ep_overlap = r.number_or("ep_overlap", e.ep_overlap, 0, 1);
  e.grad_reduce_bytes = r.number_or("grad_reduce_bytes", e.grad_reduce_bytes, 0, 8, true);
  e.router_imbalance = r.number_or("router_imbalance", e.router_imbalance, 1, 1000);
  e.expert_launch_overhead = r.number_or("expert_launch_overhead", e.expert_launch_overhead, 0, 1e-2);
  e.wgrad_accumulation_bytes = r.number_or("wgrad_accumulation_bytes", e.wgrad_accumulation_bytes, 0, 64);
  e.bubble_kernel_resident = r.boolean_or("bubble_kernel_resident", e.bubble_kernel_resident);
  e.grad_copy_bytes = r.number_or("grad_copy_bytes", e.grad_copy_bytes, 0, 16);
  e.ddp_bucket_bytes = r.number_or("ddp_bucket_bytes", e.ddp_bucket_bytes, 0, 16);
  e.host_adam_bytes = r.number_or("host_adam_bytes", e.host_adam_bytes, 1, 1024);
  e.offload_master_on_gpu = r.boolean_or("offload_master_on_gpu", e.offload_master_on_gpu);
  e.loss_bytes_per_logit = r.number_or("loss_bytes_per_logit", e.loss_bytes_per_logit, 0, 64);
  // A loss of the request's own (its forward bytes given) has the backward it says, unless it says otherwise.
  const double backward = r.has("loss_bytes_per_logit") ? e.loss_bytes_per_logit : e.loss_backward_bytes_per_logit;
  e.loss_backward_bytes_per_logit = r.number_or("loss_backward_bytes_per_logit", backward, 0, 64);
  e.loss_parallel_extra_bytes = r.number_or("loss_parallel_extra_bytes", e.loss_parallel_extra_bytes, 0, 64);
  e.loss_traffic_bytes_per_logit = r.number_or("loss_traffic_bytes_per_logit", e.loss_traffic_bytes_per_logit, 0, 1024);
  e.loss_backward_traffic_bytes_per_logit =
      r.number_or("loss_backward_traffic_bytes_per_logit", e.loss_backward_traffic_bytes_per_logit, 0, 1024);
  e.eager_elementwise = r.boolean_or("eager_elementwise", e.eager_elementwise);
  e.fused_rmsnorm = r.boolean_or("fused_rmsnorm", e.fused_rmsnorm);
  e.unpadded_attention = r.boolean_or("unpadded_attention", e.unpadded_attention);
  e.split_projections = r.boolean_or("split_projections", e.split_projections);
  e.fp8_saves_gemm_inputs = r.boolean_or("fp8_saves_gemm_inputs", e.fp8_saves_gemm_inputs);
  e.grad_accumulation_bytes = r.number_or("grad_accumulation_bytes", e.grad_accumulation_bytes, 0, 64);
  e.allocator_reserve = r.number_or("allocator_reserve", e.allocator_reserve, 0, 1);
  e.reduce_bucket_elements = r.number_or("reduce_bucket_elements", e.reduce_bucket_elements, 0, 1e12);
  e.runtime_context_bytes = r.number_or("runtime_context_bytes", e.runtime_context_bytes, 0, 1e11);
  e.nccl_buffer_bytes = r.number_or("nccl_buffer_bytes", e.nccl_buffer_bytes, 0, 1e11);
  e.nvls_buffer_bytes = r.number_or("nvls_buffer_bytes", e.nvls_buffer_bytes, 0, 1e11);
  e.nccl_connects_trees = r.boolean_or("nccl_connects_trees", e.nccl_connects_trees);
  e.world_communicator = r.boolean_or("world_communicator", e.world_communicator);
  e.pair_communicators = r.boolean_or("pair_communicators", e.pair_communicators);
  e.model_group_communicators = r.boolean_or("model_group_communicators", e.model_group_communicators);
  e.nccl_sms = r.number_or("nccl_sms", e.nccl_sms, 0, 100'000);
  r.finish();
  return e;
}

}  // namespace

StepRequest read_step_request(RequestReader& request) {
  StepRequest s;
  s.run = read_run(request);
  // Defaults: the chip's measured kernel ceilings, then what the software generation does; then the overrides.
  s.software = request.choice_or("software", "megatron-core", software_ids());
  s.efficiency = default_efficiency(s.run.hardware, s.software);
  // The pipeline split the stack draws: nanotron places its blocks by cost, its LM head weighed (stages.hpp).
  s.run.parallel.output_layer_weight = output_layer_weight(s.software, s.run.model);
  const bool fp8 = parse_precision(request.choice_or("precision", "bf16", precision_ids())) == Precision::fp8;
  if (fp8 && s.run.hardware.peak_flops_fp8 <= 0) {
    refuse(code::inconsistent,
           {"precision \"fp8\" needs FP8 tensor cores: the hardware gives no peak_flops_fp8 (",
            (s.run.hardware.id.empty() ? std::string("custom hardware") : s.run.hardware.id), ")"},
           "precision");
  }
  s.efficiency.precision = fp8 ? Precision::fp8 : Precision::bf16;
  // How FP8 tensors are scaled (engine/API.md, `fp8_recipe`): per-tensor current scaling (the default, Hopper's
  // recipe), delayed scaling (TransformerEngine before 2.2) or MXFP8 block scaling (Blackwell). Only FP8 runs have one.
  if (request.has("fp8_recipe") && !fp8) {
    refuse(code::inconsistent, {"fp8_recipe needs precision \"fp8\""}, "fp8_recipe");
  }
  const std::string recipe = request.choice_or("fp8_recipe", "current", fp8_recipe_ids());
  s.efficiency.fp8_recipe = recipe == "mxfp8"     ? Fp8Recipe::mxfp8
                            : recipe == "delayed" ? Fp8Recipe::delayed
                                                  : Fp8Recipe::current;
  // MXFP8 needs tensor cores that read one E8M0 scale per 32 elements: Blackwell's, not Hopper's (the hardware's
  // `fp8_block_scaling`; TransformerEngine's datatype and hardware support matrix).
  const auto& formats = s.run.hardware.fp8_block_scaling;
  if (recipe == "mxfp8" && std::find(formats.begin(), formats.end(), recipe) == formats.end()) {
    refuse(code::inconsistent,
           {"fp8_recipe \"", recipe, "\" needs tensor cores with ", recipe,
            " block scaling (Blackwell); the hardware's fp8_block_scaling does not list it (",
            (s.run.hardware.id.empty() ? std::string("custom hardware") : s.run.hardware.id),
            "): use \"current\" or \"delayed\""},
           "fp8_recipe");
  }
  request.accept("efficiency");
  if (request.has("efficiency")) {
    RequestReader e = request.object("efficiency");
    s.efficiency = read_efficiency(e, s.efficiency, s.run.hardware);
  }
  // torchtitan's per-op policy saves the fused attention's output (SDPA's flash or efficient kernel); an unfused
  // attention's matmuls would fall under its every-second-mm rule, which the engine does not count.
  if (s.run.parallel.recompute == Recompute::op && !s.efficiency.flash_attention) {
    refuse(code::inconsistent, {"recompute \"op\" needs a fused attention kernel (efficiency.flash_attention true)"},
           "efficiency.flash_attention");
  }
  s.efficiency.attention = parse_attention(request.choice_or("attention", "full", attention_ids()));
  return s;
}

namespace {

/// A schedule's refusal in the request's words: stages are parallel.pp, microbatches come from the global batch,
/// chunks are vpp, and an op time out of the pipeline's range is the model's work on this hardware.
RequestError in_request_terms(const PipelineError& e) {
  const char* field = "parallel.schedule";
  switch (e.knob) {
    case PipelineKnob::stages:
      field = "parallel.pp";
      break;
    case PipelineKnob::microbatches:
      field = "parallel.global_batch";
      break;
    case PipelineKnob::chunks:
      field = "parallel.vpp";
      break;
    case PipelineKnob::time_f:
    case PipelineKnob::time_b:
    case PipelineKnob::time_w:
    case PipelineKnob::time_comm:
      field = "hardware";
      break;
    case PipelineKnob::size:
      field = "parallel.global_batch";
      break;  // too many ops
    case PipelineKnob::forward_only:
      break;
  }
  return RequestError(e.code, "pipeline schedule: " + e.message, field);
}

/// DualPipe on one stage: refused as the "pipeline" op refuses it (an odd stage count pairs no ranks), so step, its
/// check and the planner never offer a schedule the bubble figure cannot draw. The cost model alone still times it.
void refuse_unpaired_dualpipe(const ParallelConfig& p) {
  if (p.schedule != Schedule::dualpipe || p.pp != 1) return;
  PipelineSpec spec;
  spec.schedule = Schedule::dualpipe;
  spec.stages = 1;
  spec.microbatches = 2;
  if (auto refused = pipeline_refusal(spec)) throw *refused;
}

}  // namespace

StepResult evaluate(const StepRequest& s) {
  try {
    refuse_unpaired_dualpipe(s.run.parallel);
    return evaluate_step(s.run, s.efficiency);
  } catch (const PipelineError& e) {
    throw in_request_terms(e);
  }
}

void check(const StepRequest& s) {
  try {
    refuse_unpaired_dualpipe(s.run.parallel);
    check_step(s.run, s.efficiency);
  } catch (const PipelineError& e) {
    throw in_request_terms(e);
  }
}

json axis_to_json(const AxisTraffic& a) {
  json out;
  put(out, "axis", axis_name(a.axis));
  put(out, "splits", a.splits);
  put(out, "collective", a.collective);
  put(out, "count", a.count);
  put(out, "bytes_per_gpu", a.bytes_per_gpu);
  put(out, "link", a.inter ? "inter" : "intra");
  put(out, "link_name", a.link);
  put(out, "time", a.time);
  put(out, "hidden_fraction", a.hidden_fraction);
  return out;
}

json step_to_json(const StepResult& r) {
  const StepBreakdown& b = r.breakdown;
  json out;
  put(out, "step_time", r.step_time);
  put(out, "tokens_per_second", r.tokens_per_second);
  put(out, "mfu", r.mfu);
  put(out, "hfu", r.hfu);
  put(out, "flops_per_token", r.flops_per_token);
  put(out, "hardware_flops_per_token", r.hardware_flops_per_token);
  put(out, "formula", r.formula);
  put(out, "microbatches", r.microbatches);
  put(out, "pipeline_makespan", r.pipeline_makespan);
  json& breakdown = put_object(out, "breakdown");
  put(breakdown, "compute", b.compute);
  put(breakdown, "memory_bound", b.memory_bound);
  put(breakdown, "tp_comm", b.tp_comm);
  put(breakdown, "cp_comm", b.cp_comm);
  put(breakdown, "pp_comm", b.pp_comm);
  put(breakdown, "bubble", b.bubble);
  put(breakdown, "dp_comm", b.dp_comm);
  put(breakdown, "ep_comm", b.ep_comm);
  put(breakdown, "optimizer", b.optimizer);
  put(breakdown, "other", b.other);
  json& split = put_object(out, "compute_split");
  put(split, "useful_at_peak", r.useful_at_peak);
  put(split, "recompute_at_peak", r.recompute_at_peak);
  put(split, "kernel_inefficiency", r.kernel_inefficiency);
  put(out, "dashboard_utilization", r.dashboard_utilization);
  json& memory = put_object(out, "memory_per_gpu");
  put(memory, "weights", r.memory.weights);
  put(memory, "gradients", r.memory.gradients);
  put(memory, "optimizer_states", r.memory.optimizer);
  put(memory, "activations", r.memory.activations);
  put(memory, "transient", r.memory.transient);
  put(memory, "allocator_reserve", r.memory.allocator_reserve);
  put(memory, "runtime", r.memory.runtime);
  put(memory, "total", r.memory.total);
  put(memory, "framework_reserved", r.memory.reserved());
  put(memory, "peak_moment", r.memory.peak_at_loss ? "loss" : "layer backward");
  if (r.parallel.offload_optimizer > 0) put(memory, "host_offloaded", r.memory.host);
  if (r.parallel.zero == 3 && r.parallel.pp > 1) {
    // Why ZeRO-3 can hold more than ZeRO-2 here (memory_model.cpp, states_on_gpu).
    put(memory, "note",
        r.parallel.reshard_after_forward
            ? "with a pipeline, ZeRO-3 keeps each microbatch's gradients unsharded until the last microbatch's "
              "backward (torch.distributed.pipelining), so it can hold more than ZeRO-2"
            : "with a pipeline, ZeRO-3 keeps the gathered weights and unsharded gradients from the first microbatch "
              "to the last (reshard_after_forward false, torchtitan's default with pp > 1), so it holds more than "
              "ZeRO-2; reshard_after_forward true trades that memory for two gathers per layer and microbatch");
  }
  put(out, "memory_capacity", r.memory_capacity);
  put(out, "fits", r.fits);
  json& axes = put_array(out, "axes");
  for (const auto& a : r.axes) axes.push_back(axis_to_json(a));
  json& parallel = put_object(out, "parallel");
  const ParallelConfig& p = r.parallel;
  put(parallel, "dp", p.dp);
  put(parallel, "tp", p.tp);
  put(parallel, "pp", p.pp);
  put(parallel, "cp", p.cp);
  put(parallel, "ep", p.ep);
  put(parallel, "vpp", p.vpp);
  put(parallel, "microbatch_size", p.microbatch_size);
  put(parallel, "global_batch", p.global_batch);
  put(parallel, "schedule", schedule_id(p.schedule));
  put(parallel, "zero", p.zero);
  put(parallel, "sequence_parallel", p.sequence_parallel);
  put(parallel, "stage_layers", r.stage_layers);
  // Fields that apply only to some runs: MoE (etp, node-limited routing) and ZeRO-3 (resharding).
  if (p.etp > 0) put(parallel, "etp", p.etp);
  if (p.moe_max_nodes_per_token > 0) put(parallel, "moe_max_nodes_per_token", p.moe_max_nodes_per_token);
  if (p.zero == 3) put(parallel, "reshard_after_forward", p.reshard_after_forward);
  if (p.embedding_in_split) put(parallel, "account_for_embedding", true);
  if (p.loss_in_split) put(parallel, "account_for_loss", true);
  if (p.offload_optimizer > 0) put(parallel, "offload_optimizer", p.offload_optimizer);
  return out;
}

}  // namespace parascope::detail
