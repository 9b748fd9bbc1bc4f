/// ZB-H2's greedy simulator as a state and a step, so that a long run can skip steady cycles by shifting that state.
#pragma once

#include <cstdint>
#include <vector>

#include "cache_map.hpp"
#include "pipeline_detail.hpp"
#include "pipeline_sum_time.hpp"

namespace parascope::detail {

/// One stage's op ends of one kind that a neighbour has yet to read, in microbatch order: a ring that grows as needed.
/// All of a run's queues together hold f₀ − b₀ ≤ 2p − 1 ends (ZbH2Run's constructor says why).
class EndQueue {
 public:
  int front() const { return front_; }          ///< the oldest microbatch kept
  int back() const { return front_ + count_; }  ///< one past the newest
  const SumTime& at(int mb) const { return slots_[std::size_t(mb) & mask_]; }
  /// Keeps the end of microbatch back().
  void push(const SumTime& t);
  /// Forgets the ends of microbatches before mb.
  void drop_before(int mb);
  /// Empties the queue; the next push is microbatch `front`.
  void reset(int front) { front_ = front, count_ = 0; }

 private:
  std::vector<SumTime> slots_;
  std::size_t mask_ = 0;
  int front_ = 0, count_ = 0;
};

/// One stage of the run: what it has run and, decided from that and its neighbours' outputs, what it runs next.
struct ZbH2Stage {
  SumTime free_at;          ///< end of its last op
  SumTime first;            ///< start of its first op (when `f` > 0)
  int f = 0, b = 0, w = 0;  ///< next microbatch of each kind (all three run in microbatch order)
  int peak = 0;             ///< most activation sets held at once (forwards run whose W has not)
  bool has_next = false;
  char kind = 'W';  ///< what it runs at `next`
  SumTime next;     ///< when it is free and that op can start
};

/// The op a step ran.
struct ZbH2Op {
  int stage = 0, microbatch = 0;
  char kind = 'F';
  SumTime start, end;
};

/// Each free stage runs a ready B, else a ready F while fewer than 2p−1 of its microbatches wait for their W, else its
/// oldest pending W (Qi et al. 2024, Sec. 2.2, Fig. 4), the earliest stage first (the lower on a tie).
class ZbH2Run {
 public:
  explicit ZbH2Run(const PipelineSpec& spec);

  /// Runs the next op into `op`; false when none is left.
  bool step(ZbH2Op& op);
  /// Decides every stage's next op again and rebuilds the min-tree (after the state was set from outside).
  void refresh();
  /// The metrics of the run so far (of the whole schedule once step() returned false).
  PipelineMetrics metrics() const;

  const SumClock clock;
  const int p, m;
  std::vector<ZbH2Stage> stages;
  /// Per stage: the ends of its forwards that stage s + 1 has not run yet (the last stage: whose B it has not run),
  /// and of its backwards that stage s − 1 has not run yet (empty on stage 0).
  std::vector<EndQueue> end_f, end_b;
  std::int64_t done = 0;  ///< ops run

 private:
  /// A node of the min-tree over the stages' next times: a stage and its next.value, or −1 and kNone for none.
  static constexpr double kNone = 1e300;
  struct Node {
    double key;
    int stage;
  };
  void decide(int s);
  void update(int s, int t);
  void play(std::size_t node);
  Node leaf(int s) const;
  bool earlier(const Node& a, const Node& b) const;

  int parts_, leaves_;
  std::vector<Node> tree_;
};

/// A run's state relative to stage 0's next forward and free time (pipeline_zb_h2_repeat.cpp says what it holds).
struct ZbH2Snapshot {
  std::vector<std::int32_t> state;
  int label = 0;                       ///< stage 0's next forward
  std::array<std::int32_t, 4> base{};  ///< stage 0's free time
  std::int64_t done = 0;               ///< ops run
};

/// Skips whole cycles of a long run once its state repeats, shifted (pipeline_zb_h2_repeat.cpp).
class ZbH2Repeats {
 public:
  /// Looks at the state after stage 0 ran a forward; when it is an earlier one's shifted by whole cycles, moves the
  /// run forward by as many of them as leave its last cycle and drain to simulate. Returns true once there is nothing
  /// left to skip (it moved the run, or the repeat came too late to skip a cycle): no need to call it again.
  bool after_first_stage_forward(ZbH2Run& run);

 private:
  static bool move(ZbH2Run& run, const ZbH2Snapshot& from);

  /// The most numbers the states kept may hold together, bookkeeping included (4 MiB): p = 32 keeps about 2,000.
  static constexpr std::size_t kKeptNumbers = std::size_t(1) << 20;
  ZbH2Snapshot now_;
  CacheMultimap<std::size_t, ZbH2Snapshot> seen_;  ///< every state so far, by a hash of its numbers
  std::size_t kept_numbers_ = 0;
};

}  // namespace parascope::detail
