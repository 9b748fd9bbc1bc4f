/// Compute-kernel timing: how long one layer's GEMMs, attention core and element-wise kernels take on one GPU, from
/// the chip's measured ceilings, the real GEMM shapes (tile and wave quantization, the memory roofline) and a fixed
/// cost per kernel launch. engine/API.md ("Kernels") gives every source.
#pragma once

#include <string_view>

#include "layer_work.hpp"
#include "parascope/cost_types.hpp"

namespace parascope::detail {

/// The defaults a run's `efficiency` overrides start from: the engine's generic values, then the hardware preset's
/// measured kernel ceilings, then what the `software` generation does ("megatron-core", "megatron-2021",
/// "pytorch", "xla"; engine/API.md). Throws RequestError (field "software") for an unknown generation.
Efficiency default_efficiency(const Hardware& hardware, const std::string& software);
/// The PyTorch-native stacks: one family, one GEMM share and one track record (`pytorch`, `pytorch-compile`,
/// `nanotron`).
bool pytorch_native(const std::string& software);
/// The share of the chip's measured GEMM ceiling (MAMF) a software stack's GEMMs hold in a training job: the one
/// calibration constant of the GEMM ceilings, per stack family (engine/API.md, "efficiency defaults").
double sustained_share(const std::string& software);
/// The fused attention kernel's fwd+bwd share of the BF16 peak on this chip at a causal 8k sequence, by kernel:
/// "fused" (cuDNN / FlashAttention-3 class, the chip's `attention_efficiency`), "fa2" (FlashAttention-2, its
/// `attention_efficiency_fa2`), "triton" (FlashAttention's Triton kernel; engine/API.md, "Kernels").
double attention_kernel_efficiency(const Hardware& hardware, std::string_view kernel);

/// A GPU's idle draw as a share of its board power: an assumption (no published per-chip figure was found). The
/// part of the draw a lower clock does not save (compute_clock), and `run`'s idle_power default.
inline constexpr double kIdlePowerShare = 0.1;

/// The SM clock under the cluster's power limit, as a share of the clock at the board power the chip's efficiencies
/// were measured at (1 with no limit below it): ((limit − idle)/(board − idle))^(1/3) (engine/API.md, "Power limit").
double compute_clock(const Hardware& hardware, const Cluster& cluster);

/// One GEMM C[m×n] = A[m×k]·B[k×n], run `groups` times side by side in one launch (a grouped GEMM).
struct GemmShape {
  double m = 1, n = 1, k = 1;
  double groups = 1;
};

/// Fraction of `peak` FLOP/s one (grouped) GEMM reaches: the chip's large-GEMM ceiling × the share of the tiles' work
/// that is useful (tile quantization on every dimension, wave quantization over the compute units), or the HBM
/// roofline when its bytes take longer than its math (Williams, Waterman & Patterson 2009). `bytes_in` per input
/// element (2 for BF16, 1 for FP8); `hbm` in bytes/s, already scaled by memory_efficiency.
double gemm_efficiency(const Efficiency& eff, double ceiling, double peak, double hbm, const GemmShape& shape,
                       double bytes_in = 2.0);

/// Fraction of `peak` a grouped expert GEMM reaches when each of `experts` local experts gets `tokens_per_expert`
/// tokens and its weight is n×k (Megatron-Core's grouped GEMM; MegaBlocks, Gale et al. 2023, Sec. 5): small
/// tokens-per-expert leave tiles part-empty and make the weights' HBM reads, not the math, set the time.
/// For the MoE layout code: call it with the tokens each expert really sees.
double grouped_gemm_efficiency(const TrainingRun& run, const Efficiency& eff, double tokens_per_expert, double n,
                               double k, double experts);

/// One linear layer's GEMM seconds for one microbatch: forward, input gradient, weight gradient.
struct LinearTimes {
  double fwd = 0, dgrad = 0, wgrad = 0;
};

/// Seconds of one average layer's kernels for one microbatch on one GPU.
struct KernelTimes {
  double gemm_fwd = 0;     ///< weight GEMMs, forward (with their FP8 input casts)
  double gemm_dgrad = 0;   ///< input-gradient GEMMs (backward)
  double gemm_wgrad = 0;   ///< weight-gradient GEMMs (backward; zero-bubble schedules run them as W)
  double attn_fwd = 0;     ///< attention core, forward (its backward is twice this)
  double mem_fwd = 0;      ///< element-wise kernels, forward (the backward moves 1.5× the bytes)
  double softmax_mem = 0;  ///< the unfused softmax's share of mem_fwd (selective recomputation repeats it)
  double launch_fwd = 0;   ///< fixed per-kernel cost of the forward's launches (the backward launches twice as many)
  /// The dense tensor-parallel linears within the GEMM seconds above, each timed on its own shape: column-parallel
  /// QKV and MLP up (with the gate), row-parallel output projection and MLP down (what nanotron's asynchronous
  /// linears run a collective beside).
  LinearTimes qkv, up, out, down;
};
KernelTimes layer_kernel_times(const TrainingRun& run, const Efficiency& eff, const LayerWork& work);

/// The output layer on the last stage, one microbatch: forward GEMM seconds and its cross-entropy's traffic seconds,
/// forward and backward.
struct LogitsTimes {
  double gemm_fwd = 0, mem_fwd = 0, mem_bwd = 0;
};
LogitsTimes logits_kernel_times(const TrainingRun& run, const Efficiency& eff);

/// The fused attention kernel's rate on `keys` keys per sequence relative to the 8k causal sequence its
/// `flash_attention_efficiency` is measured at: (s / (s + 256)) / (8192 / (8192 + 256)) (engine/API.md, "Kernels").
double attention_length_factor(double keys);

/// Kernels launched per layer forward (the backward launches twice as many): one per weight GEMM, attention, and the
/// element-wise kernels Megatron-Core runs (2 norms, RoPE, activation, 2 fused bias-dropout-adds).
double kernels_per_layer_forward(const ModelShape& model);

}  // namespace parascope::detail
