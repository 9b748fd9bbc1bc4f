// The "context_ring" operation: a step request's context parallelism step by step (context_ring.hpp): the zig-zag
// chunks, each ring step's attention and K/V transfer per GPU, the exposed time step charges, the all-gather variant.
#include <algorithm>
#include <string>

#include "context_ring.hpp"
#include "json_out.hpp"
#include "ops.hpp"
#include "step_json.hpp"

namespace parascope::detail {

namespace {

/// The most GPUs of a context-parallel group the op lays out step by step (cp² entries per table).
constexpr std::int64_t kMaxRingGpus = 64;

json pass_json(const RingPass& pass) {
  json out;
  json& steps = put_array(out, "steps");
  for (std::size_t i = 0; i < pass.steps.size(); ++i) {
    const RingStep& s = pass.steps[i];
    json& row = push_object(steps);
    put(row, "step", std::int64_t(i));
    put(row, "compute_flops", s.compute_flops);
    put(row, "compute_time", s.compute_time);
    put(row, "transfer_bytes", s.transfer_bytes);
    put(row, "transfer_time", s.transfer_time);
    put(row, "exposed", s.exposed);
  }
  put(out, "compute_time", pass.compute_time);
  put(out, "transfer_time", pass.transfer_time);
  put(out, "transfer_bytes", pass.transfer_bytes);
  put(out, "exposed", pass.exposed);
  return out;
}

/// Per GPU: its chunks both ways and its blocks and FLOPs over one forward pass.
json gpus_json(const ContextRing& r) {
  json gpus = json::array();
  for (std::int64_t g = 0; g < r.cp; ++g) {
    json& row = push_object(gpus);
    const HeldChunks z = held_chunks(r.cp, g, true), c = held_chunks(r.cp, g, false);
    put(row, "gpu", g);
    put(row, "zigzag_chunks", json::array({z.first, z.second}));
    put(row, "contiguous_chunks", json::array({c.first, c.second}));
    put(row, "zigzag_blocks", r.zigzag_blocks[std::size_t(g)]);
    put(row, "contiguous_blocks", r.contiguous_blocks[std::size_t(g)]);
    put(row, "zigzag_flops", r.zigzag_blocks[std::size_t(g)] * r.block_flops);
    put(row, "contiguous_flops", r.contiguous_blocks[std::size_t(g)] * r.block_flops);
  }
  return gpus;
}

/// Per ring step: whose K/V each GPU holds and the blocks it computes with it, both splits.
json ring_json(const ContextRing& r) {
  json steps = json::array();
  for (std::int64_t i = 0; i < r.cp; ++i) {
    json& row = push_object(steps);
    put(row, "step", i);
    json& from = put_array(row, "kv_from");
    json& zigzag = put_array(row, "zigzag_blocks");
    json& contiguous = put_array(row, "contiguous_blocks");
    for (std::int64_t g = 0; g < r.cp; ++g) {
      from.push_back(kv_source(r.cp, g, i));
      zigzag.push_back(ring_blocks(r.cp, g, i, true, r.causal_skip));
      contiguous.push_back(ring_blocks(r.cp, g, i, false, r.causal_skip));
    }
  }
  return steps;
}

double max_over_mean(const std::vector<double>& v) {
  double most = 0, sum = 0;
  for (double x : v) most = std::max(most, x), sum += x;
  return sum > 0 ? most * double(v.size()) / sum : 1.0;
}

json balance_json(const ContextRing& r) {
  json out;
  put(out, "zigzag_max_over_mean", max_over_mean(r.zigzag_blocks));
  put(out, "contiguous_max_over_mean", max_over_mean(r.contiguous_blocks));
  put(out, "zigzag_ring_blocks", r.zigzag_ring_blocks);
  put(out, "contiguous_ring_blocks", r.contiguous_ring_blocks);
  put(out, "contiguous_slowdown", r.contiguous_ring_blocks / r.zigzag_ring_blocks);
  return out;
}

json all_gather_json(const ContextRing& r) {
  const AllGatherPass& a = r.all_gather;
  json out;
  put(out, "gather_time", a.gather_time);
  put(out, "gather_bytes", a.gather_bytes);
  put(out, "scatter_time", a.scatter_time);
  put(out, "scatter_bytes", a.scatter_bytes);
  put(out, "gathered_bytes", a.gathered_bytes);
  put(out, "exposed", a.exposed);
  put(out, "exposed_per_step", r.all_gather_exposed_per_step);
  put(out, "forward_compute_time", a.forward_compute);
  put(out, "backward_compute_time", a.backward_compute);
  put(out, "contiguous_forward_compute_time", a.contiguous_forward_compute);
  put(out, "contiguous_backward_compute_time", a.contiguous_backward_compute);
  return out;
}

json link_json(const ContextRing& r) {
  json out;
  put(out, "name", r.link.link);
  put(out, "crosses_nodes", r.link.crosses_nodes);
  put(out, "measured", r.link.measured);
  put(out, "bandwidth", r.link_bandwidth);
  put(out, "latency", r.link_latency);
  return out;
}

}  // namespace

json op_context_ring(RequestReader& request) {
  const StepRequest s = read_step_request(request);
  request.finish();
  const std::int64_t cp = s.run.parallel.cp;
  if (cp < 2 || cp > kMaxRingGpus) {
    refuse(code::out_of_range,
           {"context_ring lays out a context-parallel group of 2 to ", std::to_string(kMaxRingGpus),
            " GPUs: parallel.cp is ", std::to_string(cp)},
           "parallel.cp");
  }
  check(s);  // step's own refusals (a schedule's rules) for the same request
  const ContextRing r = context_ring(s.run, s.efficiency);
  json out;
  put(out, "cp", cp);
  put(out, "sequence", s.run.model.seq);
  put(out, "chunks", 2 * cp);
  put(out, "chunk_tokens", r.chunk_tokens);
  put(out, "causal_skip", r.causal_skip);
  put(out, "block_flops", r.block_flops);
  put(out, "kv_bytes", r.kv_bytes);
  put(out, "link", link_json(r));
  put(out, "gpus", gpus_json(r));
  put(out, "ring", ring_json(r));
  put(out, "balance", balance_json(r));
  json& p2p = put_object(out, "p2p");
  put(p2p, "forward", pass_json(r.forward));
  put(p2p, "backward", pass_json(r.backward));
  put(p2p, "recomputed_exposed", r.recomputed_exposed);
  put(p2p, "exposed", r.forward.exposed + r.backward.exposed + r.recomputed_exposed);
  put(p2p, "exposed_per_step", r.exposed_per_step);
  json& contiguous = put_object(p2p, "contiguous");
  put(contiguous, "forward", pass_json(r.contiguous_forward));
  put(contiguous, "backward", pass_json(r.contiguous_backward));
  put(contiguous, "recomputed_exposed", r.contiguous_recomputed_exposed);
  put(contiguous, "exposed",
      r.contiguous_forward.exposed + r.contiguous_backward.exposed + r.contiguous_recomputed_exposed);
  put(out, "all_gather", all_gather_json(r));
  json& act = put_object(out, "activations");
  put(act, "per_layer_without_cp", r.activations_without_cp);
  put(act, "per_layer", r.activations);
  put(act, "saved_per_layer", r.activations_without_cp - r.activations);
  json& even = put_object(out, "break_even");
  put(even, "sequence", r.break_even.sequence);
  put(even, "bandwidth", r.break_even.bandwidth);
  return out;
}

}  // namespace parascope::detail
