/// What each GPU of a run holds (its heads, layers, experts, replica) and which GPUs exchange traffic on each axis:
/// the drawing data behind the four-axis figure, derived from rank_coords and place_group.
#pragma once

#include <cstdint>
#include <vector>

#include "parascope/parallel.hpp"
#include "parascope/stages.hpp"

namespace parascope {

/// One GPU's shard: its coordinates and what it holds.
struct Shard {
  RankCoords coords;
  Span heads;                ///< attention heads of every layer it holds (Megatron splits heads over TP)
  std::vector<Span> layers;  ///< its model chunks' layers: one span per virtual stage (vpp spans)
  Span experts;              ///< routed experts it holds in every MoE layer ({0, 0} for a dense model)
};

/// Chunk c of pipeline stage s holds the layers stage_chunks gives it (stages.hpp: Megatron's interleaved order,
/// Narayanan et al. 2021 Sec. 2.2, with the stated rule for uneven splits and the first/last-stage counts).
Shard shard_of(const TrainingRun& run, std::int64_t rank);

/// The groups of `axis` that have at least two members among ranks [0, drawn): each a list of ranks in group order
/// (ranks ≥ drawn left out). Members of a group are `stride` ranks apart (place_group); the expert group of a rank
/// starts ep_rank·etp ranks before it.
std::vector<std::vector<std::int64_t>> groups_among(const TrainingRun& run, Axis axis, std::int64_t drawn);

}  // namespace parascope
