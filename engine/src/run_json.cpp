// Validation of a whole run: cluster links default to the hardware preset's; the split must multiply to the GPUs.
#include "run_json.hpp"

#include "spec_json.hpp"

namespace parascope::detail {

namespace {

constexpr std::int64_t kMaxGpus = 10'000'000;
constexpr std::int64_t kMaxBatch = 100'000'000;

std::string str(std::int64_t v) { return std::to_string(v); }

Cluster read_cluster(RequestReader& r, const Hardware& hw) {
  Cluster c;
  c.gpus = r.integer("gpus", 1, kMaxGpus);
  c.gpus_per_node = r.integer_or("gpus_per_node", hw.gpus_per_node > 0 ? hw.gpus_per_node : 8, 1, kMaxGpus);
  auto link = [&](const char* key, double preset) {
    if (!r.has(key) && preset <= 0) {
      throw RequestError(code::missing_field,
                         r.path_of(key) + " is required: the hardware gives no value for it (bytes/s one direction "
                                          "per GPU, or seconds per step for a latency)",
                         r.path_of(key));
    }
    // Bandwidths at least 1 byte/s (as a hardware object's), so no time derived from them overflows.
    return r.number_or(key, preset, std::string(key).find("bandwidth") != std::string::npos ? 1.0 : 0.0, 1e16);
  };
  c.intra_bandwidth = link("intra_bandwidth", hw.intra_bandwidth);
  c.inter_bandwidth = link("inter_bandwidth", hw.inter_bandwidth);
  c.intra_latency = r.number_or("intra_latency", hw.intra_latency, 0, 1.0);
  c.inter_latency = r.number_or("inter_latency", hw.inter_latency, 0, 1.0);
  c.intra_link = r.text_or("intra_link", hw.intra_link.empty() ? "intra-node link" : hw.intra_link);
  c.inter_link = r.text_or("inter_link", hw.inter_link.empty() ? "network" : hw.inter_link);
  r.finish();
  return c;
}

ParallelConfig read_parallel(RequestReader& r, const ModelShape& m, const Cluster& c) {
  ParallelConfig p;
  p.tp = r.integer_or("tp", 1, 1, kMaxGpus);
  p.pp = r.integer_or("pp", 1, 1, kMaxGpus);
  p.cp = r.integer_or("cp", 1, 1, kMaxGpus);
  p.ep = r.integer_or("ep", 1, 1, kMaxGpus);
  const std::int64_t model_parallel = p.tp * p.pp * p.cp;  // each ≤ 10^7, so no overflow in int64
  if (r.has("dp")) {
    p.dp = r.integer("dp", 1, kMaxGpus);
    if (p.dp * model_parallel != c.gpus) {
      throw RequestError(code::inconsistent,
                         "dp·tp·pp·cp = " + str(p.dp) + "·" + str(p.tp) + "·" + str(p.pp) + "·" + str(p.cp) + " = " +
                             str(p.dp * model_parallel) + " but cluster.gpus = " + str(c.gpus) + "; they must be equal",
                         r.path_of("dp"));
    }
  } else {
    if (c.gpus % model_parallel != 0) {
      throw RequestError(code::inconsistent,
                         "tp·pp·cp = " + str(model_parallel) + " does not divide cluster.gpus = " + str(c.gpus) +
                             ", so no whole dp makes dp·tp·pp·cp = gpus",
                         r.path_of("tp"));
    }
    p.dp = c.gpus / model_parallel;
  }
  if (m.heads % p.tp != 0) {
    throw RequestError(code::inconsistent,
                       "tp = " + str(p.tp) + " must divide the model's " + str(m.heads) +
                           " attention heads (Megatron splits heads across tensor-parallel ranks)",
                       r.path_of("tp"));
  }
  if (p.cp > 1 && m.seq % p.cp != 0) {
    throw RequestError(code::inconsistent, "cp = " + str(p.cp) + " must divide seq = " + str(m.seq), r.path_of("cp"));
  }
  if (p.ep > 1) {
    if (!m.is_moe()) {
      throw RequestError(code::inconsistent, "ep > 1 needs a mixture-of-experts model (experts > 1)", r.path_of("ep"));
    }
    if (m.experts % p.ep != 0) {
      throw RequestError(code::inconsistent,
                         "ep = " + str(p.ep) + " must divide the model's " + str(m.experts) + " experts", r.path_of("ep"));
    }
    if ((p.dp * p.cp) % p.ep != 0) {
      throw RequestError(code::inconsistent,
                         "ep = " + str(p.ep) + " must divide dp·cp = " + str(p.dp * p.cp) +
                             " (expert-parallel groups are carved from the data-parallel ranks, as in Megatron-Core)",
                         r.path_of("ep"));
    }
  }
  p.vpp = r.integer_or("vpp", 1, 1, 1024);
  if (p.pp * p.vpp > m.layers) {
    throw RequestError(code::inconsistent,
                       "pp·vpp = " + str(p.pp * p.vpp) + " model chunks but the model has only " + str(m.layers) +
                           " layers",
                       r.path_of(p.vpp > 1 ? "vpp" : "pp"));
  }
  p.microbatch_size = r.integer_or("microbatch_size", 1, 1, kMaxBatch);
  p.global_batch = r.integer("global_batch", 1, kMaxBatch);
  if (p.global_batch % (p.dp * p.microbatch_size) != 0) {
    throw RequestError(code::inconsistent,
                       "global_batch = " + str(p.global_batch) + " sequences must be a multiple of dp·microbatch_size = " +
                           str(p.dp) + "·" + str(p.microbatch_size) + " = " + str(p.dp * p.microbatch_size),
                       r.path_of("global_batch"));
  }
  p.schedule = r.choice_or("schedule", p.vpp > 1 ? "interleaved" : "1f1b",
                           {"gpipe", "1f1b", "interleaved", "zb-h1", "zb-h2", "dualpipe"});
  if (p.vpp > 1 && p.schedule != "interleaved") {
    throw RequestError(code::inconsistent, "vpp > 1 needs schedule \"interleaved\"; got \"" + p.schedule + "\"",
                       r.path_of("schedule"));
  }
  const std::string recompute = r.choice_or("recompute", "none", {"none", "selective", "full"});
  p.recompute = recompute == "full" ? Recompute::full : recompute == "selective" ? Recompute::selective : Recompute::none;
  p.sequence_parallel = r.boolean_or("sequence_parallel", false);
  p.zero = int(r.integer_or("zero", 0, 0, 3));
  r.finish();
  return p;
}

}  // namespace

TrainingRun read_run(RequestReader& request) {
  TrainingRun run;
  run.model = resolve_model(request, "model");
  run.hardware = resolve_hardware(request, "hardware");
  {
    RequestReader cluster = request.object("cluster");
    run.cluster = read_cluster(cluster, run.hardware);
  }
  RequestReader parallel = request.object("parallel");
  run.parallel = read_parallel(parallel, run.model, run.cluster);
  return run;
}

}  // namespace parascope::detail
