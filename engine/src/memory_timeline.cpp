// One GPU's memory through one step: its stage's ops as the pipeline engine runs them (run_pipeline at the cost
// model's op times), the activation sets each forward holds until its backward frees them, and the bytes of every
// moment by the memory model's arithmetic, so that the timeline's peak is step's memory_per_gpu for the stage.
#include "memory_timeline.hpp"

#include <algorithm>
#include <memory>

#include "parascope/pipeline.hpp"
#include "parascope/schedule.hpp"
#include "pipeline_detail.hpp"
#include "step_core.hpp"

namespace parascope::detail {

namespace {

bool same_schedule(const PipelineSpec& a, const PipelineSpec& b) {
  return a.schedule == b.schedule && a.stages == b.stages && a.microbatches == b.microbatches && a.chunks == b.chunks &&
         a.forward_only == b.forward_only && a.record_ops == b.record_ops && a.times.f == b.times.f &&
         a.times.b == b.times.b && a.times.w == b.times.w && a.times.comm == b.times.comm;
}

/// The schedule's ops at the cost model's op times, every op recorded. DualPipe on one stage is timed by the cost
/// model as ZB-H1 on that stage (pipeline_metrics); the op list does the same. The last schedule laid out is kept for
/// the next request with the same spec (run_pipeline is a function of the spec alone): a reader walking the stages, or
/// moving a control that leaves every op's time as it was, asks for the same schedule again, and at 64 stages x 512
/// microbatches its 65,536 ops were half the op's time (tests/bench/memory.bench.mjs).
std::shared_ptr<const PipelineResult> scheduled_ops(const TrainingRun& run, const Efficiency& eff) {
  const StepCorePtr core = step_core(run, eff, false);
  PipelineSpec spec = core_spec(run, *core);
  spec.record_ops = true;
  if (spec.schedule == Schedule::dualpipe && spec.stages == 1) spec.schedule = Schedule::zb_h1;
  thread_local PipelineSpec last_spec;
  thread_local std::shared_ptr<const PipelineResult> last;
  if (!last || !same_schedule(spec, last_spec)) {
    last.reset();  // the old op list freed before the new one is laid out
    last = std::make_shared<const PipelineResult>(simulate_pipeline(spec));  // no closed form: never read
    last_spec = spec;
  }
  return last;
}

/// The stage memory_per_gpu reports: the first with the most bytes at its peak moment.
std::int64_t most_loaded_stage(const TrainingRun& run, const Efficiency& eff, const std::vector<int>& peak) {
  std::int64_t best = 0;
  double most = -1;
  for (std::int64_t s = 0; s < run.parallel.pp; ++s) {
    const MemoryMoment moment{peak[std::size_t(s)], true, true};
    const double total = stage_memory_at(run, eff, stage_memory_inputs(run, eff, s), moment).total;
    if (total > most) most = total, best = s;
  }
  return best;
}

/// Whether an op of the last stage holds the loss's logits: the op of the chunk that ends the model (interleaved: the
/// last chunk; the other schedules run one chunk per stage, DualPipe's mirrored half counted alike).
bool holds_loss(const TrainingRun& run, const PipelineOp& op) {
  const ParallelConfig& p = run.parallel;
  if (op.stage != p.pp - 1) return false;
  return p.schedule != Schedule::interleaved || op.chunk == p.vpp - 1;
}

/// Builds the stage's segments and activation spans from its ops, in execution order.
class Builder {
 public:
  Builder(const TrainingRun& run, const Efficiency& eff, std::int64_t stage, MemoryTimeline& out)
      : run_(run),
        eff_(eff),
        in_(stage_memory_inputs(run, eff, stage)),
        out_(out),
        split_(schedule_info(run.parallel.schedule).splits_backward) {}

