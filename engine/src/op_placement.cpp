// The "placement" operation: for the first GPUs of a run, what each holds and which groups exchange traffic, per axis.
#include "json_out.hpp"
#include "ops.hpp"
#include "parascope/shards.hpp"
#include "run_json.hpp"

namespace parascope::detail {

namespace {

constexpr std::int64_t kMaxDrawn = 64;

json span_json(const Span& s) { return json::array({s.first, s.end}); }

void put_rank(json& r, const Shard& s, bool moe) {
  put(r, "rank", s.coords.rank);
  put(r, "node", s.coords.node);
  put(r, "tp", s.coords.tp_rank);
  put(r, "cp", s.coords.cp_rank);
  put(r, "dp", s.coords.dp_rank);
  put(r, "pp", s.coords.pp_rank);
  put(r, "ep", s.coords.ep_rank);
  put(r, "heads", span_json(s.heads));
  json& layers = put_array(r, "layers");
  for (const Span& l : s.layers) layers.push_back(span_json(l));
  if (moe) put(r, "experts", span_json(s.experts));
}

}  // namespace

json op_placement(RequestReader& request) {
  const TrainingRun run = read_run(request);
  const std::int64_t limit = request.integer_or("drawn", kMaxDrawn, 1, kMaxDrawn);
  request.finish();

  const std::int64_t drawn = std::min(limit, run.cluster.gpus);
  json out;
  json& ranks = put_array(out, "ranks");
  for (std::int64_t r = 0; r < drawn; ++r) put_rank(push_object(ranks), shard_of(run, r), run.model.is_moe());

  json& axes = put_array(out, "axes");
  std::vector<Axis> order = {Axis::data, Axis::tensor, Axis::pipeline, Axis::expert};
  if (run.parallel.cp > 1) order.push_back(Axis::context);
  for (Axis axis : order) {
    const GroupPlacement g = place_group(run.cluster, run.parallel, axis);
    json& a = push_object(axes);
    put(a, "axis", axis_name(axis));
    put(a, "size", g.size);
    put(a, "stride", g.stride);
    put(a, "members_per_node", g.members_per_node);
    put(a, "link", g.crosses_nodes ? "inter" : "intra");
    put(a, "link_name", g.link);
    put(a, "groups", groups_among(run, axis, drawn));
  }
  const std::int64_t per_node = run.cluster.gpus_per_node;
  put(out, "gpus", run.cluster.gpus);
  put(out, "gpus_per_node", per_node);
  put(out, "nodes", (run.cluster.gpus + per_node - 1) / per_node);
  put(out, "drawn", drawn);
  return out;
}

}  // namespace parascope::detail
