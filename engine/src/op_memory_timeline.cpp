// The "memory_timeline" operation: a step request and a stage -> that GPU's memory through one step, segment by
// segment (memory_timeline.hpp), the peak's moment marked; its peak is step's memory_per_gpu for the stage. The
// answer carries the step's own answer too, so a figure drawing it asks the engine once. And its binary-only handler,
// for a wasm module that leaves the text columns to another (CMakeLists.txt).
#include <cmath>
#include <string>
#include <vector>

#include "error_band.hpp"
#include "json_out.hpp"
#include "json_text.hpp"
#include "memory_timeline.hpp"
#include "ops.hpp"
#include "step_json.hpp"
#include "step_phases.hpp"

namespace parascope::detail {

namespace {

/// The largest schedule the op lays out: every op recorded (32 bytes each), and one stage's ops as segments.
constexpr std::int64_t kMaxTimelineOps = 250'000;
constexpr std::int64_t kMaxStageOps = 20'000;

/// Refuses a schedule whose op list or one stage's segments would pass the limits (engine/API.md, the largest request).
void check_size(const ParallelConfig& p) {
  const std::int64_t ops = pipeline_op_count(pipeline_spec_of(p));
  if (ops > kMaxTimelineOps || ops / p.pp > kMaxStageOps) {
    refuse(code::too_large,
           {"memory_timeline lays out at most ", std::to_string(kMaxTimelineOps), " ops, ",
            std::to_string(kMaxStageOps), " on one stage: this schedule has ", std::to_string(ops), " (",
            std::to_string(ops / p.pp), " per stage); fewer microbatches (a smaller global_batch) or more stages"},
           "parallel.global_batch");
  }
}

json peak_json(const MemoryTimeline& t) {
  const MemorySegment& s = t.segments[t.peak];
  json out;
  put(out, "segment", std::int64_t(t.peak));
  put(out, "time", s.start);
  put(out, "kind", std::string(1, s.kind));
  put(out, "microbatch", s.microbatch);
  put(out, "sets", s.sets);
  put(out, "activations", s.memory.activations);
  put(out, "transient", s.memory.transient);
  put(out, "peak_at_loss", s.memory.peak_at_loss);
  put(out, "allocator_reserve", s.memory.allocator_reserve);
  put(out, "total", s.memory.total);
  return out;
}

/// How a column's values are written as text: doubles, integers, or one letter each (a string).
enum class Cell { number, integer, letter };

/// One column of a block: its key, its value for an item (a letter as its character code), and how it is written.
template <class Item>
struct Column {
  const char* key;
  double (*get)(const Item&);
  Cell cell;
};

using S = MemorySegment;
using A = ActivationSpan;

/// The segments' columns and the activation sets', in the writer's sorted key order: one table for both formats.
const Column<S> kSegmentColumns[] = {
    {"activations", [](const S& s) { return s.memory.activations; }, Cell::number},
    {"allocator_reserve", [](const S& s) { return s.memory.allocator_reserve; }, Cell::number},
    {"chunk", [](const S& s) { return double(s.chunk); }, Cell::integer},
    {"end", [](const S& s) { return s.end; }, Cell::number},
    {"kind", [](const S& s) { return double(s.kind); }, Cell::letter},
    {"microbatch", [](const S& s) { return double(s.microbatch); }, Cell::integer},
    {"sets", [](const S& s) { return double(s.sets); }, Cell::integer},
    {"start", [](const S& s) { return s.start; }, Cell::number},
    {"total", [](const S& s) { return s.memory.total; }, Cell::number},
    {"transient", [](const S& s) { return s.memory.transient; }, Cell::number},
};
const Column<A> kSpanColumns[] = {
    {"chunk", [](const A& s) { return double(s.chunk); }, Cell::integer},
    {"from", [](const A& s) { return s.from; }, Cell::number},
    {"microbatch", [](const A& s) { return double(s.microbatch); }, Cell::integer},
    {"to", [](const A& s) { return s.to; }, Cell::number},
};

/// A block as JSON text without a tree (`{"key":[v,...],...}`, a letter column as one string, numbers as the writer
/// writes them): at 64 stages x 512 microbatches a tree's 15,000 numbers were built, written and freed in a third of
/// the op's time. `bytes_per_item` sizes the text up front.
template <class Item, std::size_t N>
std::string columns_text(const std::vector<Item>& list, const Column<Item> (&columns)[N], std::size_t bytes_per_item) {
  JsonText out;
  out.text().reserve(list.size() * bytes_per_item + 64);
  out.raw('{');
  for (const Column<Item>& c : columns) {
    if (&c != columns) out.raw(',');
    out.key(c.key);
    if (c.cell == Cell::letter) {
      std::string letters;
      letters.reserve(list.size());
      for (const Item& item : list) letters.push_back(char(c.get(item)));
      out.string(letters);
      continue;
    }
    out.raw('[');
    for (std::size_t i = 0; i < list.size(); ++i) {
      if (i) out.raw(',');
      if (c.cell == Cell::integer) {
        out.integer(std::int64_t(c.get(list[i])));
      } else {
        out.number(c.get(list[i]));
      }
    }
    out.raw(']');
  }
  out.raw('}');
  return std::move(out.text());
}

/// columns_format "binary": the block's columns appended to the call's attachment (parascope::last_attachment), each
/// column's numbers one after another (a letter as its character code), and in the JSON only where the block starts
/// and what its columns are: no number is written as text nor parsed back.
template <class Item, std::size_t N>
json columns_binary(const std::vector<Item>& list, const Column<Item> (&columns)[N]) {
  std::vector<double>& out = attachment();
  json block;
  put(block, "format", "binary");
  put(block, "offset", out.size());
  put(block, "count", list.size());
  json& keys = put_array(block, "columns");
  for (const Column<Item>& c : columns) {
    keys.push_back(c.key);
    for (const Item& item : list) {
      out.push_back(c.get(item));
      if (!std::isfinite(out.back())) JsonText().number(out.back());  // refused as the text columns refuse it
    }
  }
  return block;
}

/// `step`'s answer for the same request (op_step.cpp), from the same StepResult: every field but `hfu_note`,
/// `network_fit` and `error_band.network` (that what-if costs the step a second time, on a slower network).
json step_json(const StepRequest& s, const StepResult& step) {
  json out = step_to_json(step);
  put(out, "error_band", error_band_json(error_bands(s.software, s.run.hardware.id), step));
  return out;
}

/// The answer to `request`; kText false: a module whose figure asks "binary" alone, so the text writers stay out of
/// it, and "text" is refused (unknown_op, field "columns_format") once the request is read, naming the engine its
/// table row gives beside this handler. Every other answer and refusal is the op's own.
template <bool kText>
json memory_timeline_answer(RequestReader& request) {
  const StepRequest s = read_step_request(request);
  const std::int64_t stage = request.has("stage") ? request.integer("stage", 0, s.run.parallel.pp - 1) : -1;
  const bool binary = request.choice_or("columns_format", "text", {"text", "binary"}) == "binary";
  request.finish();
  if (!kText && !binary) {
    refuse_elsewhere("the memory_timeline op's \"text\" columns_format", elsewhere_of("memory_timeline"),
                     ", which writes \"binary\"", "columns_format");
  }
  check_size(s.run.parallel);
  const StepResult step = evaluate(s);
  const MemoryTimeline t = memory_timeline(s.run, s.efficiency, step, stage);
  const MemoryPerGpu& states = t.segments[t.peak].memory;
  json out;
  put(out, "stage", t.stage);
  put(out, "most_loaded_stage", t.most_loaded_stage);
  put(out, "step_time", t.step_time);
  put(out, "pipeline_end", t.pipeline_end);
  put(out, "capacity", s.run.hardware.memory_bytes);
  put(out, "step_memory_total", step.memory.total);
  json& fixed = put_object(out, "states");
  put(fixed, "weights", states.weights);
  put(fixed, "gradients", states.gradients);
  put(fixed, "optimizer", states.optimizer);
  put(fixed, "runtime", states.runtime);
  put(out, "set_bytes", t.set_bytes);
  put(out, "peak", peak_json(t));
  put(out, "step", step_json(s, step));
  // A number that overflowed: the tree, which call() refuses naming it (a column's, JsonText::number refuses).
  if (!all_finite(out)) return out;
  if (binary) {  // the segments' block first, the activation sets' after it
    attachment().reserve(std::size(kSegmentColumns) * t.segments.size() + std::size(kSpanColumns) * t.spans.size());
    put(out, "segments", columns_binary(t.segments, kSegmentColumns));
    put(out, "activation_sets", columns_binary(t.spans, kSpanColumns));
    return out;
  }
  if constexpr (kText) {
    // The columns as text around the small tree (json_text.hpp): the same answer, byte for byte.
    put(out, "segments", nullptr);
    put(out, "activation_sets", nullptr);
    text_answer() = splice(splice(out, "activation_sets", columns_text(t.spans, kSpanColumns, 64)), "segments",
                           columns_text(t.segments, kSegmentColumns, 160));
  }
  return json();
}

}  // namespace

json op_memory_timeline(RequestReader& request) { return memory_timeline_answer<true>(request); }

/// The op writing "binary" columns alone, for <parascope-memory>'s own wasm module (its figure asks nothing else).
/// Declared by the generated op tables, which alone name it (and tests/engine/memory_timeline_test.cpp).
json op_memory_timeline_binary(RequestReader& request) { return memory_timeline_answer<false>(request); }

}  // namespace parascope::detail
