// The planner's search: enumerate every split of the cluster, refuse what the rules refuse, time the rest with the
// cost model, keep the best, the Pareto front and a scatter of the cloud; resumable a slice at a time.
#include "parascope/plan.hpp"

#include <algorithm>
#include <array>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <unordered_map>

#include "memory_model.hpp"
#include "parascope/error.hpp"
#include "parascope/stages.hpp"
#include "pipeline_detail.hpp"
#include "plan_size.hpp"
#include "step_phases.hpp"

namespace parascope {

namespace {

using detail::divisors;

/// One way to cut the cluster: dp × tp × pp × cp GPUs (ep inside dp·cp), or the reason it cannot be used.
struct Split {
  std::int64_t dp = 1, tp = 1, pp = 1, cp = 1, ep = 1;
  bool rejected = false;
  PlanRejection reason = PlanRejection::does_not_divide;
};

/// Within a split: one microbatch size and one schedule (with its interleaving degree), or why the schedule refuses.
struct Group {
  std::int64_t microbatch_size = 1, vpp = 1;
  Schedule schedule = Schedule::one_f_one_b;
  bool rejected = false;
};

/// The knobs that vary inside a group, in the order the search walks them (the ZeRO stage fastest: the cost model's
/// first phase, step_phases.hpp, is shared by every ZeRO stage of one `core`).
struct Knobs {
  Recompute recompute;
  bool sequence_parallel;
  Precision precision;
  int zero;
  int core;  ///< index of (recompute, sequence_parallel, precision)
};

/// Is `a` ranked above `b` under the objective? Ties fall to memory (or MFU for the memory objective), then to the
/// search order, so every ranking is a strict total order.
bool better(PlanObjective objective, const PlanCandidate& a, const PlanCandidate& b) {
  switch (objective) {
    case PlanObjective::mfu:
      if (a.mfu != b.mfu) return a.mfu > b.mfu;
      if (a.memory_per_gpu != b.memory_per_gpu) return a.memory_per_gpu < b.memory_per_gpu;
      break;
    case PlanObjective::step_time:
      if (a.step_time != b.step_time) return a.step_time < b.step_time;
      if (a.memory_per_gpu != b.memory_per_gpu) return a.memory_per_gpu < b.memory_per_gpu;
      break;
    case PlanObjective::memory:
      if (a.memory_per_gpu != b.memory_per_gpu) return a.memory_per_gpu < b.memory_per_gpu;
      if (a.mfu != b.mfu) return a.mfu > b.mfu;
      break;
  }
  return a.order < b.order;
}

/// The scatter's finest grid: MFU in steps of 0.005, memory per GPU in steps of 2^(1/8). Coarsened by halving both
/// until at most kPlanScatterPoints cells hold a point.
struct Cell {
  std::int64_t mfu_bin, memory_bin;
  bool fits;
};
Cell cell_of(const PlanCandidate& c) {
  const double mfu = std::clamp(c.mfu, 0.0, 4.0);
  const double memory = std::max(c.memory_per_gpu, 1.0);
  return {std::int64_t(std::floor(mfu * 200.0)), std::int64_t(std::floor(std::log2(memory) * 8.0)), c.fits};
}
std::int64_t cell_key(const Cell& cell, int coarsen) {
  return ((cell.mfu_bin >> coarsen) << 20) ^ ((cell.memory_bin >> coarsen) << 1) ^ (cell.fits ? 1 : 0);
}

}  // namespace

const char* rejection_id(PlanRejection reason) {
  switch (reason) {
    case PlanRejection::does_not_divide:
      return "does_not_divide";
    case PlanRejection::too_few_layers:
      return "too_few_layers";
    case PlanRejection::schedule_rule:
      return "schedule_rule";
    case PlanRejection::out_of_memory:
      return "out_of_memory";
    case PlanRejection::cannot_win:
      return "cannot_win";
  }
  return "?";
}

namespace {

/// One advance() call's clock. A pipeline timing that the slice cannot expect to finish by its end waits for the next
/// slice (where it comes first, so that every slice makes progress). Its expected cost: its schedule's ops at the
/// slowest rate seen so far (ops bound what a simulation runs; a timing that repeats early runs far fewer), and at
/// most the longest timing seen so far. A call then ends by about the slice, plus what a timing longer than any
/// before it adds.
struct Slice {
  std::chrono::steady_clock::time_point start;
  double limit = 0;           ///< kSliceSeconds
  double seconds_per_op = 0;  ///< the slowest long pipeline timing seen in the search, per op of its schedule
  double longest = 0;         ///< the longest recent pipeline timing in the search, in seconds (it fades)
  bool first = true;          ///< nothing was decided yet in this slice
  /// Whether a timing of a schedule of `ops` ops may start now.
  bool may_time(std::int64_t ops) const {
    if (first) return true;
    const double spent = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    return spent + std::min(double(ops) * seconds_per_op, longest) <= limit;
  }
};

}  // namespace

struct PlanSearch::State {
  PlanQuery query;
  std::vector<Split> splits;
  std::vector<Group> groups;  // the groups of split `groups_split`, built when the search reaches it
  std::size_t groups_split = SIZE_MAX;
  std::vector<Knobs> knobs;        // every combination of the inner knobs
  std::vector<Knobs> knobs_no_tp;  // the same without sequence parallelism (tp = 1)
  std::int64_t total = 0;          // configurations, as check_plan_size counted them
  std::int64_t enumerated = 0;     // configurations of the splits reached so far, as the search counts them
  // Cursor: split, group within it, knob within the group; `considered` counts configurations passed.
  std::size_t split = 0, group = 0, knob = 0;
  std::int64_t considered = 0;
  PlanResult out;
  double seconds_per_op = 0;  // the slowest long pipeline timing so far per op of its schedule (Slice::may_time)
  double longest_timing = 0;  // the longest recent pipeline timing, in seconds, fading (Slice::may_time)
  std::unordered_map<std::int64_t, PlanCandidate> cells;
  // The run being evaluated (its parallel block rewritten per configuration) and the cost model's first phase for
  // the last (split, group, core knobs), shared by the ZeRO stages that follow it.
  TrainingRun run;
  detail::StepCorePtr core;
  std::size_t core_split = SIZE_MAX, core_group = SIZE_MAX;
  int core_knobs = -1;
  double core_makespan_bound = 0;  // step_time ≥ this for every ZeRO stage of the core
  detail::PipelineMemoPtr pipeline_memo = detail::make_pipeline_memo();  // pipeline timings by their exact inputs
  detail::LayerMemoPtr layer_memo = detail::make_layer_memo();           // layer times by the fields that fix them

