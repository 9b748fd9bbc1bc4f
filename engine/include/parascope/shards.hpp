/// What each GPU of a run holds (its heads, layers, experts, replica) and which GPUs exchange traffic on each axis:
/// the drawing data behind the four-axis figure, derived from rank_coords and place_group.
#pragma once

#include <cstdint>
#include <vector>

#include "parascope/parallel.hpp"

namespace parascope {

/// A half-open range [first, end) of layers, heads or experts.
struct Span {
  std::int64_t first = 0, end = 0;
};

/// One GPU's shard: its coordinates and what it holds.
struct Shard {
  RankCoords coords;
  Span heads;                 ///< attention heads of every layer it holds (Megatron splits heads over TP)
  std::vector<Span> layers;   ///< its model chunks' layers: one span per virtual stage (vpp spans)
  Span experts;               ///< routed experts it holds in every MoE layer ({0, 0} for a dense model)
};

/// Chunk c of pipeline stage s holds the (c·pp + s)-th of pp·vpp nearly equal slices of the layers (interleaved
/// schedule, Narayanan et al. 2021 Sec. 2.2); slice j is [floor(j·L/(pp·vpp)), floor((j+1)·L/(pp·vpp))).
Shard shard_of(const TrainingRun& run, std::int64_t rank);

/// The groups of `axis` that have at least two members among ranks [0, drawn): each a list of ranks in group order
/// (ranks ≥ drawn left out). Members of a group are `stride` ranks apart (place_group); the expert group of a rank
/// starts ep_rank·tp ranks before it.
std::vector<std::vector<std::int64_t>> groups_among(const TrainingRun& run, Axis axis, std::int64_t drawn);

}  // namespace parascope
