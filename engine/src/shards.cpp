// Shards and groups of a run for drawing: what each GPU holds and who exchanges traffic with whom.
#include "parascope/shards.hpp"

namespace parascope {

namespace {

Span slice(std::int64_t total, std::int64_t parts, std::int64_t index) {
  return {index * total / parts, (index + 1) * total / parts};
}

std::int64_t coordinate(const RankCoords& c, Axis axis) {
  switch (axis) {
    case Axis::tensor:
      return c.tp_rank;
    case Axis::context:
      return c.cp_rank;
    case Axis::data:
      return c.dp_rank;
    case Axis::pipeline:
      return c.pp_rank;
    case Axis::expert:
      return c.ep_rank;
  }
  return 0;
}

}  // namespace

Shard shard_of(const TrainingRun& run, std::int64_t rank) {
  const ParallelConfig& p = run.parallel;
  const ModelShape& m = run.model;
  Shard s;
  s.coords = rank_coords(run.cluster, p, rank);
  s.heads = slice(m.heads, p.tp, s.coords.tp_rank);
  s.layers = stage_chunks(m.layers, p)[std::size_t(s.coords.pp_rank)];
  if (m.is_moe()) s.experts = slice(m.experts, p.ep, s.coords.ep_rank);
  return s;
}

std::vector<std::vector<std::int64_t>> groups_among(const TrainingRun& run, Axis axis, std::int64_t drawn) {
  const GroupPlacement g = place_group(run.cluster, run.parallel, axis);
  std::vector<std::vector<std::int64_t>> out;
  if (g.size < 2) return out;
  for (std::int64_t r = 0; r < drawn; ++r) {
    if (coordinate(rank_coords(run.cluster, run.parallel, r), axis) != 0) continue;  // r leads its group
    std::vector<std::int64_t> members;
    for (std::int64_t i = 0; i < g.size && r + i * g.stride < drawn; ++i) members.push_back(r + i * g.stride);
    if (members.size() >= 2) out.push_back(std::move(members));
  }
  return out;
}

}  // namespace parascope