  /// Whether a configuration with these lower bounds (memory per GPU, step time) provably cannot change the answer:
  /// it does not fit and cannot be the closest miss (out_of_memory), or it cannot enter the top k nor the Pareto front
  /// (cannot_win; asked only of what can fit).
  bool cannot_fit(double memory_bound) const;
  /// The memory per GPU a fitting configuration may need (bytes; 0: no limit).
  double limit() const { return query.memory_limit > 0 ? query.memory_limit : query.hardware.memory_bytes; }
  bool cannot_win(double step_bound, double memory_bound) const;

  const std::vector<Knobs>& knobs_for(const Split& s) const { return s.tp > 1 ? knobs : knobs_no_tp; }
  std::int64_t group_size(const Split& s) const { return std::int64_t(knobs_for(s).size()); }

  /// A lower bound of the run's memory per GPU, known before its schedule is timed: the memory model at the
  /// activation sets each stage's program holds (exact for every schedule but ZB-H2, where it is a floor).
  /// `cannot_fit_now`: whether cannot_fit holds for it (then the bound returned may be one stage's, below the most).
  double memory_bound(const Efficiency& eff, int core_knobs_now, bool& cannot_fit_now);
  std::size_t most_stage = 0;   // which of floor_stages held the most at the last full memory_bound
  std::vector<int> peak_floor;  // memory_bound's activation sets per stage for the group below, its storage reused
  detail::CountedStages floor_stages;  // the stages memory_per_gpu counts at peak_floor, and their parameters
  std::size_t floor_split = SIZE_MAX, floor_group = SIZE_MAX;
  // The activation bytes per layer of each core knob index, for the split and microbatch size below (what they
  // depend on beside the core knobs: layer_activations), so each schedule of the microbatch size finds them.
  std::vector<detail::LayerActivations> activations;
  std::vector<bool> activations_known;
  std::size_t act_split = SIZE_MAX;
  std::int64_t act_microbatch_size = -1;
  ParamCounts params;                    // count_params(run.model), once per search
  std::array<Efficiency, 2> efficiency;  // the query's, at each Precision (indexed by it): not copied per configuration

