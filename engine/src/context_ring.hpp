/// Context parallelism step by step: the sequence cut into 2·cp chunks, the zig-zag (load-balanced causal) split of
/// them over the cp GPUs, the attention blocks each GPU computes at each step of the K/V ring, and what each step's
/// transfer leaves exposed. The cost model prices cp with ring_exposed (layer_times.cpp); the context_ring op shows it.
#pragma once

#include <algorithm>
#include <cstdint>
#include <vector>

#include "parascope/cost_types.hpp"
#include "parascope/parallel.hpp"

namespace parascope::detail {

/// Seconds one pass around the P2P ring leaves exposed (TransformerEngine's AttnFuncWithCPAndKVP2P,
/// transformer_engine/pytorch/attention/dot_product_attention/context_parallel.py at 9c61cd7): cp attention steps,
/// the K/V block of step i + 1 travelling while step i computes, so cp − 1 transfers, each hidden by its step's compute
/// and exposed by what it exceeds it; the last step has nothing left to receive.
inline double ring_exposed(std::int64_t cp, double transfer, double compute_per_step) {
  return cp > 1 ? double(cp - 1) * std::max(0.0, transfer - compute_per_step) : 0.0;
}

/// The two of the 2·cp sequence chunks GPU `gpu` holds: zig-zag r and 2cp − 1 − r (Megatron-Core's
/// get_batch_on_this_cp_rank; TE's load-balanced causal split), or contiguous 2r and 2r + 1.
struct HeldChunks {
  std::int64_t first = 0, second = 0;
};
HeldChunks held_chunks(std::int64_t cp, std::int64_t gpu, bool zigzag);

/// The GPU whose K/V block GPU `gpu` attends to at ring step `step`: its own at step 0, then (gpu − step) mod cp.
inline std::int64_t kv_source(std::int64_t cp, std::int64_t gpu, std::int64_t step) {
  return ((gpu - step) % cp + cp) % cp;
}

/// Attention blocks GPU `gpu` computes at ring step `step`, a block being one chunk's queries against one chunk's keys:
/// 1 whole, 1/2 on the causal diagonal, 0 above it (a causal kernel skips it: FlashAttention, Dao 2023 Sec. 3.1).
/// `causal_skip` false: an unfused kernel computes every block whole and masks afterwards.
double ring_blocks(std::int64_t cp, std::int64_t gpu, std::int64_t step, bool zigzag, bool causal_skip);

/// One step of one pass around the ring, on the GPU that sets its pace (under zig-zag every GPU alike).
struct RingStep {
  double compute_flops = 0;   ///< the attention FLOPs of the step on the busiest GPU
  double compute_time = 0;    ///< seconds (the cost model's attention kernel time, split over the steps)
  double transfer_bytes = 0;  ///< bytes each GPU sends to the next beside this step (0 on the last)
  double transfer_time = 0;   ///< seconds on the context-parallel group's link
  double exposed = 0;         ///< max(0, transfer_time − compute_time)
};

/// One pass (forward, or backward) around the ring for one layer and one microbatch.
struct RingPass {
  std::vector<RingStep> steps;
  double compute_time = 0, transfer_time = 0, transfer_bytes = 0, exposed = 0;
};

/// The all-gather variant (Llama 3, Dubey et al. 2024 Sec. 3.3.2; TE's AttnFuncWithCPAndKVAllGather at 9c61cd7): the
/// whole sequence's K/V gathered before the attention, their gradients reduce-scattered after its backward; neither
/// overlaps the attention it feeds.
struct AllGatherPass {
  double gather_time = 0, gather_bytes = 0;    ///< forward all-gather of K and V: seconds, bytes each GPU sends
  double scatter_time = 0, scatter_bytes = 0;  ///< backward reduce-scatter of dK and dV
  double gathered_bytes = 0;                   ///< the whole sequence's K/V one GPU holds during the attention
  double exposed = 0;                          ///< per layer and microbatch, forward + backward (+ recomputation)
  /// The attention on the gathered K/V, on the busiest GPU, seconds: its own query chunks against every key chunk
  /// before them, in one kernel (no ring steps), zig-zag and contiguous; the backward twice the forward, as the ring's.
  double forward_compute = 0, backward_compute = 0;
  double contiguous_forward_compute = 0, contiguous_backward_compute = 0;
};

/// When the ring hides its transfers: the sequence length from which each step's compute covers its transfer (at the
/// run's link), and the link bandwidth that covers it at the run's sequence length (0: no bandwidth does).
struct RingBreakEven {
  double sequence = 0;   ///< tokens
  double bandwidth = 0;  ///< bytes/s, one direction per GPU
};

/// Everything the context_ring op answers, per layer and microbatch unless said otherwise.
struct ContextRing {
  std::int64_t cp = 1;
  double chunk_tokens = 0;  ///< tokens of one of the 2·cp chunks (per sequence of the microbatch)
  double block_flops = 0;   ///< forward FLOPs of one whole block on one GPU (its tp share, the microbatch's sequences)
  bool causal_skip = true;  ///< the kernel skips masked blocks (FlashAttention)
  double kv_bytes = 0;      ///< one GPU's K/V block (bf16, its tp share): what a forward step sends
  GroupPlacement link;      ///< the context-parallel group's placement (link and rate as NCCL reaches it)
  double link_bandwidth = 0, link_latency = 0;
  RingPass forward, backward;     ///< the P2P ring; backward excludes a full recomputation's second forward ring
  double recomputed_exposed = 0;  ///< the forward ring again inside the backward under full recomputation
  /// The same ring with contiguous chunks: each step as long as its busiest GPU's blocks (ring_blocks), so step 0 as
  /// zig-zag's and every later one twice it under a causal kernel; the transfers are the same.
  RingPass contiguous_forward, contiguous_backward;
  double contiguous_recomputed_exposed = 0;
  AllGatherPass all_gather;
  double exposed_per_step = 0;             ///< P2P, seconds per training step per GPU: step's breakdown.cp_comm
  double all_gather_exposed_per_step = 0;  ///< the all-gather variant, the same layers and microbatches
  double activations_without_cp = 0, activations = 0;  ///< one layer's kept activations, bytes, at cp 1 and at cp
  RingBreakEven break_even;
  std::vector<double> zigzag_blocks, contiguous_blocks;  ///< per GPU, one forward pass's blocks
  /// One forward pass's blocks on the critical path: each step waits for its busiest GPU (Σ over steps of the max).
  double zigzag_ring_blocks = 0, contiguous_ring_blocks = 0;
};

/// The context ring of a validated run with cp ≥ 2, from the cost model's own layer (layer_part) and core (step_core):
/// its per-step transfers are layer_comm's, its compute the kernel model's attention time, its exposed time the sum
/// layer_times charges.
ContextRing context_ring(const TrainingRun& run, const Efficiency& efficiency);

/// The busiest GPU's blocks at each ring step (the step's pace: the next K/V cannot move on before it is used).
std::vector<double> busiest_blocks_per_step(std::int64_t cp, bool zigzag, bool causal_skip);

}  // namespace parascope::detail
