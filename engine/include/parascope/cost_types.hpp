/// The cost model's value types: what it is asked with beyond the run (Efficiency, Precision) and what it answers
/// (StepResult: the step's breakdown, per-axis traffic, memory per GPU). Its evaluator is parascope/cost.hpp.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "parascope/model.hpp"
#include "parascope/parallel.hpp"

namespace parascope {

/// The numeric format of the weight-matrix GEMMs. FP8 runs only those GEMMs in FP8 (TransformerEngine's recipe):
/// attention, element-wise kernels, communication of activations and the optimizer stay BF16/FP32.
enum class Precision { bf16, fp8 };

/// How an FP8 run scales its tensors (request field `fp8_recipe`, engine/API.md):
/// - `current`: per-tensor current scaling (Hopper's recipe): each cast is three kernels (amax, scale, cast).
/// - `delayed`: TransformerEngine's DelayedScaling (its only recipe before 2.2): the scale comes from the amax history
///   of earlier steps, so a cast is one kernel that records the amax as it writes.
/// - `mxfp8`: MXFP8 block scaling (Blackwell): one E8M0 scale per 32 elements, computed by the cast itself.
enum class Fp8Recipe { current, delayed, mxfp8 };

/// How close kernels and links get to their peaks, and what overlaps what. Every default is documented (with its
/// source) in engine/API.md under "step"; a request may override any of them. The kernel ceilings default to the
/// hardware preset's measured values (engine/data/hardware.json) and a `software` generation's settings; an
/// `efficiency` override beats both (detail::default_efficiency builds the defaults).
struct Efficiency {
  double gemm_max = 0.8;          ///< fraction of BF16 peak a large, well-shaped dense BF16 GEMM reaches
  double gemm_max_fp8 = 0.8;      ///< fraction of FP8 peak a large FP8 GEMM reaches
  int compute_units = 0;          ///< SMs/CUs the GEMM tiles are spread over (wave quantization); 0 = none
  double kernel_overhead = 2e-6;  ///< seconds per kernel launch: the one calibration constant (engine/API.md)
  double flash_attention_efficiency = 0.55;  ///< fraction of BF16 peak of the fused attention kernel, fwd+bwd
  double memory_efficiency = 0.8;            ///< fraction of HBM bandwidth memory-bound kernels reach
  double link_efficiency = 0.8;              ///< fraction of a link's bandwidth NCCL collectives reach (busbw / peak)
  bool flash_attention = true;               ///< fused attention: no s×s scores in memory, causal blocks skipped
  double tp_overlap = 0.0;                   ///< fraction of tensor-parallel communication hidden behind compute
  bool tp_comm_overlap = false;              ///< TransformerEngine's pipelined TP overlap: all but 1/tp of it hidden
  /// With sequence parallelism, each column-parallel GEMM keeps its input sharded and all-gathers it again in the
  /// backward for its weight gradient, two more all-gathers per layer, waited for unless tp_async_shards hides them
  /// (nanotron's tp_recompute_allgather, on by default: parallel/tensor_parallel/functional.py at 2411b02).
  /// Megatron-Core re-gathers too but behind the input-gradient GEMM (Korthikanti et al. 2022, Sec. 4.2.2): false.
  bool tp_backward_allgather = false;
  /// nanotron's tp_linear_async_communication (sequence parallel only): a column-parallel GEMM's all-gather runs
  /// beside the rank's own input shard's GEMM, its backward re-gather beside the input-gradient GEMM and its
  /// reduce-scatter beside the weight-gradient GEMM; a row-parallel GEMM's backward gathers the output gradient
  /// beside its own shard's input-gradient GEMM; the row-parallel forward's reduce-scatter is waited for
  /// (_ColumnLinearAsyncCommunication, _RowLinearAsyncCommunication at 2411b02).
  bool tp_async_shards = false;
  bool dp_overlap = true;  ///< gradient reduction overlapped with the last microbatch's backward
  /// ZeRO 1's parameter all-gather after the optimizer step runs behind the next step's forward, layer by layer
  /// (Megatron-Core's --overlap-param-gather); false: inside the optimizer step, waited for (nanotron's
  /// ZeroDistributedOptimizer.step and torch's ZeroRedundancyOptimizer.step gather before they return). ZeRO 2 and 3
  /// are not affected: under `pytorch` they are FSDP, which gathers layer by layer in the forward.
  bool param_gather_overlap = true;
  double ep_overlap = 0.0;        ///< fraction of expert all-to-all hidden behind compute
  double grad_reduce_bytes = 4;   ///< bytes per gradient element in the data-parallel reduction (fp32 main grads)
  double router_imbalance = 1.0;  ///< most loaded expert rank's tokens over the mean (1 = perfectly balanced)
  /// Host seconds per kernel issued for one local expert (its GEMMs and its inputs' FP8 quantization, forward and
  /// backward) that the GPU waits for when they are launched one by one after the dropless dispatcher's
  /// device-to-host sync (engine/API.md, "Experts").
  double expert_launch_overhead = 0.0;
  /// Bytes per weight element each weight-gradient GEMM moves to accumulate into the fp32 main gradient, per
  /// microbatch (read + write; the first microbatch of a step only writes). 8 for megatron-core's fused
  /// accumulation, 0 (not charged) for the other generations (engine/API.md, Kernels).
  double wgrad_accumulation_bytes = 0.0;
  bool bubble_kernel_resident = true;  ///< a stage waiting in the bubble sits in a posted receive kernel
  // ---- What the framework keeps in memory beyond the model's states (engine/API.md, "Memory") ----
  /// Bytes per parameter of a second, bf16 gradient beside the fp32 one, kept at ZeRO 0 and 1: autograd writes
  /// `.grad` in the parameter's dtype and the optimizer's fp32 gradients are a copy (pytorch: 2); Megatron-Core's
  /// weight-gradient GEMM accumulates straight into its fp32 main_grad buffer (0).
  double grad_copy_bytes = 0;
  /// Bytes per parameter of PyTorch DDP's gradient buckets, kept whole at ZeRO 0 and 1 when the data-parallel group
  /// has more than one GPU: the Reducer allocates flat bucket tensors in the parameters' dtype covering every
  /// gradient and, unless gradient_as_bucket_view is set (off by default), copies `.grad` into them
  /// (torch/csrc/distributed/c10d/reducer.cpp, initialize_buckets; pytorch/pytorch PR #41954 measured the view
  /// saving "~1GB" of peak memory on a ~1 GB-parameter model). pytorch: 2; stacks with their own buffers: 0.
  double ddp_bucket_bytes = 0;
  /// Host DRAM bytes the offloaded Adam step moves per parameter (offload_optimizer > 0). One fused pass reads the fp32
  /// weight, momentum, variance and gradient and writes the first three: 28, as torch's fused CPU AdamW does
  /// (megatron-core: megatron/core/optimizer/__init__.py at d086a2e builds its host optimizer with fused=True);
  /// DeepSpeed's CPUAdam also writes the fp16/bf16 copy (Ren et al. 2021 Sec. 5.1): 30. torch.optim.AdamW's default
  /// on CPU tensors is the single-tensor path, one pass per operation: weight decay 8, the momentum's lerp 12, the
  /// variance's mul and addcmul 8 + 12, sqrt 8, the bias correction 8, + eps 8, addcdiv 16: 80 (the other stacks).
  double host_adam_bytes = 80;
  /// Megatron-Core's hybrid optimizer keeps the fp32 main weights on the GPU (the distributed optimizer's shard) and
  /// copies the host's updated fp32 copy back into them (4 bytes a parameter each way and held): true. ZeRO-Offload
  /// keeps the fp32 master on the host and sends back the bf16 weights (2 bytes): false.
  bool offload_master_on_gpu = false;
  /// Bytes per logit alive at the loss (last stage, one microbatch): Megatron's vocab-parallel cross-entropy casts
  /// the bf16 logits to fp32 and exponentiates in place (2 + 4 = 6); PyTorch's `cross_entropy(pred.float(), …)` keeps
  /// the bf16 logits, their fp32 copy and the fp32 log-softmax it saves (2 + 4 + 4 = 10).
  double loss_bytes_per_logit = 6;
  /// Bytes per logit alive while the loss runs backward (the transient is the larger of the two): Megatron's
  /// cross-entropy writes its gradient in place over the saved softmax (6, as forward). PyTorch's eager
  /// `cross_entropy(pred.float(), …)` holds three fp32 tensors there, the saved log-softmax, nll_loss's dense
  /// gradient and log_softmax_backward's output (3 × 4 = 12), torchtitan having freed the bf16 logits (`del pred`
  /// before backward, train.py) and the fp32 copy being needed by no backward. Default: as loss_bytes_per_logit when
  /// a request gives that and not this.
  double loss_backward_bytes_per_logit = 6;
  /// Bytes per logit the loss adds at its peak when tp > 1 splits the vocabulary: PyTorch's loss_parallel
  /// (torch/distributed/tensor/parallel/loss.py, `_log_softmax`) decomposes the log-softmax into element-wise ops
  /// and holds the fp32 shifted logits and exp's fp32 output beside the fp32 input, where aten's fused kernel writes
  /// one fp32 output: +4 (pytorch). Megatron's vocab-parallel cross-entropy works in place: 0.
  double loss_parallel_extra_bytes = 0;
  /// HBM bytes per logit the loss moves in its forward, after the output GEMM has written the bf16 logits, counted from
  /// the stack's code: each element-wise op reads its inputs and writes its output once, each reduction over the
  /// vocabulary reads its input once. Megatron's and nanotron's vocab-parallel cross-entropy on the fp32 cast (cast
  /// 2 + 4, max 4, subtract 4 + 4, exp 4 + 4, sum 4, divide 4 + 4 = 38); PyTorch's eager cross_entropy(pred.float())
  /// (cast 6, log-softmax's max and sum passes 4 + 4, its output 4 + 4 = 22); 8 where a stack fuses the loss (the
  /// engine's generic rule: the logits read and written once in fp32).
  double loss_traffic_bytes_per_logit = 8;
  /// The same for the loss's backward: Megatron's and nanotron's in-place multiply by the output gradient (4 + 4) and
  /// the cast back to bf16 (4 + 2) = 14; PyTorch's nll_loss_backward's zero-filled dense gradient (4), log-softmax's
  /// backward (its sum pass 4, then 4 + 4 read and 4 written) and the cast back (4 + 2) = 26; 12 fused (1.5 × 8, as
  /// the layers' element-wise backward).
  double loss_backward_traffic_bytes_per_logit = 12;
  /// PyTorch eager element-wise kernels: RMSNorm and rotary upcast to fp32 and run op by op (reads, writes and saved
  /// fp32 intermediates), SwiGLU as silu then multiply. False: fused kernels (TransformerEngine, torch.compile).
  bool eager_elementwise = false;
  /// With eager_elementwise: RMSNorm as one fused kernel all the same (torchtitan's norm_type "fused_rmsnorm", a
  /// Triton kernel reading and writing bf16 and saving its input and the per-row rstd: no fp32 intermediates).
  bool fused_rmsnorm = false;
  /// FlashAttention's variable-length path behind a padding mask (flash_attn.bert_padding's unpad_input and
  /// pad_input, as llm-foundry's flash_attn_fn calls them): Q, K and V gathered out of the padded batch and the output
  /// scattered back, and the mirror copies in the backward (layer_work.cpp).
  bool unpadded_attention = false;
  /// Q, K and V as three GEMMs and SwiGLU's gate and up as two, where Megatron-Core fuses each set into one GEMM
  /// (torchtitan's and Hugging Face's Llama: wq, wk, wv, w1, w3 are separate nn.Linear layers).
  bool split_projections = false;
  /// FP8 runs keep the weight GEMMs' inputs for the backward as their FP8 casts (1 byte), as TransformerEngine's
  /// Linear and LayerNormLinear do (megatron-core: true).
  bool fp8_saves_gemm_inputs = false;
  /// Bytes per weight element, per microbatch, of a separate gradient-accumulation pass at ZeRO 0–2 (reading the
  /// bf16 gradient, reading and writing the fp32 accumulator: 2 + 4 + 4), for frameworks whose GEMM does not
  /// accumulate (pytorch: 10; megatron-core does it inside the GEMM: wgrad_accumulation_bytes).
  double grad_accumulation_bytes = 0;
  /// Share of the peak's dynamic bytes (activations and transients) a caching allocator holds on top of them
  /// (reserved − allocated at the peak).
  double allocator_reserve = 0;
  /// Elements of the flat bucket a framework's gradient reduction allocates after the pipeline flush (DeepSpeed:
  /// 500 M), each grad_reduce_bytes wide, at most the stage's gradients: the caching allocator cannot carve it out of
  /// the activations' freed blocks, so the device's reserved memory grows by it (memory_model.cpp). 0: none.
  double reduce_bucket_elements = 0;
  /// Device bytes outside the framework's allocator: the CUDA context (lazily loaded kernels; eagerly loaded for the
  /// 2021–2022 stacks).
  double runtime_context_bytes = 0;
  /// NCCL's buffers of one connection on every channel: a communicator the GPU is in holds one such set (its ring),
  /// or with nccl_connects_trees 3 (2 in a two-GPU communicator); one communicator per parallel axis of size > 1,
  /// and those below (memory_model.cpp, communicator_buffer_sets).
  double nccl_buffer_bytes = 0;
  /// NCCL's NVLink SHARP buffers per GPU of a communicator on one node (nHeads): a communicator with more than two
  /// of its GPUs on an NVSwitch node of a chip with CUDA multicast (nvlink_multicast) allocates this many bytes times
  /// that count on each of them (memory_model.cpp, nvls_bytes). 0: NVLS off (NCCL_NVLS_ENABLE=0) or not available.
  double nvls_buffer_bytes = 0;
  /// NCCL before 2.22: every communicator connects its rings and its trees at init (the 2021–2022 stacks, and the
  /// PyTorch-native ones on PyTorch 2.5–2.6's NCCL 2.21.5).
  bool nccl_connects_trees = false;
  /// A communicator over every GPU of the job: the stack runs a collective on torch's default process group (a
  /// barrier at start-up), so NCCL builds it beside the parallel groups' (memory_model.cpp, communicators).
  bool world_communicator = false;
  /// Pipeline sends and receives as unbatched torch.distributed.send/recv, each neighbour pair then a two-rank
  /// communicator of its own beside the pipeline group (memory_model.cpp, communicators; DeepSpeed's pipeline engine).
  bool pair_communicators = false;
  /// A model-parallel group of the stack's own over each replica's tp·pp GPUs and, with tp > 1 in a pipeline, a
  /// tensor group beside the model's for the partitioned activations it passes between stages (DeepSpeed's grid).
  bool model_group_communicators = false;
  /// SMs a collective running under compute takes from it (its channels, one CTA each): hidden communication
  /// slows the kernels it hides behind by the share nccl_sms / compute_units of its own time.
  double nccl_sms = 0;
  AttentionFlops attention = AttentionFlops::full;  ///< the FLOP convention MFU counts (PaLM: full)
  Precision precision = Precision::bf16;            ///< the weight GEMMs' format (request field `precision`)
  /// How FP8 tensors are scaled (request field `fp8_recipe`; kernel_model.cpp: expert_kernels, fp8_cast_bytes).
  Fp8Recipe fp8_recipe = Fp8Recipe::current;
  /// The norm in front of the QKV and FC1 GEMMs hands them their FP8 input itself (TransformerEngine's
  /// LayerNormLinear, megatron-core) instead of a bf16 output that a cast reads again (kernel_model.cpp,
  /// fp8_cast_bytes).
  bool fp8_norm_quantizes = false;
  /// Sequence parallelism's all-gathers carry FP8 in FP8 runs: TransformerEngine quantizes the column-parallel
  /// GEMMs' inputs and the row-parallel GEMMs' output gradients before gathering them (megatron-core;
  /// layer_comm.cpp).
  bool fp8_gathers = false;
};

/// One parallel axis's communication in one step, as seen by one GPU.
struct AxisTraffic {
  Axis axis = Axis::data;
  std::string splits;          ///< what the axis cuts: "batch", "weight matrices", "layers", "experts", "sequence"
  std::string collective;      ///< the collective(s) it adds, in words
  double count = 0;            ///< collectives per step (per GPU)
  double bytes_per_gpu = 0;    ///< bytes each GPU sends per step on this axis
  bool inter = false;          ///< true: the group crosses nodes, so the network carries it
  std::string link;            ///< the carrying link's name
  double time = 0;             ///< seconds per step on that link, were nothing overlapped
  double hidden_fraction = 0;  ///< 0..1 of `time` hidden behind compute
};

/// Seconds per step, summing to step_time.
struct StepBreakdown {
  double compute = 0;       ///< GEMMs and attention math, recomputation included
  double memory_bound = 0;  ///< element-wise kernels bound by HBM bandwidth (norms, activations, softmax, dropout)
  double tp_comm = 0, cp_comm = 0, pp_comm = 0, dp_comm = 0, ep_comm = 0;  ///< exposed communication per axis
  double bubble = 0;                                                       ///< pipeline fill and drain
  double optimizer = 0;                                                    ///< the Adam update (memory-bound)
  double other = 0;  ///< stages waiting on the slowest stage (uneven layers, logits on the last stage)
};

/// Bytes per GPU at its peak (the most loaded pipeline stage). total = weights + gradients + optimizer + activations
/// + transient + allocator_reserve + runtime: what the device must hold for the run to start and run.
struct MemoryPerGpu {
  double weights = 0, gradients = 0, optimizer = 0, activations = 0;
  double transient = 0;          ///< at the peak: the loss's logits (last stage) or one layer's backward workspace
  bool peak_at_loss = false;     ///< the transient is the loss's (else a layer's backward)
  double allocator_reserve = 0;  ///< held by the caching allocator beyond the allocated bytes
  double runtime = 0;            ///< outside the allocator: CUDA context, NCCL buffers
  double total = 0;
  double host = 0;  ///< on the host, not in total: the offloaded optimizer's fp32 weights, moments and gradients
  /// What PyTorch's allocator reports at the peak (torch.cuda.max_memory_reserved): total − runtime.
  double reserved() const { return total - runtime; }
};

/// One step of the run, as the cost model answers it: time, throughput, MFU/HFU, where the time went, memory.
struct StepResult {
  double step_time = 0;
  double tokens_per_second = 0;
  double mfu = 0, hfu = 0;
  double flops_per_token = 0;           ///< model FLOPs (the MFU convention)
  double hardware_flops_per_token = 0;  ///< with recomputation
  std::string formula;
  StepBreakdown breakdown;
  /// The compute time split for the "where does the time go" bar: useful model FLOPs at peak, recomputation at peak,
  /// and the rest of compute (kernels below peak). useful_at_peak / step_time = mfu.
  double useful_at_peak = 0, recompute_at_peak = 0, kernel_inefficiency = 0;
  double dashboard_utilization = 0;  ///< fraction of the step some kernel is resident (what nvidia-smi reads)
  MemoryPerGpu memory;
  double memory_capacity = 0;  ///< the GPU's memory in bytes (0 = unknown)
  bool fits = true;
  std::int64_t microbatches = 0;  ///< per pipeline per step
  double pipeline_makespan = 0;   ///< seconds of the forward/backward schedule
  std::vector<AxisTraffic> axes;
  ParallelConfig parallel;                 ///< the split as evaluated (dp and schedule resolved)
  std::vector<std::int64_t> stage_layers;  ///< layers on each pipeline stage (stages.hpp)
};

}  // namespace parascope