  void op(const PipelineOp& op, int chunks) {
    if (op.start > now_) add(now_, op.start, 'I', -1, -1, {held_, false, false});
    if (op.kind == 'F') {
      ++held_;
      open_.resize(std::max(open_.size(), std::size_t(op.microbatch + 1) * std::size_t(chunks)), -1);
      open_[std::size_t(op.microbatch) * std::size_t(chunks) + std::size_t(op.chunk)] = int(out_.spans.size());
      out_.spans.push_back({op.microbatch, op.chunk, op.start, op.end});
    }
    add(op.start, op.end, op.kind, op.microbatch, op.chunk, {held_, holds_loss(run_, op), op.kind != 'F'});
    if (op.kind == 'W' || (op.kind == 'B' && !split_)) {
      --held_;
      const int span = open_[std::size_t(op.microbatch) * std::size_t(chunks) + std::size_t(op.chunk)];
      if (span >= 0) out_.spans[std::size_t(span)].to = op.end;
    }
    now_ = std::max(now_, op.end);
  }

  void add(double start, double end, char kind, int microbatch, int chunk, const MemoryMoment& moment) {
    MemorySegment s;
    s.start = start;
    s.end = end;
    s.kind = kind;
    s.microbatch = microbatch;
    s.chunk = chunk;
    s.sets = moment.sets;
    s.memory = stage_memory_at(run_, eff_, in_, moment);
    if (out_.segments.empty() || s.memory.total > out_.segments[out_.peak].memory.total) {
      out_.peak = out_.segments.size();
    }
    out_.segments.push_back(s);
  }

  double now() const { return now_; }
  double set_bytes() const {
    const MemoryMoment none{0, false, false}, one{1, false, false};
    return stage_memory_at(run_, eff_, in_, one).activations - stage_memory_at(run_, eff_, in_, none).activations;
  }

 private:
  const TrainingRun& run_;
  const Efficiency& eff_;
  StageMemoryInputs in_;
  MemoryTimeline& out_;
  bool split_;
  int held_ = 0;
  double now_ = 0;
  std::vector<int> open_;  ///< per (microbatch, chunk): its span's index while in flight
};

}  // namespace

MemoryTimeline memory_timeline(const TrainingRun& run, const Efficiency& eff, const StepResult& step,
                               std::int64_t stage) {
  const std::shared_ptr<const PipelineResult> scheduled = scheduled_ops(run, eff);
  const PipelineResult& pipeline = *scheduled;
  MemoryTimeline out;
  out.most_loaded_stage = most_loaded_stage(run, eff, pipeline.metrics.peak_activations);
  out.stage = stage < 0 ? out.most_loaded_stage : stage;
  out.step_time = step.step_time;
  // The ops come per stage in execution order, stage 0 first (pipeline.hpp): the stage's own are one run of them.
  const auto first = std::lower_bound(pipeline.ops.begin(), pipeline.ops.end(), out.stage,
                                      [](const PipelineOp& op, std::int64_t s) { return op.stage < s; });
  auto last = first;
  int chunks = 1;
  for (; last != pipeline.ops.end() && last->stage == out.stage; ++last) chunks = std::max(chunks, last->chunk + 1);
  Builder build(run, eff, out.stage, out);
  for (auto op = first; op != last; ++op) build.op(*op, chunks);
  out.set_bytes = build.set_bytes();
  // After the pipeline (step_finish.cpp, step_time): the gradients' exposed reduction and accumulation, then Adam.
  out.pipeline_end = std::max(build.now(), step.pipeline_makespan);
  const double optimizer_start = std::max(out.pipeline_end, step.step_time - step.breakdown.optimizer);
  const MemoryMoment states{0, false, false};
  if (out.pipeline_end > build.now()) build.add(build.now(), out.pipeline_end, 'I', -1, -1, states);
  if (optimizer_start > out.pipeline_end) build.add(out.pipeline_end, optimizer_start, 'G', -1, -1, states);
  if (step.step_time > optimizer_start) build.add(optimizer_start, step.step_time, 'O', -1, -1, states);
  return out;
}

}  // namespace parascope::detail
