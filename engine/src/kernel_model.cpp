// Compute-kernel timing of one layer: GEMMs on their real shapes against the chip's measured ceilings, attention at
// the chip's fused-kernel efficiency, element-wise kernels at HBM speed, and a fixed cost per kernel launch.
#include "kernel_model.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <initializer_list>
#include <utility>

#include "exact_key.hpp"
#include "parascope/error.hpp"

namespace parascope::detail {

namespace {

constexpr double kBf16 = 2.0;  // bytes per BF16 element

/// The GEMM ceilings' one calibration constant (engine/API.md), one value per software stack family: the share of its
/// single-GPU best (MAMF) a chip's GEMMs hold in a training job of that stack, where every GPU of the node runs at once
/// and HBM, NVLink and the NICs share the power limit with the tensor cores, and where everything around the GEMMs the
/// engine does not model (host and allocator overheads, kernels beyond those it counts) shows as a lower share. Each is
/// fitted on its family's published runs (tests/fixtures/calibration-runs.jsonl, published-runs.jsonl) and validated
/// leave-one-source-out: tests/engine/loso_test.cpp refits it without each publication, predicts that publication and
/// prints the held-out error (engine/API.md, "Calibration"); it also checks that these values are the all-source fits.
/// Megatron-Core (NeMo 24.07, Megatron-Bridge 25.11/26.02 on H100/B200/GB200): 0.875 (0.90 until NeMo 24.07 was
/// costed with its delayed FP8 scaling, fp8_cast_bytes); on A100 0.869 × 0.875 = 0.76.
constexpr double kSustainedShare = 0.875;
/// Megatron-LM of 2021-22 (Narayanan et al. 2021, Korthikanti et al. 2022 on A100): 0.90.
constexpr double kSustainedShare2021 = 0.90;
/// Megatron-DeepSpeed (`deepspeed`; BLOOM's runs on A100, one publication: its held-out error uses every other
/// stack's fit): 0.75 (0.725 before the chronicle's tables of 02-25 to 02-28 joined and its runs before 02-28 were
/// costed with 16-bit gradients).
constexpr double kSustainedShareDeepSpeed = 0.75;
/// PyTorch-native stacks (torchtitan, llm-foundry, FSDP/DDP trainers: `pytorch`, `pytorch-compile`): 0.775 (0.675
/// until Hopper's FlashAttention-2 was timed as PyTorch's SDPA backend runs it, engine/data/hardware.json; 0.75 until
/// torchtitan's H100 runs were priced at their 500 W power limit, compute_clock).
constexpr double kSustainedSharePytorch = 0.775;

/// Host seconds per kernel issued for one local expert in Megatron-Core's dropless MoE (engine/API.md, "Experts"):
/// the all-to-all token dispatcher copies the tokens-per-expert counts to the host (a device-to-host sync, since the
/// all-to-all split sizes and TransformerEngine GroupedLinear's m_splits are host lists), and GroupedLinear then
/// issues each local expert's GEMMs and FP8 quantizations as separate kernels, one expert after another. After the
/// sync the host cannot run ahead, so the GPU waits for those launches whenever they take longer than the expert
/// GEMMs themselves. The engine's second calibration constant: fitted on one run, Qwen3-30B-A3B on 8 DGX-B200 GPUs
/// (Megatron-Bridge 25.11, MXFP8, 16 local experts, 4,096 tokens per microbatch: 10 kernels per expert, see
/// expert_kernels), where nearly all of the layer is this wait; checked on the same model on 16 H100s (FP8 current
/// scaling, 18 kernels per expert).
constexpr double kExpertLaunchOverhead = 45e-6;

/// Whether the recipe's FP8 cast is one kernel reading its bf16 input once: delayed scaling knows the scale before the
/// cast (the cast records the amax as it writes) and MXFP8 takes each 32-element block's scale from that block;
/// per-tensor current scaling needs the tensor's amax first, a read of its own.
bool cast_reads_once(const Efficiency& eff) { return eff.fp8_recipe != Fp8Recipe::current; }

/// Kernels issued per local expert per MoE layer and microbatch, forward and backward (TransformerEngine
/// GroupedLinear, fc1 and fc2 of the expert): the forward's 2 GEMMs and 2 input quantizations, the backward's 4 GEMMs
/// (dgrad, wgrad) and 2 output-gradient quantizations. A quantization is no kernel in BF16, one in MXFP8 (the block
/// scales come with the cast) and with delayed scaling (the scale is known before the cast, which records the amax),
/// and three with FP8 per-tensor current scaling: amax, scale from amax, cast
/// (Float8CurrentScalingQuantizer::quantize in transformer_engine/pytorch/csrc/quantizer.cpp: nvte_compute_amax,
/// nvte_compute_scale_from_amax, nvte_quantize_v2; "compute scale cannot be fused with quantize kernel").
double expert_kernels(const Efficiency& eff) {
  const double per_quantization = eff.precision != Precision::fp8 ? 0.0 : cast_reads_once(eff) ? 1.0 : 3.0;
  return 6.0 + 4.0 * per_quantization;
}

/// Where a GEMM's FP8 operand comes from: a bf16 tensor a cast kernel reads (`none`), or the norm in front of the
/// QKV and FC1 GEMMs when that norm quantizes its own output (Efficiency::fp8_norm_quantizes).
enum class CastSource { none, norm };

/// HBM bytes per element of quantizing one GEMM operand to FP8, plain and transposed (Hopper's FP8 GEMMs take both
/// operands K-major, so the weight gradient needs the transpose), beyond what its producer writes anyway.
/// - A cast of its own: per-tensor current scaling reads the bf16 tensor for its amax (2), again to cast (2) and
///   writes both copies (1 + 1): 6. Delayed scaling (the scale is known before the cast, the kernel records the
///   amax as it goes: transformer_engine 1.8 module/linear.py fp8_cast_transpose_fused, module/base.py
///   fp8_cast_transpose_bgrad_fused) and MXFP8 (each 32-element block's scale from that block) read once: 4.
/// - The QKV and FC1 inputs when TransformerEngine's LayerNormLinear quantizes in its norm: with current scaling
///   (TransformerEngine >= 2.2, pytorch/csrc/extensions/normalization.cpp, FUSED_NORM_AMAX_FP8) the norm records the
///   amax as it writes its bf16 output, then quantize_with_amax reads it once: 4. With delayed scaling
///   (transformer_engine 1.8 module/layernorm_linear.py: ln_out allocated as uint8 and written by the norm; the
///   backward's tex.fp8_transpose for the weight gradient) the norm writes 1 byte where it wrote 2, and the
///   backward transposes it (1 + 1): 1. MXFP8's norm is unfused unless NVTE_NORM_FWD_USE_CUDNN is set: 4.
double fp8_cast_bytes(const Efficiency& eff, CastSource source) {
  if (source == CastSource::norm && eff.fp8_norm_quantizes) return eff.fp8_recipe == Fp8Recipe::delayed ? 1.0 : 4.0;
  return cast_reads_once(eff) ? 4.0 : 6.0;
}

/// The CUDA context a PyTorch process holds on its GPU with CUDA >= 11.7's lazy module loading (PyTorch's default):
/// about 400 MB (pytorch/pytorch issue #109888, 2023-09-23, NVIDIA's answer; #107667: "~300MB"). Outside the
/// caching allocator: nvidia-smi counts it, torch.cuda.max_memory_reserved does not.
constexpr double kCudaContextBytes = 400e6;

/// The same context when every kernel image is loaded at start-up (CUDA < 11.7, before lazy loading): 1,573 MiB
/// on an A100 with PyTorch 1.11 / CUDA 11.5, BLOOM's stack, read with nvidia-smi after `torch.ones(1).cuda()`
/// (bigscience train/tr11-176B-ml/chronicles-prequel.md at 59a90ee: "40GB A100 takes 1573MiB for cuda kernels";
/// the PyTorch version in train/tr11-176B-ml/README.md: "pt-1.11.0 / cuda 11.5").
constexpr double kEagerCudaContextBytes = 1573.0 * 1024 * 1024;

/// DeepSpeed's gradient reduction bucket, in elements: 500,000,000 both for the pipeline engine's fallback all-reduce
/// (MEMORY_OPT_ALLREDUCE_SIZE, deepspeed/runtime/engine.py) and ZeRO 1/2's reduce bucket
/// (ZERO_OPTIMIZATION_REDUCE_BUCKET_SIZE_DEFAULT, deepspeed/runtime/zero/constants.py; v0.6.0).
constexpr double kDeepSpeedBucketElements = 500e6;

/// NCCL's buffers per communicator: per channel, one receive connection per ring with the three protocols' buffers,
/// LL 8·512·8·16 B = 512 KiB, LL128 120·640·8·8 B = 4.69 MiB and Simple 4 MiB (DEFAULT_LL_BUFFSIZE,
/// DEFAULT_LL128_BUFFSIZE, DEFAULT_BUFFSIZE in src/init.cc; NCCL_STEPS, NCCL_LL_*, NCCL_LL128_* in
/// src/include/device.h; NCCL 2.30.7), over 32 channels (half of MAXCHANNELS = 64): 295 MiB. A floor: trees, NVLS
/// and point-to-point peers add more (NVIDIA/nccl issue #864 saw 1.6 GB for one communicator with the context).
constexpr double kNcclBufferBytes = 32.0 * (512.0 * 1024 + 120.0 * 640 * 8 * 8 + 4.0 * 1024 * 1024);

/// NCCL's NVLink SHARP (NVLS) buffers per head, NCCL 2.21.5 (the NCCL PyTorch 2.5 and 2.6 wheels pin,
/// nvidia-nccl-cu12==2.21.5): a communicator with more than two GPUs on an NVSwitch node whose chip does CUDA
/// multicast (ncclNvlsInit: gpuCount > 2, CU_DEVICE_ATTRIBUTE_MULTICAST_SUPPORTED, NCCL_NVLS_ENABLE 2 by default)
/// allocates at init, on each of them, nvlsPerRankSize × nHeads with nHeads its GPUs on the node and nvlsPerRankSize =
/// NCCL_NVLS_NCHANNELS 16 × 2 × (NCCL_NVLS_CHUNKSIZE 128 KiB × NCCL_STEPS 8 + NVLS_MEM_ALIGN_SIZE 2 MiB)
/// (ncclNvlsSetup, src/transport/nvls.cc at v2.21.5-1): 96 MiB a head, 768 MiB for eight GPUs of a node. NCCL
/// 2.18–2.20 used the 4 MiB Simple buffer there (192 MiB a head); 2.22 drops the 2 MiB and sets it up when an NVLS
/// collective first runs (32 MiB a head).
constexpr double kNvlsHeadBytes = 16.0 * 2 * (128.0 * 1024 * 8 + 2.0 * 1024 * 1024);

/// SMs a collective takes from the kernels it hides behind: DeepSeek-V3 (Liu et al. 2024, Sec. 3.2.2) needed 20 of
/// the H800's 132 SMs to keep InfiniBand and NVLink busy in its overlapped all-to-all; NCCL runs one CTA per
/// channel on an SM of its own. Hidden communication of T seconds costs the kernels T·20/SMs.
constexpr double kNcclSms = 20;

/// The caching allocator's reserve at the peak, as a share of the bytes allocated then: PyTorch's
/// CUDACachingAllocator rounds large blocks to 2 MiB and cannot hand a freed block of one size to a request of
/// another without splitting, so reserved exceeds allocated. The memory model's one fitted constant: on the published
/// peak-memory measurements (torchtitan's max_reserved, BLOOM's), validated leave-one-source-out like the GEMM share
/// (tests/engine/loso_test.cpp; engine/API.md, "Memory"). 0.09 since the 2022 stacks' NCCL trees and DeepSpeed's
/// communicators are counted (0.11 with BLOOM's chronicle in full and neither; 0.07 before it, when its runs before
/// 02-28 were costed with fp32 gradients they did not have).
constexpr double kAllocatorReserve = 0.09;

/// Output tiles cuBLAS/CUTLASS pick between on Hopper and Ampere for large BF16/FP8 GEMMs (CUTLASS's default
/// threadblock shapes; NVIDIA Matrix Multiplication Background guide, "Tile quantization", "Wave quantization").
constexpr double kTiles[][2] = {{128, 128}, {128, 192}, {192, 128}, {128, 256}, {256, 128}};

/// Share of the launched tiles' work that is useful, for the best of the tile shapes: tiles cover ceil(m/tm)·ceil(n/tn)
/// blocks per group, and run in waves of `units` (one tile per compute unit at a time).
double tile_utilization(const GemmShape& s, int units) {
  double best = 0;
  for (const auto& tile : kTiles) {
    const double tm = tile[0], tn = tile[1];
    const double tiles = s.groups * std::ceil(s.m / tm) * std::ceil(s.n / tn);
    const double slots = units > 0 ? std::ceil(tiles / units) * units : tiles;
    best = std::max(best, s.groups * s.m * s.n / (slots * tm * tn));
  }
  return best;
}

/// Share of a tile's time spent in its main loop over k: CUTLASS's multistage mainloop steps through k in slices of
/// 128 bytes (threadblock tile K = 64 BF16 or 128 FP8 elements: CUTLASS's default K tiles, "bk=128 matches CUTLASS's
/// fp8 K tile", pytorch/helion PR #2756) behind a software pipeline of kStages slices that fills before the first
/// MMA and drains after the last (CUTLASS include/cutlass/gemm/threadblock/mma_multistage.h; 3-4 stages on Ampere,
/// more on Hopper); prologue + epilogue cost about kStages slices per tile (fewer when k has fewer slices). An FP8
/// GEMM thus has half the slices of its BF16 twin on the same k, and loses twice the share to the fill.
double mainloop_share(double k, double bytes_in) {
  constexpr double kSliceBytes = 128, kStages = 3;
  const double slice = kSliceBytes / bytes_in;
  const double slices = std::ceil(k / slice);
  return (k / slice) / (slices + std::min(slices, kStages));
}

/// Keys of fixed cost per query tile of a causal fused-attention kernel (engine/API.md, "Kernels"): each 128-row
/// query tile loads Q, runs its s/256 key blocks on average (causal) and writes O and the softmax statistics; the
/// load, the half-masked diagonal block and the write cost about one more 128-key block, so the kernel reaches
/// s / (s + 256) of its long-sequence rate. One calibration, against cuDNN's causal head-dim-128 forward on H100
/// (FlashAttention-3 paper, Shah et al. 2024, Fig. 5: 484, 518, 529, 539 TFLOP/s at 2k, 4k, 8k, 16k, i.e. 0.915,
/// 0.979, 1, 1.019 of 8k; this rule gives 0.917, 0.970, 1, 1.015).
constexpr double kAttentionTileKeys = 256;

/// The chips' `attention_efficiency` is measured at an 8k causal sequence (hardware.json sources).
constexpr double kAttentionReferenceSeq = 8192;

/// How much longer FlashAttention's Triton kernel (flash_attn_triton.py, the FlashAttention-1 algorithm; what
/// llm-foundry's MPT runs with `attn_impl: triton`) takes than FlashAttention-2 for the same attention, forward and
/// backward together. Dao 2023 (FlashAttention-2, Sec. 4.1, A100 80GB): FlashAttention-2 is "around 1.3-1.5x faster
/// than FlashAttention in Triton in the forward pass and around 2x faster in the backward pass". The backward does
/// 2.5 times the forward's FLOPs (the same paper's count: five matmuls against two); at equal rates the pair takes
/// (1.4 + 2.5 x 2) / (1 + 2.5) = 1.83 times FlashAttention-2's time (1.81 at 1.3, 1.86 at 1.5). Measured on A100;
/// the engine applies the same ratio on other chips, to each chip's FlashAttention-2 value.
constexpr double kTritonAttentionSlowdown = (1.4 + 2.5 * 2.0) / (1.0 + 2.5);

}  // namespace

double attention_length_factor(double keys) {
  auto rate = [](double s) { return s / (s + kAttentionTileKeys); };
  return rate(std::max(1.0, keys)) / rate(kAttentionReferenceSeq);
}

namespace {

/// What every PyTorch-based stack's runtime holds outside its allocator and how much hidden communication costs the
/// kernels (engine/API.md, "Memory" and "Overlap"); none on TPUs (XLA owns the whole HBM, ICI needs no core). The
/// 2021–2022 stacks (BLOOM's on PyTorch 1.11 / CUDA 11.5 with the NCCL 2.10.3 it ships, Megatron-LM's of Narayanan et
/// al. on NGC 20.x–21.x) predate CUDA's lazy loading, so they load every kernel at start-up (kEagerCudaContextBytes),
/// and NCCL's runtime connection, so each communicator connects its trees beside its rings (nccl_connects_trees).
/// So do the PyTorch-native stacks on the NCCL 2.21.5 PyTorch 2.5 and 2.6 pin (src/init.cc at v2.21.5-1: "Connected
/// all trees"; NCCL_RUNTIME_CONNECT arrives in 2.22); NeMo's containers from 24.07 ship NCCL 2.22 or later.
void runtime_defaults(const Hardware& hw, const std::string& software, Efficiency& e) {
  if (hw.kind != "gpu") return;
  const bool stack_of_2022 = software == "deepspeed" || software == "megatron-2021";
  e.runtime_context_bytes = stack_of_2022 ? kEagerCudaContextBytes : kCudaContextBytes;
  e.nccl_connects_trees = stack_of_2022 || pytorch_native(software);
  e.nccl_buffer_bytes = kNcclBufferBytes;
  // NVLS where the stack leaves NCCL's default on: the PyTorch-native stacks. NeMo's performance recipes turn it off
  // ("NCCL_NVLS_ENABLE": "0", "Disable NVLink SHARP to save memory": scripts/performance/executors.py at 8cfedd7 of
  // NVIDIA/NeMo); the 2021–2022 stacks' NCCL predates it.
  e.nvls_buffer_bytes = hw.nvlink_multicast && pytorch_native(software) ? kNvlsHeadBytes : 0.0;
  // A barrier on torch's default group at start-up builds a communicator over every GPU: Megatron's
  // _compile_dependencies (megatron/initialize.py, in Megatron-LM and its Megatron-DeepSpeed fork at 8387ae1) and
  // nanotron's ParallelContext.create_new_group (parallel/context.py at 2411b02) call torch.distributed.barrier().
  e.world_communicator = stack_of_2022 || software == "megatron-core" || software == "nanotron";
  e.nccl_sms = kNcclSms;
  e.allocator_reserve = kAllocatorReserve;
}

}  // namespace

/// The SM clock, as a share of the clock the chip's efficiencies were measured at, when the cluster holds each GPU
/// to a power limit below its board power. Dynamic power is α·C·V²·f (Hennessy & Patterson, Computer Architecture,
/// 6th ed., Sec. 1.5) and in the DVFS range the voltage rises with the frequency, so a compute-bound kernel's
/// dynamic draw goes as f³: under a limit P the clock falls to ((P − idle)/(board − idle))^(1/3), idle the draw
/// that does not scale (kIdlePowerShare of the board power). Memory-bound kernels are not slowed: the limit lowers
/// the SM clock, not HBM's. torchtitan's H100 benchmarks ran at Grand Teton's default 500 W of 700 W
/// (benchmarks/llama3_h100_202412_torchtitan.md, asyncTP_llama3_h100_2025-06_torchtitan.md): 0.880 of the clock.
double compute_clock(const Hardware& hw, const Cluster& cluster) {
  const double board = hw.board_power, limit = cluster.power_limit;
  if (board <= 0 || limit <= 0 || limit >= board) return 1.0;
  const double idle = kIdlePowerShare * board;
  return std::cbrt(std::max(0.0, limit - idle) / (board - idle));
}

double attention_kernel_efficiency(const Hardware& hw, std::string_view kernel) {
  const double fused = hw.attention_efficiency > 0 ? hw.attention_efficiency : Efficiency{}.flash_attention_efficiency;
  const double fa2 = hw.attention_efficiency_fa2 > 0 ? hw.attention_efficiency_fa2 : fused;
  if (kernel == "fused") return fused;
  if (kernel == "fa2") return fa2;
  return fa2 / kTritonAttentionSlowdown;  // "triton"
}

bool pytorch_native(const std::string& software) {
  return software == "pytorch" || software == "pytorch-compile" || software == "nanotron";
}

double sustained_share(const std::string& software) {
  if (pytorch_native(software)) return kSustainedSharePytorch;
  if (software == "megatron-2021") return kSustainedShare2021;
  if (software == "deepspeed") return kSustainedShareDeepSpeed;
  return kSustainedShare;  // megatron-core, and xla on a GPU (the TPU presets give no MAMF: their 0.8 is not scaled)
}

namespace {

/// Megatron-LM's vocab-parallel cross-entropy on the fp32 cast of the logits (its traffic: cost_types.hpp): Megatron-LM
/// and Megatron-DeepSpeed call mpu.vocab_parallel_cross_entropy(output.float(), labels) in gpt_model.py's
/// post_language_model_processing; nanotron's _ShardedCrossEntropy is the same algorithm, on
/// sharded_logits.to(torch.float) (parallel/tensor_parallel/functional.py at 2411b02): max, subtract, exp, sum,
/// divide, and in the backward one in-place multiply.
void megatron_cross_entropy(Efficiency& e) {
  e.loss_traffic_bytes_per_logit = 38.0;
  e.loss_backward_traffic_bytes_per_logit = 14.0;
}

/// nanotron (huggingface/nanotron at 2411b02) where it differs from torchtitan's eager stack: RMSNorm is one Triton
/// kernel (TritonRMSNorm, nn/layer_norm.py, in models/llama.py), and the loss is Megatron's vocabulary-parallel
/// cross-entropy at every tp (sharded_cross_entropy with dtype float, parallel/tensor_parallel/functional.py): the bf16
/// logits, their fp32 copy and the fp32 shifted logits exponentiated in place and saved (2 + 4 + 4 bytes per logit),
/// the eager forward's 10 too, whose backward writes the gradient over the saved softmax (4) beside the bf16 gradient
/// it hands back (2), with no DTensor temporaries. Rotary (its own RotaryEmbedding) and SwiGLU (GLUActivation) run op
/// by op as in torchtitan; attention is flash_attn_varlen_func (FlashAttention-2); DDP, the fp32 accumulation buffers
/// and ZeRO 1 as pytorch.
void nanotron_terms(Efficiency& e) {
  e.fused_rmsnorm = true;
  megatron_cross_entropy(e);
  // Its sequence-parallel column GEMMs re-gather their input in the backward (tp_recompute_allgather, default true in
  // config/parallelism_config.py), synchronously unless tp_linear_async_communication (default false) is set.
  e.tp_backward_allgather = true;
  e.loss_backward_bytes_per_logit = 6.0;
  e.loss_parallel_extra_bytes = 0.0;
  // Its pipeline sends and receives activations one tensor at a time with dist.isend / dist.irecv
  // (P2P.isend_tensors, irecv_tensors in parallel/pipeline_parallel/p2p.py at 2411b02), not batched: PyTorch opens a
  // two-rank communicator for each peer (memory_model.cpp, pipeline_buffer_sets).
  e.pair_communicators = true;
}

}  // namespace

Efficiency default_efficiency(const Hardware& hw, const std::string& software) {
  Efficiency e;
  runtime_defaults(hw, software, e);
  const double share = sustained_share(software);
  if (hw.gemm_efficiency > 0) e.gemm_max = hw.gemm_efficiency * share;
  e.gemm_max_fp8 = hw.gemm_efficiency_fp8 > 0 ? hw.gemm_efficiency_fp8 * share : e.gemm_max;
  e.compute_units = hw.compute_units;
  if (hw.memory_efficiency > 0) e.memory_efficiency = hw.memory_efficiency;
  const double fused = attention_kernel_efficiency(hw, "fused");
  const double fa2 = attention_kernel_efficiency(hw, "fa2");
  if (software == "megatron-core") {
    // Megatron-Core / NeMo with TransformerEngine, as NeMo's performance recipes run it: cuDNN fused attention
    // (FlashAttention-3 class on Hopper), gradient reduce-scatter overlapped with the backward
    // (--overlap-grad-reduce), TP communication overlapped with the GEMMs (tp_comm_overlap=True) on chips whose
    // NVSwitch does CUDA multicast: TransformerEngine's Userbuffers need it, and NeMo ships userbuffer configs for
    // H100 and B200 only; its A100 GPT-3 recipe runs without (engine/API.md, "Software generations").
    e.flash_attention_efficiency = fused;
    e.tp_comm_overlap = hw.nvlink_multicast;
    e.expert_launch_overhead = kExpertLaunchOverhead;
    // Megatron-Core keeps fp32 main gradients and fuses their accumulation into the weight-gradient GEMM
    // (gradient_accumulation_fusion, on by default: TransformerEngine's fuse_wgrad_accumulation, the GEMM's output
    // accumulated into param.main_grad): its epilogue reads and writes 4 bytes per weight element each microbatch.
    e.wgrad_accumulation_bytes = 8.0;
    // TransformerEngine saves an FP8 GEMM's input for the weight gradient as its FP8 cast (module/linear.py,
    // layernorm_linear.py: the quantized inputmat / ln_out kept for backward instead of the bf16 tensor).
    e.fp8_saves_gemm_inputs = true;
    // Its QKV and FC1 linears are LayerNormLinear (Megatron-Core's TELayerNormColumnParallelLinear): the norm hands
    // them their FP8 input (fp8_cast_bytes). FC2's input comes from Megatron's own bf16 activation and is cast.
    e.fp8_norm_quantizes = true;
    e.fp8_gathers = true;
    // Its optimizer offload (--optimizer-cpu-offload) steps torch's fused AdamW on the host and copies the result back
    // into the distributed optimizer's fp32 main weights on the GPU (cost_types.hpp).
    e.host_adam_bytes = 28.0;
    e.offload_master_on_gpu = true;
  } else if (pytorch_native(software)) {
    // PyTorch-native stacks (FSDP2 / torchtitan, DDP-style ZeRO 0/1 trainers): scaled_dot_product_attention's flash
    // backend is FlashAttention-2; gradients accumulate in a pass of their own into fp32 beside autograd's bf16
    // .grad; the loss is cross_entropy(pred.float(), labels) (torchtitan/components/loss.py at b5bcd76: the bf16
    // logits, their fp32 copy and the fp32 log-softmax it saves). Eager mode runs RMSNorm, rotary and SwiGLU op by
    // op; "pytorch-compile" is the same stack under torch.compile, which fuses those element-wise chains (Inductor).
    e.flash_attention_efficiency = fa2;
    e.grad_copy_bytes = 2.0;
    e.grad_accumulation_bytes = 10.0;
    // Without FSDP (ZeRO 0/1) the data-parallel wrapper is torch DDP, whose Reducer keeps a bucket copy of the
    // gradients in the parameters' dtype (cost_types.hpp); nanotron wraps every dp > 1 model in it (trainer.py,
    // `make_ddp`, at 2411b02) and accumulates into fp32 buffers beside it (optim/gradient_accumulator.py).
    e.ddp_bucket_bytes = 2.0;
    // Their ZeRO 1 is a sharded optimizer over DDP whose step all-gathers the updated bf16 parameters before it
    // returns: nanotron's ZeroDistributedOptimizer.step calls _all_gather_params (optim/zero.py at 2411b02), torch's
    // ZeroRedundancyOptimizer.step calls _sync_params. Nothing of the next forward can run beside it.
    e.param_gather_overlap = false;
    // Under torch.compile torchtitan compiles the loss too (components/loss.py at 820504e: `loss_fn =
    // torch.compile(loss_fn)` with training.compile, since bbb1b616e, April 2025): Inductor fuses the cast, the
    // log-softmax and its backward, keeping the bf16 logits and the per-row log-sum-exp and writing a bf16 gradient
    // (2 + 2 bytes per logit).
    const bool compiled = software == "pytorch-compile";
    e.loss_bytes_per_logit = compiled ? 4.0 : 10.0;
    // Its backward (eager): the saved fp32 log-softmax, nll_loss_backward's dense fp32 gradient and
    // _log_softmax_backward_data's fp32 output at once, 12 bytes; compiled, the fused kernel's bf16 gradient beside
    // the bf16 logits, 4 (cost_types.hpp).
    e.loss_backward_bytes_per_logit = compiled ? 4.0 : 12.0;
    // With tp > 1 torchtitan turns on loss_parallel (training.disable_loss_parallel false by default): the eager
    // loss runs DTensor's decomposed log-softmax, x - max and exp(x - max) alive beside the fp32 copy (+4 bytes per
    // logit); the compiled loss is one fused kernel again.
    e.loss_parallel_extra_bytes = compiled ? 0.0 : 4.0;
    // Its traffic, eager: the cast, aten's log-softmax (a max pass, a sum pass, the output) and its backward
    // (cost_types.hpp); compiled, the generic fused figure.
    if (!compiled) {
      e.loss_traffic_bytes_per_logit = 22.0;
      e.loss_backward_traffic_bytes_per_logit = 26.0;
    }
    e.eager_elementwise = !compiled;
    if (software == "nanotron") nanotron_terms(e);
  } else if (software == "xla") {
    // JAX/XLA on TPU as PaLM ran it (Chowdhery et al. 2022): fused attention at the chip's value, gradient
    // reduction overlapped, TP collectives not decomposed behind the matmuls.
    e.flash_attention_efficiency = fused;
  } else if (software == "deepspeed") {
    // Megatron-DeepSpeed (BLOOM's stack, 2022): Megatron-LM's kernels of the time (fused softmax, no fused
    // attention), DeepSpeed's pipeline engine reducing gradients after the flush, and DeepSpeed's BF16_Optimizer:
    // backward writes bf16 .grad, update_hp_grads adds it into fp32 buffers after each microbatch
    // (hp_grad.add_(lp.grad.to(fp32)), deepspeed/runtime/bf16_optimizer.py).
    e.flash_attention = false;
    e.dp_overlap = false;
    e.grad_copy_bytes = 2.0;
    e.grad_accumulation_bytes = 10.0;
    e.host_adam_bytes = 30.0;  // ZeRO-Offload's CPUAdam (cost_types.hpp)
    megatron_cross_entropy(e);
    // After the flush the pipeline engine reduces the gradients through a flat bucket (reduce_bucket_elements).
    e.reduce_bucket_elements = kDeepSpeedBucketElements;
    // Its pipeline's communicators: a pair per neighbour, and its grid's model and slice groups (memory_model.cpp).
    e.pair_communicators = true;
    e.model_group_communicators = true;
  } else if (software == "megatron-2021") {
    // Megatron-LM of Narayanan et al. 2021 / Korthikanti et al. 2022: unfused attention (fused softmax only) and
    // the gradient all-reduce after the pipeline flush (Narayanan et al. 2021, Sec. 2.2).
    e.flash_attention = false;
    e.dp_overlap = false;
    megatron_cross_entropy(e);
  } else {
    throw RequestError(code::invalid_value,
                       "software must be one of \"megatron-core\", \"megatron-2021\", \"deepspeed\", \"pytorch\", "
                       "\"pytorch-compile\", \"nanotron\", \"xla\"; got \"" +
                           software + "\"",
                       "software");
  }
  return e;
}

namespace {

double gemm_efficiency_of(int compute_units, double ceiling, double peak, double hbm, const GemmShape& s,
                          double bytes_in) {
  const double flops = 2.0 * s.groups * s.m * s.n * s.k;
  const double math = flops / (peak * ceiling * tile_utilization(s, compute_units) * mainloop_share(s.k, bytes_in));
  // Each operand read once and the BF16 output written once: the least traffic a tiled GEMM can do.
  const double bytes = s.groups * (bytes_in * (s.m * s.k + s.k * s.n) + kBf16 * s.m * s.n);
  return flops / (peak * std::max(math, bytes / hbm));
}

/// gemm_efficiency's answers kept by the exact bits of everything it reads (a planner asks for the same shapes
/// millions of times): a direct-mapped table per thread, so a hit returns the very double computed before. 8,192
/// slots (720 KB): the DeepSeek-V3 search on 2,048 H800 (~4 M asks of some 60,000 shapes) misses 113,000 times,
/// 566,000 times with 1,024 slots (tests/bench/plan_bench.cpp times it).
struct GemmMemo {
  static constexpr std::size_t kSlots = 8192;  // a power of two
  static constexpr std::size_t kWords = 9;
  struct Slot {
    std::uint64_t key[kWords]{};
    double value = 0;
    bool used = false;  // zero-initialised throughout, so the thread-local table needs no constructor
  };
  Slot slots[kSlots];
};

}  // namespace

double gemm_efficiency(const Efficiency& eff, double ceiling, double peak, double hbm, const GemmShape& s,
                       double bytes_in) {
  const std::uint64_t key[GemmMemo::kWords] = {std::uint64_t(std::int64_t(eff.compute_units)),
                                               double_bits(ceiling),
                                               double_bits(peak),
                                               double_bits(hbm),
                                               double_bits(s.m),
                                               double_bits(s.n),
                                               double_bits(s.k),
                                               double_bits(s.groups),
                                               double_bits(bytes_in)};
  const std::uint64_t h = hash_words(key, GemmMemo::kWords);
  thread_local GemmMemo memo;
  GemmMemo::Slot& slot = memo.slots[std::size_t(h) & (GemmMemo::kSlots - 1)];
  bool same = slot.used;
  for (std::size_t i = 0; same && i < GemmMemo::kWords; ++i) same = slot.key[i] == key[i];
  if (same) return slot.value;
  const double value = gemm_efficiency_of(eff.compute_units, ceiling, peak, hbm, s, bytes_in);
  std::memcpy(slot.key, key, sizeof key);
  slot.value = value;
  slot.used = true;
  return value;
}

double grouped_gemm_efficiency(const TrainingRun& run, const Efficiency& eff, double tokens_per_expert, double n,
                               double k, double experts) {
  const bool fp8 = eff.precision == Precision::fp8;
  const double clock = compute_clock(run.hardware, run.cluster);
  const double peak = (fp8 ? run.hardware.peak_flops_fp8 : run.hardware.peak_flops) * clock;
  const double hbm = run.hardware.memory_bandwidth * eff.memory_efficiency;
  return clock * gemm_efficiency(eff, fp8 ? eff.gemm_max_fp8 : eff.gemm_max, peak, hbm,
                                 {std::max(1.0, tokens_per_expert), n, k, experts}, fp8 ? 1.0 : 2.0);
}

double kernels_per_layer_forward(const ModelShape& m) {
  const double elementwise = 6;    // 2 norms, RoPE, activation, 2 bias-dropout-adds
  const double attention = 2 + 1;  // QKV and output projections, the attention kernel
  const double ffn = m.is_moe() ? (2 + 3 + (m.shared_experts > 0 ? 2 : 0)) : 2;  // router + permute/unpermute
  return elementwise + attention + ffn;
}

KernelTimes layer_kernel_times(const TrainingRun& run, const Efficiency& eff, const LayerWork& w) {
  const ModelShape& m = run.model;
  const ParallelConfig& p = run.parallel;
  const Hardware& hw = run.hardware;
  const bool fp8 = eff.precision == Precision::fp8;
  const double clock = compute_clock(hw, run.cluster);  // a power limit slows the compute-bound kernels
  const double bf16_peak = hw.peak_flops * clock;
  const double peak = (fp8 ? hw.peak_flops_fp8 : hw.peak_flops) * clock;
  const double ceiling = fp8 ? eff.gemm_max_fp8 : eff.gemm_max;
  const double bytes_in = fp8 ? 1.0 : 2.0;
  const double hbm = hw.memory_bandwidth * eff.memory_efficiency;
  const double tp = double(p.tp);
  const double t = w.tokens;
  const double h = double(m.hidden);
  const double microbatches = double(std::max<std::int64_t>(1, p.microbatches()));  // per step on this GPU
  KernelTimes out;

  // A set of GEMMs sharing `flops` in proportion to their weights, each timed forward (m, n, k), input gradient
  // (m, k, n) and weight gradient (k, n, m): the three GEMMs of a linear layer (Narayanan et al. 2021, Sec. 5.1).
  // Each part's seconds also go to its linear (`LinearTimes*`, null for the experts'), which the TP model reads.
  struct Part {
    double weight;
    GemmShape shape;
    LinearTimes* linear = nullptr;
    CastSource input = CastSource::none;  // where an FP8 run's quantized input comes from
  };
  auto add = [&](double flops, std::initializer_list<Part> parts) {
    if (flops <= 0) return;
    double total = 0;
    for (const Part& part : parts) total += part.weight;
    for (const Part& part : parts) {
      const GemmShape& s = part.shape;
      const double f = flops * part.weight / total;
      const GemmShape dgrad{s.m, s.k, s.n, s.groups};
      const GemmShape wgrad{s.k, s.n, s.m, s.groups};
      LinearTimes l;
      l.fwd = f / (peak * gemm_efficiency(eff, ceiling, peak, hbm, s, bytes_in));
      l.dgrad = f / (peak * gemm_efficiency(eff, ceiling, peak, hbm, dgrad, bytes_in));
      l.wgrad = f / (peak * gemm_efficiency(eff, ceiling, peak, hbm, wgrad, bytes_in));
      // Gradient accumulation over the step's microbatches (engine/API.md, Kernels): each weight-gradient GEMM
      // adds into the fp32 main gradient, reading and writing it (wgrad_accumulation_bytes per weight element; the
      // first microbatch only writes, half of that). The epilogue does it after the tile's k loop, in series.
      l.wgrad += eff.wgrad_accumulation_bytes * (1.0 - 0.5 / microbatches) * (f / (2.0 * s.m)) / hbm;
      if (fp8) {
        // TransformerEngine's FP8 recipe per linear layer (TE docs, "Using FP8 with Transformer Engine"; its fused
        // cast_transpose kernels): the activation input (m·k = f/2n elements) in the forward and the output gradient
        // (m·n = f/2k) in the backward of every microbatch, each quantized plain and transposed (fp8_cast_bytes:
        // 6 bytes per element with current scaling, less where the recipe or the norm saves a pass). The weight
        // (k·n = f/2m per group) is cast once per step: weights do not change between the microbatches of a step,
        // and TransformerEngine caches their FP8 copies after the first (te.Linear.forward's `is_first_microbatch`,
        // TE docs "Performance Optimizations: FP8 weight caching"), which Megatron-Core passes on (TELinear tracks
        // is_first_microbatch; the schedules reset it at each step's first microbatch). Its cost per microbatch is
        // that cast over the step's microbatches.
        const double cast = fp8_cast_bytes(eff, CastSource::none);
        l.fwd += (fp8_cast_bytes(eff, part.input) * f / (2.0 * s.n) + cast * f / (2.0 * s.m) / microbatches) / hbm;
        l.dgrad += cast * f / (2.0 * s.k) / hbm;
      }
      out.gemm_fwd += l.fwd;
      out.gemm_dgrad += l.dgrad;
      out.gemm_wgrad += l.wgrad;
      if (part.linear != nullptr) {
        part.linear->fwd += l.fwd;
        part.linear->dgrad += l.dgrad;
        part.linear->wgrad += l.wgrad;
      }
    }
  };

  // Attention projections: Q, K, V fused into one GEMM and the output projection, split by heads over tp; or Q, K
  // and V as three GEMMs of their own widths (split_projections: torchtitan's wq, wk, wv), each with its own tiles
  // and waves, so a narrow K or V shard (GQA: kv_heads · head_dim / tp columns) fills few of the chip's units.
  const double q = double(m.heads * m.head_dim), kv = double(m.kv_heads * m.head_dim);
  if (eff.split_projections) {
    add(w.attn_proj_flops, {{h * q, GemmShape{t, q / tp, h}, &out.qkv},
                            {h * kv, GemmShape{t, kv / tp, h}, &out.qkv},
                            {h * kv, GemmShape{t, kv / tp, h}, &out.qkv},
                            {q * h, GemmShape{t, h, q / tp}, &out.out}});
  } else {
    add(w.attn_proj_flops, {{h * (q + 2 * kv), GemmShape{t, (q + 2 * kv) / tp, h}, &out.qkv, CastSource::norm},
                            {q * h, GemmShape{t, h, q / tp}, &out.out}});
  }

  // Dense FFN: GELU's two matrices, or SwiGLU's gate and up fused into one GEMM of twice the width (two GEMMs with
  // split_projections: torchtitan's w1 and w3) and the down GEMM.
  const bool swiglu = m.activation == Activation::swiglu;
  const double f = double(m.ffn);
  if (swiglu && eff.split_projections) {
    add(w.dense_ffn_flops, {{1.0, GemmShape{t, f / tp, h}, &out.up},
                            {1.0, GemmShape{t, f / tp, h}, &out.up},
                            {1.0, GemmShape{t, h, f / tp}, &out.down}});
  } else {
    add(w.dense_ffn_flops, {{swiglu ? 2.0 : 1.0, GemmShape{t, (swiglu ? 2 : 1) * f / tp, h}, &out.up, CastSource::norm},
                            {1.0, GemmShape{t, h, f / tp}, &out.down}});
  }

  if (w.expert_ffn_flops > 0) {
    // Routed experts as grouped GEMMs over the local experts, each on its tokens; shared experts as dense GEMMs.
    const double routed_share = double(m.top_k) / double(m.top_k + m.shared_experts);
    const double e = double(m.expert_ffn);
    const double tpe = std::max(1.0, w.tokens_per_expert);
    const double etp = double(p.expert_tp());  // routed experts split over the expert tensor-parallel ranks (folding)
    const double local = std::max(1.0, w.local_experts);
    const double before = out.gemm_fwd + out.gemm_dgrad + out.gemm_wgrad;
    add(w.expert_ffn_flops * routed_share, {{swiglu ? 2.0 : 1.0, GemmShape{tpe, (swiglu ? 2 : 1) * e / etp, h, local}},
                                            {1.0, GemmShape{tpe, h, e / etp, local}}});
    // Launch-bound experts: the host issues each local expert's kernels after the dispatcher's sync (forward and
    // backward); whatever exceeds the routed GEMMs' own time is the GPU waiting. It is added to the forward's launch
    // cost, which the backward counts twice (3 × in all).
    const double routed = out.gemm_fwd + out.gemm_dgrad + out.gemm_wgrad - before;
    const double host = local * expert_kernels(eff) * eff.expert_launch_overhead * w.moe_layer_share;
    out.launch_fwd += std::max(0.0, host - routed) / 3.0;
    if (m.shared_experts > 0) {
      const double s = double(m.shared_experts) * e;
      add(w.expert_ffn_flops * (1.0 - routed_share),
          {{swiglu ? 2.0 : 1.0, GemmShape{t, (swiglu ? 2 : 1) * s / tp, h}}, {1.0, GemmShape{t, h, s / tp}}});
    }
  }

  // Attention core in BF16 (TransformerEngine's FP8 recipe keeps it so): the fused kernel at the chip's measured
  // fwd+bwd efficiency, or unfused batched GEMMs per (sequence, head): Q·K^T of (s/cp)×s×d and A·V of (s/cp)×d×s.
  if (eff.flash_attention) {
    // Each fused kernel sees seq / cp keys: context parallelism runs the attention as per-step kernels over the
    // rank's own chunks (TransformerEngine's ring attention), so short kernels lose their per-tile fixed cost.
    const double keys = double(m.seq) / double(p.cp);
    const double rate = eff.flash_attention_efficiency * attention_length_factor(keys);
    out.attn_fwd = w.attention_core_flops / (bf16_peak * rate);
  } else {
    const double heads = double(p.microbatch_size * m.heads) / tp;
    const double sq = double(m.seq) / double(p.cp), sk = double(m.seq);
    const double d = double(m.head_dim + (m.is_mla() ? m.rope_head_dim : 0));
    const GemmShape qk{sq, sk, d, heads}, av{sq, double(m.head_dim), sk, heads};
    out.attn_fwd = 0.5 * w.attention_core_flops / (bf16_peak * gemm_efficiency(eff, eff.gemm_max, bf16_peak, hbm, qk)) +
                   0.5 * w.attention_core_flops / (bf16_peak * gemm_efficiency(eff, eff.gemm_max, bf16_peak, hbm, av));
  }

  out.softmax_mem = w.softmax_bytes / hbm;
  out.mem_fwd = (w.elementwise_bytes + w.softmax_bytes) / hbm;
  // Split projections launch K and V (and SwiGLU's up GEMM in a dense FFN) on their own.
  const double split_launches = eff.split_projections ? 2.0 + (swiglu && w.dense_ffn_flops > 0 ? 1.0 : 0.0) : 0.0;
  out.launch_fwd += (kernels_per_layer_forward(m) + split_launches) * eff.kernel_overhead;
  return out;
}

LogitsTimes logits_kernel_times(const TrainingRun& run, const Efficiency& eff) {
  const LogitsWork l = logits_work(run, eff);
  const ModelShape& m = run.model;
  // The output layer stays BF16 in FP8 recipes; a power limit slows it as the other GEMMs.
  const double peak = run.hardware.peak_flops * compute_clock(run.hardware, run.cluster);
  const double hbm = run.hardware.memory_bandwidth * eff.memory_efficiency;
  const double t = double(run.parallel.microbatch_size) * double(m.seq) / double(run.parallel.cp);
  const GemmShape s{t, double(m.vocab) / double(run.parallel.tp), double(m.hidden)};
  LogitsTimes out;
  out.gemm_fwd = l.flops / (peak * gemm_efficiency(eff, eff.gemm_max, peak, hbm, s));
  out.mem_fwd = l.bytes / hbm;
  out.mem_bwd = l.backward_bytes / hbm;
  return out;
}

}  // namespace parascope::detail
