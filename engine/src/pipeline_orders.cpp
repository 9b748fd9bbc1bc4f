// Per-stage programs of the fixed pipeline schedules: the order in which each stage runs its F, B and W ops.
#include <algorithm>
#include <vector>

#include "pipeline_detail.hpp"
#include "schedule_registry.hpp"

namespace parascope::detail {

namespace {

/// GPipe (Huang et al. 2019, Fig. 2c): every forward, then every backward, the last microbatch's first.
void gpipe(Program& prog, int m) {
  for (int i = 0; i < m; ++i) prog.op('F', 0, i);
  for (int i = m - 1; i >= 0; --i) prog.op('B', 0, i);
}

/// 1F1B / PipeDream-Flush (Narayanan et al. 2021, Sec. 2.2.1; Megatron-LM forward_backward_pipelining_without_
/// interleaving): p−s−1 warm-up forwards, then one forward and one backward in turn, then the remaining backwards.
void one_f_one_b(Program& prog, int p, int m, int s) {
  const int warmup = std::min(p - s - 1, m);
  for (int i = 0; i < warmup; ++i) prog.op('F', 0, i);
  for (int j = 0; j < m - warmup; ++j) {
    prog.op('F', 0, warmup + j);
    prog.op('B', 0, j);
  }
  for (int j = m - warmup; j < m; ++j) prog.op('B', 0, j);
}

/// Interleaved 1F1B (Narayanan et al. 2021, Sec. 2.2.2; Megatron-LM core get_schedule_table and
/// forward_backward_pipelining_with_interleaving). Microbatches go in groups of p: a group runs chunk 0 for all its
/// microbatches, then chunk 1, ...; the last group is smaller when p does not divide m (Megatron's
/// microbatch_group_size_per_vp_stage). Backwards follow the same table with the chunks reversed. Warm-up:
/// 2(p−s−1) + (v−1)·p forwards, at most all of them.
void interleaved(Program& prog, int p, int m, int v, int s) {
  if (v == 1) return one_f_one_b(prog, p, m, s);
  struct Slot {
    int mb, chunk;
  };
  std::vector<Slot> table;
  table.reserve(std::size_t(m) * std::size_t(v));
  for (int first = 0; first < m; first += p) {
    const int last = std::min(first + p, m);
    for (int c = 0; c < v; ++c) {
      for (int i = first; i < last; ++i) table.push_back({i, c});
    }
  }
  const int total = int(table.size());
  const int warmup = std::min(total, 2 * (p - s - 1) + (v - 1) * p);
  auto forward = [&](int k) { prog.op('F', table[k].chunk, table[k].mb); };
  auto backward = [&](int k) { prog.op('B', v - 1 - table[k].chunk, table[k].mb); };
  for (int k = 0; k < warmup; ++k) forward(k);
  for (int k = 0; k < total - warmup; ++k) {
    forward(warmup + k);
    backward(k);
  }
  for (int k = total - warmup; k < total; ++k) backward(k);
}

/// ZB-H1 (Qi et al. 2024, "Zero Bubble Pipeline Parallelism", Sec. 2.1, Fig. 3): 1F1B's forwards and input-gradient
/// backwards, with stage s holding back s weight-gradient passes during the start so that later stages pass B along
/// sooner; the held W's fill the drain at the end. W's run oldest first. Same warm-up (p−s−1) as 1F1B.
void zb_h1(Program& prog, int p, int m, int s) {
  int f = 0, b = 0, w = 0;
  for (int i = 0; i < std::min(p - s - 1, m); ++i) prog.op('F', 0, f++);
  for (int i = 0; i < s && f < m; ++i) {
    prog.op('F', 0, f++);
    prog.op('B', 0, b++);
  }
  while (f < m) {
    prog.op('F', 0, f++);
    prog.op('B', 0, b++);
    prog.op('W', 0, w++);
  }
  while (b < m) {
    prog.op('B', 0, b++);
    prog.op('W', 0, w++);
  }
  while (w < m) prog.op('W', 0, w++);
}

/// DualPipe (DeepSeek-V3 technical report, Sec. 3.2.1, Fig. 5; deepseek-ai/DualPipe dualpipe.py, steps 1–8). Rank r
/// holds part r of the stage-0-fed direction and part p−1−r of the stage-(p−1)-fed one; "phase 0" is the direction fed
/// from its own end of the pipe. A backward either runs whole (B then W, its gradient sent after both) or, in the
/// zero-bubble steps, queues its W to run later, oldest first. An "F&B" pair is one call: it waits for both inputs,
/// runs the forward, then the whole backward, and sends both outputs at the end (here the two run one after the other;
/// the reference overlaps one's communication with the other's compute). Sends happen where the reference makes them.
void dualpipe(Program& prog, int p, int m, int r) {
  const int half = p / 2, half_rank = std::min(r, p - 1 - r), half_m = m / 2;
  const int flip = r >= half ? 1 : 0;  // the second half of the ranks sees the directions swapped
  const bool middle = half_rank == half - 1;
  int next_f[2] = {0, 0}, next_b[2] = {0, 0};
  // Microbatches whose W waits, oldest first from pending_w[next_w]: a queue in a vector (std::deque's code, for this
  // one queue, was ~1.1 KB gzip of every wasm module that schedules a pipeline).
  std::vector<int> pending_w;
  std::size_t next_w = 0;
  auto mb = [&](int direction, int k) { return direction * half_m + k; };
  auto F = [&](int phase, int fuse = 0, int release = 0) {
    const int d = phase ^ flip;
    prog.op('F', d, mb(d, next_f[d]++), fuse, release);
  };
  auto B = [&](int phase, bool zero_bubble) {
    const int d = phase ^ flip;
    const int i = mb(d, next_b[d]++);
    if (zero_bubble) {
      prog.op('B', d, i);
      pending_w.push_back(i);
    } else {
      prog.op('B', d, i, 0, 1);  // the input gradient leaves after the weight gradient is done
      prog.op('W', d, i);
    }
  };
  auto W = [&] {
    const int i = pending_w[next_w++];
    prog.op('W', i >= half_m ? 1 : 0, i);
  };
  auto FB = [&](int f_phase, int b_phase) {  // one F&B call: forward, then the whole backward
    F(f_phase, 2, 2);
    B(b_phase, false);
  };
  for (int i = 0; i < (half - half_rank - 1) * 2; ++i) F(0);  // step 1: nF0
  for (int i = 0; i < half_rank + 1; ++i) {                   // step 2: nF0F1
    F(0, 0, middle ? 0 : 1);                                  // off the middle, F0's output leaves after F1
    F(1, 0, middle && i == half_rank ? 1 : 0);                // the middle rank's last F1 leaves after the next call
  }
  for (int i = 0; i < half - half_rank - 1; ++i) {  // step 3: nB1W1F1, zero bubble
    B(1, true);
    W();
    F(1);
  }
  for (int i = 0; i < half_m - p + half_rank + 1; ++i) {  // step 4 (main): nF0B1F1B0
    if (i == 0 && middle) {                               // not overlapped; F0's output leaves after the backward
      F(0, 0, 2);
      B(1, false);
    } else {
      FB(0, 1);
    }
    FB(1, 0);
  }
  for (int i = 0; i < half - half_rank - 1; ++i) {  // step 5: nB1F1B0
    B(1, false);
    FB(1, 0);
  }
  const int step6 = half_rank + 1;  // step 6: nB1B0, the second half with zero bubble
  bool zero_bubble = false;
  for (int i = 0; i < step6; ++i) {
    if (i == step6 / 2 && half_rank % 2 == 1) zero_bubble = true;
    B(1, zero_bubble);
    if (i == step6 / 2 && half_rank % 2 == 0) zero_bubble = true;
    B(0, zero_bubble);
  }
  for (int i = 0; i < half - half_rank - 1; ++i) {  // step 7: nWB0, zero bubble
    W();
    B(0, true);
  }
  while (next_w < pending_w.size()) W();  // step 8: nW
}

}  // namespace

void gpipe_orders(Program& prog, int, int m, int, int) { gpipe(prog, m); }
void one_f_one_b_orders(Program& prog, int p, int m, int, int s) { one_f_one_b(prog, p, m, s); }
void interleaved_orders(Program& prog, int p, int m, int v, int s) { interleaved(prog, p, m, v, s); }
void zb_h1_orders(Program& prog, int p, int m, int, int s) { zb_h1(prog, p, m, s); }
void dualpipe_orders(Program& prog, int p, int m, int, int s) { dualpipe(prog, p, m, s); }  // p even (validated)

bool splits_backward(Schedule schedule) { return schedule_info(schedule).splits_backward; }

PipelineLayout make_layout(const PipelineSpec& spec) {
  PipelineLayout layout;
  layout.p = spec.stages;
  layout.m = spec.microbatches;
  layout.v = schedule_info(spec.schedule).interleaves ? spec.chunks : 1;
  layout.parts = layout.p * layout.v;
  layout.dual = schedule_info(spec.schedule).holds_two_stages;
  return layout;
}

StageOrders build_orders(const PipelineSpec& spec) {
  StageOrders orders;
  orders.ops.reserve(std::size_t(pipeline_op_count(spec)));
  orders.begin.reserve(std::size_t(spec.stages) + 1);
  Program prog(orders, spec.forward_only);
  const int p = spec.stages, m = spec.microbatches;
  const auto orders_of = schedule_entry(spec.schedule).orders;  // nullptr: decided while simulating (zb-h2)
  for (int s = 0; s < p; ++s) {
    prog.start_stage();
    if (orders_of) orders_of(prog, p, m, spec.chunks, s);
  }
  prog.start_stage();
  return orders;
}

}  // namespace parascope::detail