  void enumerate();
  void build_groups(std::size_t split, std::vector<Group>& out) const;
  /// The groups of split i (built when first asked for, and their configurations counted into `enumerated`).
  const std::vector<Group>& groups_of(std::size_t split);
  /// Decides one configuration, or returns false having counted nothing when it needs a pipeline timing that `slice`
  /// says not to start now (the same call in a later slice then decides it, the same way).
  bool consider(const Split& s, const Group& g, const Knobs& k, Slice& slice);
  void keep(const PlanCandidate& c);
};

void PlanSearch::State::enumerate() {
  const PlanQuery& q = query;
  const ModelShape& m = q.model;
  int core = 0, core_no_tp = 0;
  for (const Recompute r : detail::searched_recompute(q)) {
    for (const bool sp : q.sequence_parallel) {
      for (const Precision p : q.precision) {
        for (const int z : q.zero) knobs.push_back({r, sp, p, z, core});
        ++core;
      }
    }
    // At tp = 1 there is no sequence to split: one set of knobs, without it, whatever the list allows.
    for (const Precision p : q.precision) {
      for (const int z : q.zero) knobs_no_tp.push_back({r, false, p, z, core_no_tp});
      ++core_no_tp;
    }
  }
  const std::int64_t gpus = q.cluster.gpus;
  const std::int64_t max_tp = q.max_tp > 0 ? q.max_tp : std::max<std::int64_t>(1, q.cluster.gpus_per_node);
  const std::int64_t expert_ffn = m.expert_ffn > 0 ? m.expert_ffn : m.ffn;
  // The widest tensor parallelism first: within a node it usually wins, so the k best are known early and the bounds
  // prune more of what follows (the order changes which configurations are timed, never the answer but for ties).
  std::vector<std::int64_t> tps = divisors(gpus);
  std::reverse(tps.begin(), tps.end());
  for (const std::int64_t tp : tps) {
    if (tp > max_tp) continue;
    for (const std::int64_t pp : divisors(gpus / tp)) {
      for (const std::int64_t cp : divisors(gpus / tp / pp)) {
        if (q.max_cp > 0 && cp > q.max_cp) continue;
        const std::int64_t dp = gpus / tp / pp / cp;
        // Expert parallelism (MoE parallel folding with etp = tp, run_json.cpp): ep divides the experts and dp·cp.
        std::vector<std::int64_t> eps{1};
        if (m.is_moe()) {
          eps.clear();
          for (const std::int64_t ep : divisors(m.experts)) {
            if ((dp * cp) % ep == 0) eps.push_back(ep);
          }
        }
        for (const std::int64_t ep : eps) {
          Split s{dp, tp, pp, cp, ep};
          if (m.heads % tp != 0 || (cp > 1 && m.seq % cp != 0) || q.global_batch % dp != 0 ||
              (m.is_moe() && expert_ffn % tp != 0)) {
            s.rejected = true;
            s.reason = PlanRejection::does_not_divide;
          } else if (pp > m.layers) {
            s.rejected = true;
            s.reason = PlanRejection::too_few_layers;
          }
          splits.push_back(s);
        }
      }
    }
  }
}

// Each microbatch size (a divisor of the per-replica batch) × schedule (× interleaving degree), and whether the
// schedule refuses the pipeline it makes.
void PlanSearch::State::build_groups(std::size_t i, std::vector<Group>& out) const {
  const PlanQuery& q = query;
  const Split& s = splits[i];
  out.clear();
  if (s.rejected) return;
  for (const std::int64_t mbs : divisors(q.global_batch / s.dp)) {
    const std::int64_t microbatches = q.global_batch / (s.dp * mbs);
    for (const Schedule schedule : q.schedules) {
      std::vector<std::int64_t> vpps{1};
      if (schedule_info(schedule).interleaves) {
        // Interleaving degrees v ≥ 2 that give every model chunk the same layers (interleaved with v = 1 is 1F1B).
        vpps.clear();
        if (s.pp > 1) {
          for (std::int64_t v = 2; s.pp * v <= q.model.layers; ++v) {
            if (q.model.layers % (s.pp * v) == 0) vpps.push_back(v);
          }
        }
      }
      for (const std::int64_t vpp : vpps) {
        Group g{mbs, vpp, schedule};
        PipelineSpec spec;
        spec.schedule = schedule;  // DualPipe on one stage is refused, as step refuses it
        spec.stages = int(std::min<std::int64_t>(s.pp, kMaxPipelineStages + 1));
        spec.microbatches = int(std::min<std::int64_t>(microbatches, kMaxPipelineMicrobatches + 1));
        spec.chunks = int(vpp);
        spec.times = default_times(spec.schedule);
        g.rejected = pipeline_refusal(spec).has_value();
        out.push_back(g);
      }
    }
  }
}

const std::vector<Group>& PlanSearch::State::groups_of(std::size_t i) {
  if (groups_split != i) {
    build_groups(i, groups);
    groups_split = i;
    enumerated += std::int64_t(groups.size()) * group_size(splits[i]);  // a rejected split: none (advance counts 1)
  }
  return groups;
}

namespace {

/// Whether `b` is `a` under another schedule's name and nothing else: at one pipeline stage a schedule only orders one
/// GPU's passes, and 1F1B, ZB-H1 and ZB-H2 order them alike (the same step time and memory), so the top k would list
/// one run as two or three rows (issue 25). GPipe at one stage holds every microbatch: more memory, not a twin.
bool renamed_schedule(const PlanCandidate& a, const PlanCandidate& b) {
  const ParallelConfig &p = a.parallel, &q = b.parallel;
  return p.pp == 1 && q.pp == 1 && p.schedule != q.schedule && a.step_time == b.step_time &&
         a.memory_per_gpu == b.memory_per_gpu && a.precision == b.precision && p.dp == q.dp && p.tp == q.tp &&
         p.cp == q.cp && p.ep == q.ep && p.etp == q.etp && p.microbatch_size == q.microbatch_size &&
         p.recompute == q.recompute && p.sequence_parallel == q.sequence_parallel && p.zero == q.zero &&
         p.reshard_after_forward == q.reshard_after_forward;
}

}  // namespace

void PlanSearch::State::keep(const PlanCandidate& c) {
  const PlanObjective objective = query.objective;
  const auto rank = [objective](const PlanCandidate& a, const PlanCandidate& b) { return better(objective, a, b); };
  // The scatter: the best configuration of each cell.
  const std::int64_t key = cell_key(cell_of(c), 0);
  const auto found = cells.find(key);
  if (found == cells.end()) {
    cells.emplace(key, c);
  } else if (rank(c, found->second)) {
    found->second = c;
  }
  if (!c.fits) {
    if (!out.has_closest_miss || c.memory_per_gpu < out.closest_miss.memory_per_gpu ||
        (c.memory_per_gpu == out.closest_miss.memory_per_gpu && rank(c, out.closest_miss))) {
      out.closest_miss = c;
      out.has_closest_miss = true;
    }
    return;
  }
  // The top k, each run once.
  std::vector<PlanCandidate>& top = out.results;
  const bool twin = std::any_of(top.begin(), top.end(), [&](const PlanCandidate& t) { return renamed_schedule(t, c); });
  if (!twin && (top.size() < std::size_t(query.top_k) || rank(c, top.back()))) {
    top.insert(std::upper_bound(top.begin(), top.end(), c, rank), c);
    if (top.size() > std::size_t(query.top_k)) top.pop_back();
  }
  // The Pareto front (step time, memory per GPU), sorted by step time: a point no earlier one matches on both.
  std::vector<PlanCandidate>& front = out.pareto;
  for (const PlanCandidate& p : front) {
    if (p.step_time <= c.step_time && p.memory_per_gpu <= c.memory_per_gpu) return;
  }
  front.erase(std::remove_if(front.begin(), front.end(),
                             [&](const PlanCandidate& p) {
                               return c.step_time <= p.step_time && c.memory_per_gpu <= p.memory_per_gpu;
                             }),
              front.end());
  front.insert(
      std::upper_bound(front.begin(), front.end(), c,
                       [](const PlanCandidate& a, const PlanCandidate& b) { return a.step_time < b.step_time; }),
      c);
}

bool PlanSearch::State::cannot_fit(double memory_bound) const {
  const double capacity = limit();
  const bool answered = !out.results.empty();
  return capacity > 0 && memory_bound > capacity &&
         (answered || (out.has_closest_miss && memory_bound > out.closest_miss.memory_per_gpu));
}

bool PlanSearch::State::cannot_win(double step_bound, double memory_bound) const {
  if (out.results.size() < std::size_t(query.top_k)) return false;
  // Strictly behind the k-th result: step_time ≥ step_bound, and MFU is a constant over step_time (the margin keeps
  // rounding from making a tie).
  const PlanCandidate& last = out.results.back();
  const bool behind = query.objective == PlanObjective::memory ? memory_bound > last.memory_per_gpu
                                                               : step_bound * (1 - 1e-6) > last.step_time;
  if (!behind) return false;
  for (const PlanCandidate& p : out.pareto) {
    if (p.step_time <= step_bound * (1 - 1e-6) && p.memory_per_gpu <= memory_bound) return true;
  }
  return false;
}

double PlanSearch::State::memory_bound(const Efficiency& eff, int core_knobs_now, bool& cannot_fit_now) {
  // The activation sets per stage depend on the pipeline's shape alone, fixed within a group.
  // So do the stages the memory model counts (the rest cannot be the most loaded).
  if (floor_split != split || floor_group != group) {
    detail::peak_activations_floor(detail::pipeline_spec_of(run.parallel), peak_floor);
    detail::counted_stages(run, peak_floor.data(), peak_floor.size(), params, floor_stages);
    floor_split = split, floor_group = group;
    most_stage = 0;
  }
  // The activation bytes per layer are fixed within a core (all but the ZeRO stage), and across the schedules and
  // interleaving degrees of one microbatch size.
  if (act_split != split || act_microbatch_size != run.parallel.microbatch_size) {
    activations_known.assign(activations_known.size(), false);
    act_split = split, act_microbatch_size = run.parallel.microbatch_size;
  }
  const std::size_t at = std::size_t(core_knobs_now);
  if (at >= activations.size()) {
    activations.resize(at + 1);
    activations_known.resize(at + 1, false);
  }
  if (!activations_known[at]) {
    activations[at] = detail::layer_activations(run, eff);
    activations_known[at] = true;
  }
  const detail::LayerActivations& act = activations[at];
  // The bound is the most any counted stage holds, so one stage's total is at most it (the same doubles): the stage
  // that held the most last time, asked first, often proves alone that the configuration cannot fit.
  cannot_fit_now = false;
  if (most_stage < floor_stages.stage.size()) {
    const double one =
        detail::counted_stage_total(run, eff, peak_floor.data(), peak_floor.size(), floor_stages, act, most_stage);
    if (cannot_fit(one)) {
      cannot_fit_now = true;
      return one;
    }
  }
  const double total =
      detail::memory_per_gpu(run, eff, peak_floor.data(), peak_floor.size(), floor_stages, act, &most_stage).total;
  cannot_fit_now = cannot_fit(total);
  return total;
}

bool PlanSearch::State::consider(const Split& s, const Group& g, const Knobs& k, Slice& slice) {
  const std::int64_t order = considered;
  ParallelConfig& p = run.parallel;
  p.dp = s.dp, p.tp = s.tp, p.pp = s.pp, p.cp = s.cp, p.ep = s.ep;
  p.etp = query.model.is_moe() ? s.tp : 0;
  p.vpp = g.vpp;
  p.microbatch_size = g.microbatch_size;
  p.global_batch = query.global_batch;
  p.schedule = g.schedule;
  p.recompute = k.recompute;
  p.sequence_parallel = k.sequence_parallel;
  p.zero = k.zero;
  p.reshard_after_forward = p.pp == 1;  // the step op's default (run_json.cpp)
  const Efficiency& eff = efficiency[std::size_t(k.precision)];
  // Pruning (engine/API.md, "plan"): lower bounds of memory and step time, known before the schedule is timed. The
  // memory bound needs no cost model, so a configuration that cannot fit (nor be the closest miss) is refused before
  // its core (the cost model's first phase) is built.
  bool out_of_memory = false;
  const double memory = query.prune ? memory_bound(eff, k.core, out_of_memory) : 0.0;
  if (query.prune && out_of_memory) {
    ++out.rejected[std::size_t(PlanRejection::out_of_memory)];
    return true;
  }
  if (!core || core_split != split || core_group != group || core_knobs != k.core) {
    detail::rebuild_step_core(core, run, eff, layer_memo.get());
    core_split = split, core_group = group, core_knobs = k.core;
    core_makespan_bound = detail::makespan_lower_bound(run, *core);
  }
  if (query.prune && cannot_win(core_makespan_bound, memory)) {
    ++out.rejected[std::size_t(PlanRejection::cannot_win)];
    return true;
  }
  // The planner reads step_time, mfu and memory, never the pp_comm/bubble split: skip ZB-H2's run without sends.
  // The timing is the one costly step: left to the next slice when this one cannot expect to end it in time. Its cost
  // grows with the schedule's ops (p · m · v · kinds) at most, so the slowest rate seen so far bounds it.
  if (!detail::step_core_scheduled(*core)) {
    const std::int64_t ops = pipeline_op_count(detail::pipeline_spec_of(p));
    if (!slice.may_time(ops)) return false;
    const auto t0 = std::chrono::steady_clock::now();
    detail::schedule_step_core(run, *core, false, pipeline_memo.get());
    const double took = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    // A rate from long timings only: a short one's fixed costs would make every estimate too high.
    if (took > 1e-3) seconds_per_op = std::max(seconds_per_op, took / double(std::max<std::int64_t>(1, ops)));
    // The longest fades by a tenth per timing: one stretched by a busy machine (the clock is wall time) would
    // otherwise leave every later slice one timing long.
    longest_timing = std::max(took, 0.9 * longest_timing);
    slice.seconds_per_op = seconds_per_op;
    slice.longest = longest_timing;
  }
  const StepResult r = detail::finish_step(run, eff, *core, false);
  PlanCandidate c;
  c.parallel = p;
  c.precision = k.precision;
  c.mfu = r.mfu;
  c.step_time = r.step_time;
  c.memory_per_gpu = r.memory.total;
  c.fits = limit() <= 0 || r.memory.total <= limit();
  c.order = order;
  ++out.evaluated;
  keep(c);
  return true;
}

PlanSearch::PlanSearch(PlanQuery query) : state_(std::make_unique<State>()) {
  state_->query = std::move(query);
  State& st = *state_;
  // Work and memory bounded before any is done. The splits are listed now, each one's groups when the search reaches
  // it (so that building a search is short, like every slice of it); advance() checks at the end that the count the
  // bound was checked on is the search's own (a bound on another number would bound nothing).
  st.total = detail::check_plan_size(st.query);
  st.enumerate();
  // The run the search rewrites: the query's, without the text that does not change a number (copied per layer kind
  // inside the cost model, a map of sources costs more than the arithmetic).
  st.run.model = st.query.model;
  st.run.hardware = st.query.hardware;
  st.run.hardware.sources.clear();
  st.run.model.source.clear();
  st.run.cluster = st.query.cluster;
  // consider() rewrites every field of the split but these two: the offloaded share, and the output layer's weight
  // where the stack splits its pipeline by cost (nanotron, stages.hpp).
  st.run.parallel.offload_optimizer = st.query.offload_optimizer;
  st.run.parallel.output_layer_weight = output_layer_weight(st.query.software, st.run.model);
  st.params = count_params(st.run.model);
  for (const Precision precision : {Precision::bf16, Precision::fp8}) {
    st.efficiency[std::size_t(precision)] = st.query.efficiency;
    st.efficiency[std::size_t(precision)].precision = precision;
  }
  // Link and model names only label the step op's per-axis table: a name past the short-string buffer costs an
  // allocation on every copy of the run and every placement of a group (place_ranks names its link).
  for (std::string* name : {&st.run.model.name, &st.run.hardware.name, &st.run.hardware.intra_link,
                            &st.run.hardware.inter_link, &st.run.cluster.intra_link, &st.run.cluster.inter_link}) {
    name->clear();
  }
  // Refuse a question no configuration can answer: every split, or every schedule, is ruled out before timing. The
  // first split with a group the schedule accepts ends the look (one split, as a rule).
  std::vector<Group> scratch;
  for (std::size_t i = 0; i < st.splits.size(); ++i) {
    st.build_groups(i, scratch);
    for (const Group& g : scratch) {
      if (!g.rejected) return;
    }
  }
  std::int64_t splits_ok = 0;
  std::array<std::int64_t, kPlanRejections> why{};
  for (const Split& s : st.splits) {
    if (s.rejected) ++why[std::size_t(s.reason)];
    splits_ok += s.rejected ? 0 : 1;
  }
  const std::string gpus = std::to_string(st.query.cluster.gpus);
  if (splits_ok == 0) {
    throw RequestError(code::inconsistent,
                       "no split of " + gpus + " GPUs passes the rules: of " + std::to_string(st.splits.size()) +
                           " ways to cut them into dp × tp × pp × cp (tp ≤ " +
                           std::to_string(st.query.max_tp > 0 ? st.query.max_tp : st.query.cluster.gpus_per_node) +
                           "), " + std::to_string(why[0]) +
                           " need a size that does not divide the model or the batch (tp the heads, cp the sequence, "
                           "dp the global batch) and " +
                           std::to_string(why[1]) + " have more pipeline stages than layers",
                       "cluster.gpus");
  }
  throw RequestError(code::inconsistent,
                     "no allowed schedule accepts any split of " + gpus +
                         " GPUs: each refuses its stages and microbatches (e.g. interleaved needs a pipeline and "
                         "microbatches in multiples of its stages, dualpipe an even count of each)",
                     "schedules");
}
PlanSearch::~PlanSearch() = default;
PlanSearch::PlanSearch(PlanSearch&&) noexcept = default;
PlanSearch& PlanSearch::operator=(PlanSearch&&) noexcept = default;

bool PlanSearch::done() const { return state_->split >= state_->splits.size(); }
std::int64_t PlanSearch::considered() const { return state_->considered; }
std::int64_t PlanSearch::total() const { return state_->total; }
const PlanQuery& PlanSearch::query() const { return state_->query; }

namespace {

/// How long one advance() may run before it returns, whatever n it was given: a slice short enough that a Web
/// Worker between slices can take a cancel within ~50 ms. One configuration, at most one pipeline timing, is the unit
/// that cannot be cut: in the DeepSeek-V3 search up to ~9 ms natively (a ZB-H2 run that settles late), ~20 ms in the
/// wasm. A timing the slice cannot expect to finish by this limit (Slice::may_time) waits for the next slice, where it
/// comes first; one longer than any before it can still overrun, by less than its own length: 25 ms leaves room for
/// that (the wasm's longest call 30-38 ms at 30 ms slices, tests/bench/plan-slices.mjs). The answer does not depend
/// on where slices end.
constexpr double kSliceSeconds = 0.025;

/// Whether the slice begun at `start` is spent. The clock is read after every configuration the cost model timed
/// (up to a pipeline simulation each) and every 16th step otherwise (a memory bound or a rule: microseconds).
bool slice_spent(std::chrono::steady_clock::time_point start, std::int64_t steps, bool timed_one) {
  if (!timed_one && steps % 16 != 0) return false;
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count() > kSliceSeconds;
}

}  // namespace

bool PlanSearch::advance(std::int64_t max_configs) {
  State& st = *state_;
  const auto start = std::chrono::steady_clock::now();
  Slice slice{start, kSliceSeconds, st.seconds_per_op, st.longest_timing};
  std::int64_t budget = std::max<std::int64_t>(0, max_configs);
  std::int64_t timed = st.out.evaluated;
  for (std::int64_t steps = 1; budget > 0 && st.split < st.splits.size(); ++steps) {
    if (steps > 1 && slice_spent(start, steps, st.out.evaluated != timed)) break;
    timed = st.out.evaluated;
    slice.first = steps == 1;
    const Split& s = st.splits[st.split];
    if (s.rejected) {
      ++st.out.rejected[std::size_t(s.reason)];
      ++st.considered;
      ++st.enumerated;
      --budget;
      ++st.split;
      continue;
    }
    const std::vector<Group>& gs = st.groups_of(st.split);
    if (st.group >= gs.size()) {
      ++st.split;
      st.group = 0;
      st.knob = 0;
      continue;
    }
    const Group& g = gs[st.group];
    const std::vector<Knobs>& ks = st.knobs_for(s);
    if (g.rejected) {
      const std::int64_t n = std::int64_t(ks.size() - st.knob);
      const std::int64_t take = std::min(n, budget);
      st.out.rejected[std::size_t(PlanRejection::schedule_rule)] += take;
      st.considered += take;
      budget -= take;
      st.knob += std::size_t(take);
    } else {
      if (!st.consider(s, g, ks[st.knob], slice)) break;  // its timing waits for the next slice
      ++st.considered;
      --budget;
      ++st.knob;
    }
    if (st.knob >= ks.size()) {
      st.knob = 0;
      ++st.group;
    }
  }
  // Skip past the ends of exhausted splits so that done() is exact.
  while (st.split < st.splits.size() && !st.splits[st.split].rejected && st.group >= st.groups_of(st.split).size()) {
    ++st.split;
    st.group = 0;
    st.knob = 0;
  }
  if (done() && st.enumerated != st.total) {
    throw std::logic_error("plan_size counted " + std::to_string(st.total) + " configurations, the search " +
                           std::to_string(st.enumerated));
  }
  st.out.elapsed += std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return done();
}

PlanResult PlanSearch::result() const {
  const State& st = *state_;
  PlanResult r = st.out;
  // The scatter: coarsen the grid until few enough cells hold a point; keep each cell's best, in search order.
  const PlanObjective objective = st.query.objective;
  std::unordered_map<std::int64_t, PlanCandidate> cells = st.cells;
  for (int coarsen = 1; cells.size() > kPlanScatterPoints && coarsen < 40; ++coarsen) {
    std::unordered_map<std::int64_t, PlanCandidate> merged;
    for (const auto& [key, c] : st.cells) {
      (void)key;
      const std::int64_t k = cell_key(cell_of(c), coarsen);
      const auto found = merged.find(k);
      if (found == merged.end()) {
        merged.emplace(k, c);
      } else if (better(objective, c, found->second)) {
        found->second = c;
      }
    }
    cells = std::move(merged);
  }
  r.scatter.clear();
  r.scatter.reserve(cells.size());
  for (const auto& [key, c] : cells) {
    (void)key;
    r.scatter.push_back(c);
  }
  std::sort(r.scatter.begin(), r.scatter.end(),
            [](const PlanCandidate& a, const PlanCandidate& b) { return a.order < b.order; });
  return r;
}

PlanResult plan(const PlanQuery& query) {
  PlanSearch search(query);
  while (!search.advance(1 << 20)) {
  }
  return search.result();
}

}  // namespace parascope
