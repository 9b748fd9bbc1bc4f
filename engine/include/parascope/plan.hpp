/// The planner: every split of one model's training over one cluster (dp × tp × pp × cp × ep, microbatch size,
/// schedule and interleaving, recompute, sequence parallelism, ZeRO, precision), each timed by the cost model, ranked.
/// A search advances in chunks (PlanSearch::advance), so a browser can run it a slice at a time.
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "parascope/cost_types.hpp"
#include "parascope/pipeline.hpp"

namespace parascope {

/// What the ranking puts first: the highest MFU, the shortest step, or the least memory per GPU.
enum class PlanObjective { mfu, step_time, memory };

/// One planning question. The lists name the allowed values of each knob (none may be empty).
struct PlanQuery {
  ModelShape model;
  Hardware hardware;
  Cluster cluster;
  std::int64_t global_batch = 1;     ///< sequences per optimizer step
  std::vector<Schedule> schedules;   ///< allowed pipeline schedules
  std::vector<Recompute> recompute;  ///< allowed recomputation modes
  std::vector<int> zero;             ///< allowed ZeRO stages (0..3)
  std::vector<Precision> precision;  ///< allowed weight-GEMM formats
  /// Allowed sequence parallelism where tp > 1 (at tp = 1 there is none to choose)
  std::vector<bool> sequence_parallel{false, true};
  std::int64_t max_tp = 0;  ///< largest tensor-parallel size; 0 = the node's GPUs (tp within a node)
  std::int64_t max_cp = 0;  ///< largest context-parallel size; 0 = any that divides
  int top_k = 10;           ///< results to keep
  PlanObjective objective = PlanObjective::mfu;
  Efficiency efficiency;                   ///< the software generation's defaults; precision is set per candidate
  std::string software = "megatron-core";  ///< the stack those defaults are of (its error band ranks the answer)
  bool prune = true;                       ///< skip what provably cannot win (false: time everything, for tests)
  /// Memory per GPU a configuration may need to count as fitting (bytes); 0 = the hardware's capacity. The `plan` op
  /// sets it to the capacity over the memory band's p90 (engine/API.md, "plan"), so a pick starts where 9 in 10 of
  /// the published runs' peaks would have fitted.
  double memory_limit = 0;
  /// The share of every configuration's optimizer states stepped on the host (ParallelConfig::offload_optimizer).
  double offload_optimizer = 0;
};

/// One evaluated configuration: its split and what the cost model says of it (exactly what `step` answers for it).
struct PlanCandidate {
  ParallelConfig parallel;
  Precision precision = Precision::bf16;
  double mfu = 0, step_time = 0, memory_per_gpu = 0;
  bool fits = false;
  std::int64_t order = 0;  ///< position in the search order: the last tie-break, so every ranking is deterministic
};

/// Why a configuration was not evaluated. Each reason counts whole configurations, except that a split refused as a
/// whole (the first four) counts once, whatever microbatch sizes and schedules it would have had.
enum class PlanRejection {
  does_not_divide,  ///< tp ∤ heads, cp ∤ seq, dp ∤ global_batch, or no ep fits an MoE model's rules
  too_few_layers,   ///< more pipeline stages than layers
  schedule_rule,    ///< the schedule refuses these stages and microbatches (check_pipeline)
  out_of_memory,    ///< weights, gradients and optimizer states alone exceed the GPU's memory, and it cannot be the
                    ///< closest miss either
  cannot_win,       ///< its lower bounds of step time and memory lose to the k-th result and to a Pareto point
};
inline constexpr int kPlanRejections = 5;
const char* rejection_id(PlanRejection reason);

/// The outcome of a search.
struct PlanResult {
  std::vector<PlanCandidate> results;  ///< the top_k that fit, best first
  std::vector<PlanCandidate> pareto;   ///< fitting configurations no other beats on both step time and memory per GPU
  std::vector<PlanCandidate> scatter;  ///< up to kPlanScatterPoints evaluated configurations (the best of each cell)
  bool has_closest_miss = false;
  PlanCandidate closest_miss;  ///< when nothing fits: the configuration needing the least memory
  std::int64_t evaluated = 0;
  std::array<std::int64_t, kPlanRejections> rejected{};
  double elapsed = 0;  ///< seconds spent searching
};

/// Most points kept in PlanResult::scatter.
inline constexpr std::size_t kPlanScatterPoints = 2000;

/// A search over every configuration of a query, advanced a slice at a time. The constructor enumerates the splits
/// and throws RequestError (domain wording, field names of the query) when no configuration can pass the rules.
class PlanSearch {
 public:
  explicit PlanSearch(PlanQuery query);
  ~PlanSearch();
  PlanSearch(PlanSearch&&) noexcept;
  PlanSearch& operator=(PlanSearch&&) noexcept;

  /// Considers up to `max_configs` more configurations (evaluating or rejecting each); true when the search is done.
  bool advance(std::int64_t max_configs);
  bool done() const;
  /// Configurations considered so far (evaluated + rejected) and in all.
  std::int64_t considered() const;
  std::int64_t total() const;
  /// The outcome so far (the final one once done()).
  PlanResult result() const;
  const PlanQuery& query() const;

 private:
  struct State;
  std::unique_ptr<State> state_;
};

/// Runs a whole search.
PlanResult plan(const PlanQuery& query);

}  // namespace parascope
