// The "plan" operation and PlanSession (the same search a slice at a time): request fields -> PlanQuery, and the
// search's outcome -> JSON. Field names live here only; the search itself (plan.cpp) speaks the domain.
#include <algorithm>

#include "error_band.hpp"
#include "kernel_model.hpp"
#include "names.hpp"
#include "number_text.hpp"
#include "ops.hpp"
#include "parascope/api.hpp"
#include "parascope/plan.hpp"
#include "run_json.hpp"
#include "spec_json.hpp"

namespace parascope {

namespace detail {

namespace {

constexpr std::int64_t kMaxBatch = 100'000'000;
constexpr std::int64_t kMaxTopK = 100;

/// An optional list of allowed values under `key`: a non-empty array, each item read by `item` (which throws for a
/// bad one, given the item's path); repeats are dropped. Absent: `fallback`.
template <typename T, typename Item>
std::vector<T> read_list(RequestReader& r, const char* key, std::vector<T> fallback, Item item) {
  if (!r.has(key)) {
    r.accept(key);
    return fallback;
  }
  const json& v = r.value(key);
  if (!v.is_array()) {
    throw RequestError(code::wrong_type, r.path_of(key) + " must be a list of allowed values", r.path_of(key));
  }
  if (v.empty()) {
    throw RequestError(code::invalid_value, r.path_of(key) + " must allow at least one value; got an empty list",
                       r.path_of(key));
  }
  std::vector<T> out;
  for (std::size_t i = 0; i < v.size(); ++i) {
    const T t = item(v[i], r.path_of(key) + "[" + std::to_string(i) + "]");
    if (std::find(out.begin(), out.end(), t) == out.end()) out.push_back(t);
  }
  return out;
}

/// One string item that must be one of `ids`.
std::string_view named_item(const json& v, const std::string& path, const std::vector<std::string_view>& ids) {
  std::string allowed;
  for (const std::string_view id : ids) allowed += (allowed.empty() ? "\"" : ", \"") + std::string(id) + "\"";
  if (!v.is_string()) throw RequestError(code::wrong_type, path + " must be one of " + allowed, path);
  for (const std::string_view id : ids) {
    if (v.get<std::string>() == id) return id;
  }
  throw RequestError(code::invalid_value,
                     path + " must be one of " + allowed + "; got \"" + v.get<std::string>() + "\"", path);
}

/// The memory per GPU the search lets a configuration need (bytes). "band": the capacity over the p90 of measured /
/// predicted peak memory on the published runs the memory model was not fitted to (engine/data/error_bands.json), so
/// a pick would have started where 9 in 10 of those runs' peaks did; "none": the capacity itself, `step`'s `fits`.
double memory_limit(const std::string& margin, const PlanQuery& q) {
  const double capacity = q.hardware.memory_bytes;
  if (margin == "none" || capacity <= 0) return capacity;
  const RatioBand band = error_bands(q.software, q.hardware.id).memory;
  return band.rows > 0 && band.p90 > 1 ? capacity / band.p90 : capacity;
}

PlanQuery read_plan_query(RequestReader& request) {
  PlanQuery q;
  q.model = resolve_model(request, "model");
  q.hardware = resolve_hardware(request, "hardware");
  {
    RequestReader cluster = request.object("cluster");
    q.cluster = read_cluster(cluster, q.hardware);
  }
  q.global_batch = request.integer("global_batch", 1, kMaxBatch);
  q.software = request.choice_or("software", "megatron-core", software_ids());
  // What the stack can run is what is searched by default: nanotron has no FSDP (ZeRO 0 and 1: optimizer.zero_stage,
  // optim/zero.py) and two pipeline engines, all-forward-all-backward and 1F1B (parallelism.pp_engine,
  // parallel/pipeline_parallel/engine.py at 2411b02), without interleaving.
  // Megatron-DeepSpeed (BLOOM's stack) pipelines with DeepSpeed's engine, whose one training schedule is 1F1B
  // (TrainSchedule, deepspeed/runtime/pipe/schedule.py at v0.6.0) and which refuses ZeRO 2 and 3 ("ZeRO-2 and ZeRO-3
  // are incompatible with pipeline parallelism", pipe/engine.py); its fork recomputes whole layers or nothing
  // (--checkpoint-activations, megatron/arguments.py, bigscience-workshop/Megatron-DeepSpeed at 8387ae1) and has no
  // sequence parallelism (no --sequence-parallel in that arguments.py: it came with Megatron-LM 3.0). Neither it nor
  // the Megatron-LM of 2021–2022 splits the sequence across GPUs (context parallelism came with Megatron-Core).
  const bool nanotron = q.software == "nanotron";
  const bool deepspeed = q.software == "deepspeed";
  const bool before_context_parallelism = deepspeed || q.software == "megatron-2021";
  std::vector<Schedule> all_schedules;
  for (const ScheduleInfo& s : schedules()) {
    const bool runs = deepspeed ? s.schedule == Schedule::one_f_one_b
                                : !nanotron || s.schedule == Schedule::gpipe || s.schedule == Schedule::one_f_one_b;
    if (runs) all_schedules.push_back(s.schedule);
  }
  q.schedules = read_list<Schedule>(request, "schedules", all_schedules, [](const json& v, const std::string& path) {
    return *parse_schedule(named_item(v, path, schedule_ids()));
  });
  // Searched by default: none, selective and full; torchtitan's per-op policy ("op") when the request lists it.
  // nanotron recomputes whole layers or nothing (parallelism.recompute_layer, config/parallelism_config.py at 2411b02).
  std::vector<Recompute> all_recompute;
  for (const std::string_view id : recompute_ids()) {
    const Recompute r = parse_recompute(id);
    if (r != Recompute::op && !((nanotron || deepspeed) && r == Recompute::selective)) all_recompute.push_back(r);
  }
  q.recompute = read_list<Recompute>(request, "recompute", all_recompute, [&q](const json& v, const std::string& path) {
    const Recompute r = parse_recompute(named_item(v, path, recompute_ids()));
    check_op_recompute(q.model, r, path);
    return r;
  });
  const std::vector<int> zero_default = nanotron || deepspeed ? std::vector<int>{0, 1} : zero_stages();
  q.zero = read_list<int>(request, "zero", zero_default, [](const json& v, const std::string& path) {
    const auto& stages = zero_stages();
    if (!v.is_number() || !std::isfinite(v.get<double>()) || v.get<double>() != std::floor(v.get<double>()) ||
        v.get<double>() < stages.front() || v.get<double>() > stages.back()) {
      throw RequestError(v.is_number() ? code::out_of_range : code::wrong_type,
                         path + " must be a ZeRO stage: 0, 1, 2 or 3", path);
    }
    return int(v.get<double>());
  });
  q.sequence_parallel = read_list<bool>(request, "sequence_parallel",
                                        deepspeed ? std::vector<bool>{false} : std::vector<bool>{false, true},
                                        [](const json& v, const std::string& path) {
                                          if (!v.is_boolean()) {
                                            throw RequestError(code::wrong_type, path + " must be true or false", path);
                                          }
                                          return v.get<bool>();
                                        });
  q.precision = read_list<Precision>(
      request, "precision", {Precision::bf16},
      [](const json& v, const std::string& path) { return parse_precision(named_item(v, path, precision_ids())); });
  if (std::find(q.precision.begin(), q.precision.end(), Precision::fp8) != q.precision.end() &&
      q.hardware.peak_flops_fp8 <= 0) {
    throw RequestError(code::inconsistent,
                       "precision \"fp8\" needs FP8 tensor cores: the hardware gives no peak_flops_fp8 (" +
                           (q.hardware.id.empty() ? std::string("custom hardware") : q.hardware.id) + ")",
                       "precision");
  }
  q.max_tp = request.integer_or("max_tp", 0, 1, 10'000'000);
  q.max_cp = request.integer_or("max_cp", before_context_parallelism ? 1 : 0, 1, 10'000'000);
  q.top_k = int(request.integer_or("top_k", 10, 1, kMaxTopK));
  const std::string objective = request.choice_or("objective", "mfu", objective_ids());
  q.objective = objective == "step_time" ? PlanObjective::step_time
                : objective == "memory"  ? PlanObjective::memory
                                         : PlanObjective::mfu;
  q.efficiency = default_efficiency(q.hardware, q.software);
  q.memory_limit = memory_limit(request.choice_or("memory_margin", "band", {"band", "none"}), q);
  // Optimizer offload, for every configuration searched: what makes a model fit on too few GPUs, at its cost.
  q.offload_optimizer = read_offload(request, q.hardware);
  if (!q.efficiency.flash_attention &&
      std::find(q.recompute.begin(), q.recompute.end(), Recompute::op) != q.recompute.end()) {
    throw RequestError(code::inconsistent,
                       "recompute \"op\" needs a fused attention kernel; software \"" + q.software + "\" has none",
                       "recompute");
  }
  request.finish();
  return q;
}

json candidate_to_json(const PlanCandidate& c) {
  const ParallelConfig& p = c.parallel;
  json out = {{"parallel",
               {{"dp", p.dp},
                {"tp", p.tp},
                {"pp", p.pp},
                {"cp", p.cp},
                {"ep", p.ep},
                {"vpp", p.vpp},
                {"microbatch_size", p.microbatch_size},
                {"global_batch", p.global_batch},
                {"schedule", std::string(schedule_id(p.schedule))},
                {"recompute", std::string(recompute_id(p.recompute))},
                {"sequence_parallel", p.sequence_parallel},
                {"zero", p.zero}}},
              {"precision", std::string(precision_id(c.precision))},
              {"mfu", c.mfu},
              {"step_time", c.step_time},
              {"memory_per_gpu", c.memory_per_gpu},
              {"fits", c.fits}};
  if (p.offload_optimizer > 0) out["parallel"]["offload_optimizer"] = p.offload_optimizer;
  return out;
}

std::string gigabytes(double bytes) { return format_fixed(bytes / 1e9, 1); }

/// The ranked results read through the error band (engine/data/error_bands.json): each with its MFU range, whether
/// its memory is within the memory band of the GPU's capacity (`memory_tight`: it may not start), and whether its
/// MFU is within the band's half-width of the best (`tie_with_best`). None is tight unless the request's memory_margin
/// is "none" (the search's own limit leaves that room otherwise). Configurations that surely fit come first;
/// within each kind the search's order stays.
json ranked_with_bands(const std::vector<PlanCandidate>& results, const PlanQuery& q) {
  const ErrorBands bands = error_bands(q.software, q.hardware.id);
  const double half_width = (bands.speed.p90 - bands.speed.p10) / (bands.speed.p90 + bands.speed.p10);
  const double best = results.empty() ? 0.0 : results.front().mfu;
  json sure = json::array(), tight = json::array();
  for (const PlanCandidate& c : results) {
    json j = candidate_to_json(c);
    const bool is_tight = q.hardware.memory_bytes > 0 && c.memory_per_gpu * bands.memory.p90 > q.hardware.memory_bytes;
    j["mfu_range"] = {c.mfu * bands.speed.p10, c.mfu * bands.speed.p90};
    j["memory_tight"] = is_tight;
    j["tie_with_best"] = c.mfu >= best * (1.0 - half_width);
    (is_tight ? tight : sure).push_back(std::move(j));
  }
  for (json& j : tight) sure.push_back(std::move(j));
  return sure;
}

json plan_to_json(const PlanResult& r, const PlanQuery& q) {
  auto list = [](const std::vector<PlanCandidate>& cs) {
    json out = json::array();
    for (const PlanCandidate& c : cs) out.push_back(candidate_to_json(c));
    return out;
  };
  json rejected = json::object();
  for (int i = 0; i < kPlanRejections; ++i) rejected[rejection_id(PlanRejection(i))] = r.rejected[std::size_t(i)];
  json out = {{"results", ranked_with_bands(r.results, q)},
              {"evaluated", r.evaluated},
              {"rejected", std::move(rejected)},
              {"pareto", list(r.pareto)},
              {"scatter", list(r.scatter)},
              {"elapsed", r.elapsed}};
  const bool margin = q.memory_limit > 0 && q.memory_limit < q.hardware.memory_bytes;
  if (q.memory_limit > 0) out["memory_limit"] = q.memory_limit;
  if (r.results.empty()) {
    if (r.has_closest_miss) {
      const std::string gpu = q.hardware.id.empty() ? std::string("GPU") : q.hardware.id;
      out["why_empty"] = "nothing fits in memory: the closest miss needs " + gigabytes(r.closest_miss.memory_per_gpu) +
                         " GB per GPU and the " + gpu + " has " + gigabytes(q.hardware.memory_bytes) + " GB" +
                         (margin ? ", of which the planner allows " + gigabytes(q.memory_limit) +
                                       " GB to leave room for the memory model's error (memory_margin)"
                                 : std::string());
      out["closest_miss"] = candidate_to_json(r.closest_miss);
    } else {
      out["why_empty"] = "every configuration was ruled out before timing (see rejected)";
    }
  }
  return out;
}

}  // namespace

json op_plan(RequestReader& request) {
  PlanSearch search(read_plan_query(request));
  while (!search.advance(std::int64_t(1) << 24)) {
  }
  return plan_to_json(search.result(), search.query());
}

}  // namespace detail

struct PlanSession::Impl {
  std::unique_ptr<PlanSearch> search;
  std::string error;  ///< the request's error object text, when it was refused
};

PlanSession::PlanSession(std::string_view request_text) : impl_(std::make_unique<Impl>()) {
  impl_->error = detail::answer_or_error([&]() -> std::string {
    detail::json request;
    std::string refusal;
    if (!detail::read_request(request_text, request, refusal)) return refusal;
    detail::RequestReader reader(request, "");
    const detail::json& op = reader.value("op");
    if (!op.is_string() || op.get<std::string>() != "plan") {
      throw RequestError(code::invalid_value, "a plan search is built from a \"plan\" request: op must be \"plan\"",
                         "op");
    }
    impl_->search = std::make_unique<PlanSearch>(detail::read_plan_query(reader));
    return "";
  });
}

PlanSession::~PlanSession() = default;

std::string PlanSession::advance(std::int64_t max_configs) {
  if (!impl_->search) return impl_->error;
  return detail::answer_or_error([&] {
    const bool done = impl_->search->advance(max_configs);
    return detail::checked(
        {{"done", done}, {"evaluated", impl_->search->considered()}, {"total", impl_->search->total()}});
  });
}

std::string PlanSession::result() {
  if (!impl_->search) return impl_->error;
  return detail::answer_or_error([&] {
    while (!impl_->search->advance(std::int64_t(1) << 24)) {
    }
    return detail::checked(detail::plan_to_json(impl_->search->result(), impl_->search->query()));
  });
}

}  // namespace parascope
