// The "placement" operation: for the first GPUs of a run, what each holds and which groups exchange traffic, per axis.
#include "ops.hpp"
#include "parascope/shards.hpp"
#include "run_json.hpp"

namespace parascope::detail {

namespace {

constexpr std::int64_t kMaxDrawn = 64;

json span_json(const Span& s) { return json::array({s.first, s.end}); }

json rank_json(const Shard& s, bool moe) {
  json layers = json::array();
  for (const Span& l : s.layers) layers.push_back(span_json(l));
  json r = {{"rank", s.coords.rank}, {"node", s.coords.node}, {"tp", s.coords.tp_rank}, {"cp", s.coords.cp_rank},
            {"dp", s.coords.dp_rank}, {"pp", s.coords.pp_rank}, {"ep", s.coords.ep_rank},
            {"heads", span_json(s.heads)}, {"layers", std::move(layers)}};
  if (moe) r["experts"] = span_json(s.experts);
  return r;
}

}  // namespace

json op_placement(RequestReader& request) {
  const TrainingRun run = read_run(request);
  const std::int64_t limit = request.integer_or("drawn", kMaxDrawn, 1, kMaxDrawn);
  request.finish();

  const std::int64_t drawn = std::min(limit, run.cluster.gpus);
  json ranks = json::array();
  for (std::int64_t r = 0; r < drawn; ++r) ranks.push_back(rank_json(shard_of(run, r), run.model.is_moe()));

  json axes = json::array();
  std::vector<Axis> order = {Axis::data, Axis::tensor, Axis::pipeline, Axis::expert};
  if (run.parallel.cp > 1) order.push_back(Axis::context);
  for (Axis axis : order) {
    const GroupPlacement g = place_group(run.cluster, run.parallel, axis);
    axes.push_back({{"axis", axis_name(axis)},
                    {"size", g.size},
                    {"stride", g.stride},
                    {"members_per_node", g.members_per_node},
                    {"link", g.crosses_nodes ? "inter" : "intra"},
                    {"link_name", g.link},
                    {"groups", groups_among(run, axis, drawn)}});
  }
  const std::int64_t per_node = run.cluster.gpus_per_node;
  return {{"gpus", run.cluster.gpus},
          {"gpus_per_node", per_node},
          {"nodes", (run.cluster.gpus + per_node - 1) / per_node},
          {"drawn", drawn},
          {"ranks", std::move(ranks)},
          {"axes", std::move(axes)}};
}

}  // namespace parascope::detail
