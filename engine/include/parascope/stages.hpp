/// Which layers each pipeline stage and model chunk holds: the balanced rule, or Megatron's first/last-stage counts.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "parascope/model.hpp"
#include "parascope/parallel.hpp"

namespace parascope {

/// A half-open range [first, end) of layers, heads or experts.
struct Span {
  std::int64_t first = 0, end = 0;
  std::int64_t size() const { return end - first; }
};

/// Layers per pipeline stage (pp entries). With `first_stage_layers` / `last_stage_layers` (Megatron-Core's
/// --decoder-first-pipeline-num-layers / --decoder-last-pipeline-num-layers) those stages hold exactly that many and
/// the other stages share the rest; the sharing rule: R layers over M stages give each ⌊R/M⌋ and R mod M of them one
/// more, the lighter ones being the stages at the ends first (last, first, second to last, second, ...): the last
/// stage also runs the output layer and the first holds the most activations in flight (Llama 3, Dubey et al. 2024
/// Sec. 3.3.2, took one layer off each for these reasons: 126 layers over 16 stages is 7, 8 × 14, 7).
/// With `embedding_in_split` / `loss_in_split` the rule shares L + 1 (or L + 2) pipeline layers and the first / last
/// stage's count then leaves out the embedding / the loss (Megatron-Core's account-for-embedding/loss options).
/// With `output_layer_weight` w > 0 (nanotron) and none of the above, the stages share by cost instead, as nanotron
/// places its pipeline blocks (nanotron at 2411b02, models/base.py `build_model`): the blocks in order, transformer
/// layers at cost 1 and the LM head at w, each goes to the current stage, and the stage after it takes over once the
/// running cost exceeds (total cost)·(s + 1)/pp. A split that would leave a stage without a transformer layer or the
/// LM head off the last stage falls back to the count-balanced rule (the engine keeps the head on the last stage).
/// Assumes a validated split (every stage holds at least vpp pipeline layers).
std::vector<std::int64_t> stage_layer_counts(std::int64_t layers, const ParallelConfig& parallel);

/// The `output_layer_weight` a software stack's pipeline split gives the LM head, in transformer layers: 0 (the count
/// rule) for every stack but nanotron, whose Llama's `get_block_compute_costs` (models/llama.py at 2411b02) costs a
/// decoder layer 4·heads·(hidden/heads)·hidden + 3·ffn·hidden (the attention projections as four square matrices,
/// whatever the KV heads; the SwiGLU MLP) and the LM head vocab·hidden; nothing else (embedding, norms, loss) has a
/// cost. `step` and `plan` both set the split's weight from it.
double output_layer_weight(const std::string& software, const ModelShape& model);

/// The pipeline layers the stages share: the transformer layers, plus the embedding and the loss where they count.
std::int64_t pipeline_layers(std::int64_t layers, const ParallelConfig& parallel);

/// Each stage's model chunks, [stage][chunk]: stage s's n layers go ⌊(c+1)·n/vpp⌋ − ⌊c·n/vpp⌋ to chunk c, and the
/// layers are laid out in virtual-stage order c·pp + s, chunk 0 of every stage first (Megatron's interleaved
/// assignment, Narayanan et al. 2021 Sec. 2.2). With L divisible by pp·vpp every chunk holds L/(pp·vpp) layers.
std::vector<std::vector<Span>> stage_chunks(std::int64_t layers, const ParallelConfig& parallel);

}  // namespace parascope
