/// One layer's seconds for one microbatch on one GPU, by kind: its kernels (kernel_model), the recomputation the run
/// asks for, and what overlap leaves exposed of its communication (layer_comm).
#pragma once

#include <algorithm>
#include <array>
#include <cstddef>

#include "layer_comm.hpp"
#include "parascope/cost_types.hpp"

namespace parascope::detail {

/// Seconds the kernels lose while a collective of `hidden` seconds runs under them: NCCL runs each channel as one
/// CTA on its own SM, so for that time the kernels have compute_units − nccl_sms SMs (engine/API.md, "Overlap").
inline double overlap_slowdown(const Efficiency& eff, double hidden) {
  if (hidden <= 0 || eff.compute_units <= 0 || eff.nccl_sms <= 0) return 0.0;
  return hidden * std::min(1.0, eff.nccl_sms / double(eff.compute_units));
}

/// Seconds of one microbatch's work for one model chunk on one GPU, by kind.
struct ChunkTimes {
  double gemm_fwd = 0, attn_fwd = 0, mem_fwd = 0;  // forward kernels
  double gemm_bwd = 0, gemm_wgrad = 0;             // backward GEMMs (input + weight gradients) and the weight part
  double launch_fwd = 0;                           // fixed cost of the forward's kernel launches
  double recompute = 0;                            // forward work repeated in the backward
  double recompute_mem = 0;                        // the memory-bound part of that
  double tp_fwd = 0, tp_bwd = 0;                   // exposed tensor-parallel communication
  double ep_fwd = 0, ep_bwd = 0;                   // exposed expert all-to-all
  double cp_fwd = 0, cp_bwd = 0;                   // exposed context-parallel ring traffic
  // The backward GEMMs are the input- and weight-gradient GEMMs of every forward GEMM, twice its FLOPs (Narayanan et
  // al. 2021, Sec. 5.1), each timed on its own shape; the attention backward is twice its forward. A backward
  // element-wise kernel reads its saved input and the incoming gradient and writes one gradient: 3 tensor passes
  // against the forward's 2 (read, write), so 1.5× the forward's traffic. The backward launches twice the kernels.
  static constexpr double kMemBackward = 1.5;
  static constexpr double kLaunchBackward = 2.0;
  double math() const {
    return gemm_fwd + gemm_bwd + 3.0 * attn_fwd + (1.0 + kLaunchBackward) * launch_fwd + recompute - recompute_mem;
  }
  double memory() const { return (1.0 + kMemBackward) * mem_fwd + recompute_mem; }
  double forward() const { return gemm_fwd + attn_fwd + mem_fwd + launch_fwd + tp_fwd + ep_fwd + cp_fwd; }
  double backward() const {
    return gemm_bwd + 2.0 * attn_fwd + kMemBackward * mem_fwd + kLaunchBackward * launch_fwd + recompute + tp_bwd +
           ep_bwd + cp_bwd;
  }
  /// Every field above (scaled and plus go through this list).
  std::array<double*, 14> fields() {
    return {&gemm_fwd,      &attn_fwd, &mem_fwd, &gemm_bwd, &gemm_wgrad, &launch_fwd, &recompute,
            &recompute_mem, &tp_fwd,   &tp_bwd,  &ep_fwd,   &ep_bwd,     &cp_fwd,     &cp_bwd};
  }
  ChunkTimes scaled(double k) const {
    ChunkTimes c = *this;
    for (double* v : c.fields()) *v *= k;
    return c;
  }
  ChunkTimes plus(ChunkTimes o) const {
    ChunkTimes c = *this;
    const auto mine = c.fields(), theirs = o.fields();
    for (std::size_t i = 0; i < mine.size(); ++i) *mine[i] += *theirs[i];
    return c;
  }
};

/// Kernel and exposed-communication seconds of one layer (average) for one microbatch.
ChunkTimes layer_times(const TrainingRun& run, const Efficiency& eff, const LayerWork& w, const LayerComm& c);

}  // namespace parascope::detail
