// Validation of a whole run: cluster links default to the hardware preset's; the split must multiply to the GPUs.
#include "run_json.hpp"

#include "names.hpp"
#include "network_fit.hpp"
#include "parascope/stages.hpp"
#include "spec_json.hpp"

namespace parascope::detail {

namespace {

constexpr std::int64_t kMaxGpus = 10'000'000;
constexpr std::int64_t kMaxBatch = 100'000'000;
constexpr std::size_t kMaxNcclTestRows = 4096;

}  // namespace

Cluster read_cluster(RequestReader& r, const Hardware& hw) {
  Cluster c;
  c.gpus = r.integer("gpus", 1, kMaxGpus);
  c.gpus_per_node = r.integer_or("gpus_per_node", hw.gpus_per_node > 0 ? hw.gpus_per_node : 8, 1, kMaxGpus);
  auto link = [&](const char* key, double preset) {
    if (!r.has(key) && preset <= 0) {
      refuse(code::missing_field,
             {r.path_of(key),
              " is required: the hardware gives no value for it (bytes/s one direction "
              "per GPU, or seconds per step for a latency)"},
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
  c.power_limit = read_power_limit(r, hw.power_limit, hw);
  if (r.has("nccl_tests")) c.measured = fit_nccl_tests(read_nccl_tests(r));
  r.finish();
  return c;
}

std::vector<NcclTestRow> read_nccl_tests(RequestReader& r) {
  std::vector<NcclTestRow> rows;
  const json& list = r.value("nccl_tests");
  if (!list.is_array() || list.empty() || list.size() > kMaxNcclTestRows) {
    refuse(code::invalid_value,
           {r.path_of("nccl_tests"), " must be a list of 1 to ", std::int64_t(kMaxNcclTestRows),
            " nccl-tests all_reduce_perf rows {\"gpus\", \"bytes\", \"busbw\"} (busbw in bytes/s)"},
           r.path_of("nccl_tests"));
  }
  for (std::size_t i = 0; i < list.size(); ++i) {
    RequestReader row(list[i], r.path_of("nccl_tests") + "[" + std::to_string(i) + "]");
    NcclTestRow t;
    t.gpus = row.integer("gpus", 2, kMaxGpus);
    t.bytes = row.number("bytes", 1, 1e15);
    t.busbw = row.number("busbw", 1, 1e16);
    row.finish();
    rows.push_back(t);
  }
  return rows;
}

namespace {

/// `first_stage_layers` / `last_stage_layers` (Megatron-Core's --decoder-first/last-pipeline-num-layers): each stage,
/// those two and the ones sharing the rest, must hold at least vpp layers (one per model chunk).
void read_stage_layers(RequestReader& r, const ModelShape& m, ParallelConfig& p) {
  for (const char* key : {"first_stage_layers", "last_stage_layers"}) {
    if (r.has(key) && p.pp < 2) {
      refuse(code::inconsistent, {key, " needs a pipeline (pp ≥ 2); got pp = ", p.pp}, r.path_of(key));
    }
  }
  p.first_stage_layers = r.integer_or("first_stage_layers", 0, 1, m.layers);
  p.last_stage_layers = r.integer_or("last_stage_layers", 0, 1, m.layers);
  for (const char* key : {"first_stage_layers", "last_stage_layers"}) {
    const std::int64_t n = std::string(key) == "first_stage_layers" ? p.first_stage_layers : p.last_stage_layers;
    if (r.has(key) && n < p.vpp) {
      refuse(code::inconsistent, {key, " must be at least vpp = ", p.vpp, " (one layer per model chunk); got ", n},
             r.path_of(key));
    }
  }
  const std::int64_t given = (p.first_stage_layers > 0 ? 1 : 0) + (p.last_stage_layers > 0 ? 1 : 0);
  if (given == 0) return;
  const std::int64_t rest = m.layers - p.first_stage_layers - p.last_stage_layers;
  const std::int64_t others = p.pp - given;
  const char* key = p.last_stage_layers > 0 ? "last_stage_layers" : "first_stage_layers";
  if (others == 0 && rest != 0) {
    refuse(code::inconsistent,
           {"first_stage_layers + last_stage_layers must be the model's ", m.layers, " layers when pp = 2; got ",
            m.layers - rest},
           r.path_of(key));
  }
  if (others > 0 && rest < others * p.vpp) {
    refuse(code::inconsistent,
           {"the other ", others, " stages need at least vpp = ", p.vpp, " layers each, but ", m.layers,
            " layers leave them ", rest},
           r.path_of(key));
  }
}

/// `account_for_embedding` / `account_for_loss` (Megatron-Core's --account-for-embedding-in-pipeline-split and
/// --account-for-loss-in-pipeline-split): the embedding / the loss counts as one pipeline layer. They need a pipeline,
/// and Megatron-Core refuses them beside explicit first/last stage layer counts.
void read_pipeline_accounting(RequestReader& r, ParallelConfig& p) {
  for (const char* key : {"account_for_embedding", "account_for_loss"}) {
    if (!r.has(key)) continue;
    if (p.pp < 2) refuse(code::inconsistent, {key, " needs a pipeline (pp ≥ 2); got pp = ", p.pp}, r.path_of(key));
    if (r.has("first_stage_layers") || r.has("last_stage_layers")) {
      refuse(code::inconsistent,
             {key, " and first_stage_layers / last_stage_layers are two ways to set the ends' share: give one"},
             r.path_of(key));
    }
  }
  p.embedding_in_split = r.boolean_or("account_for_embedding", false);
  p.loss_in_split = r.boolean_or("account_for_loss", false);
}

ParallelConfig read_parallel(RequestReader& r, const ModelShape& m, const Cluster& c, const Hardware& hw) {
  ParallelConfig p;
  p.tp = r.integer_or("tp", 1, 1, kMaxGpus);
  p.pp = r.integer_or("pp", 1, 1, kMaxGpus);
  p.cp = r.integer_or("cp", 1, 1, kMaxGpus);
  p.ep = r.integer_or("ep", 1, 1, kMaxGpus);
  const std::int64_t model_parallel = p.tp * p.pp * p.cp;  // each ≤ 10^7, so no overflow in int64
  if (r.has("dp")) {
    p.dp = r.integer("dp", 1, kMaxGpus);
    if (p.dp * model_parallel != c.gpus) {
      refuse(code::inconsistent,
             {"dp·tp·pp·cp = ", p.dp, "·", p.tp, "·", p.pp, "·", p.cp, " = ", p.dp * model_parallel,
              " but cluster.gpus = ", c.gpus, "; they must be equal"},
             r.path_of("dp"));
    }
  } else {
    if (c.gpus % model_parallel != 0) {
      refuse(code::inconsistent,
             {"tp·pp·cp = ", model_parallel, " does not divide cluster.gpus = ", c.gpus,
              ", so no whole dp makes dp·tp·pp·cp = gpus"},
             r.path_of("tp"));
    }
    p.dp = c.gpus / model_parallel;
  }
  if (m.heads % p.tp != 0) {
    refuse(code::inconsistent,
           {"tp = ", p.tp, " must divide the model's ", m.heads,
            " attention heads (Megatron splits heads across tensor-parallel ranks)"},
           r.path_of("tp"));
  }
  if (p.cp > 1 && m.seq % p.cp != 0) {
    refuse(code::inconsistent, {"cp = ", p.cp, " must divide seq = ", m.seq}, r.path_of("cp"));
  }
  if (p.ep > 1) {
    if (!m.is_moe()) {
      refuse(code::inconsistent, {"ep > 1 needs a mixture-of-experts model (experts > 1)"}, r.path_of("ep"));
    }
    if (m.experts % p.ep != 0) {
      refuse(code::inconsistent, {"ep = ", p.ep, " must divide the model's ", m.experts, " experts"}, r.path_of("ep"));
    }
  }
  // MoE parallel folding (Megatron-Core; Liu et al. 2025, arXiv 2504.14960): the MoE layers split the same
  // tp·cp·dp ranks of a stage into etp × ep × edp. etp defaults to tp, which keeps the rule "ep divides dp·cp".
  if (r.has("etp") && !m.is_moe()) {
    refuse(code::inconsistent, {"etp (expert tensor parallel size) needs a mixture-of-experts model (experts > 1)"},
           r.path_of("etp"));
  }
  p.etp = m.is_moe() ? r.integer_or("etp", p.tp, 1, kMaxGpus) : 0;
  if (m.is_moe()) {
    const std::int64_t expert_ffn = m.expert_ffn > 0 ? m.expert_ffn : m.ffn;
    if (expert_ffn % p.etp != 0) {
      refuse(code::inconsistent,
             {"etp = ", p.etp, " must divide the expert FFN width ", expert_ffn,
              " (each expert's FFN columns are split over the etp ranks)"},
             r.path_of("etp"));
    }
    const std::int64_t ranks = p.tp * p.cp * p.dp;
    if (ranks % (p.ep * p.etp) != 0) {
      // Name the field that breaks the rule: etp when ep alone would fit.
      const bool etp_breaks = r.has("etp") && ranks % p.ep == 0;
      refuse(code::inconsistent,
             {"ep·etp = ", p.ep, "·", p.etp, " = ", p.ep * p.etp, " must divide tp·dp·cp = ", p.tp, "·", p.dp, "·",
              p.cp, " = ", ranks,
              " (MoE parallel folding: the expert groups are carved from one pipeline stage's ranks; "
              "etp defaults to tp, and etp = 1 lets ep span the tensor-parallel ranks too)"},
             r.path_of(etp_breaks ? "etp" : "ep"));
    }
  }
  p.vpp = r.integer_or("vpp", 1, 1, 1024);
  read_pipeline_accounting(r, p);
  const std::int64_t pipelined = pipeline_layers(m.layers, p);
  if (p.pp * p.vpp > pipelined && pipelined == m.layers) {
    refuse(code::inconsistent,
           {"pp·vpp = ", p.pp * p.vpp, " model chunks but the model has only ", m.layers,
            " layers (account_for_embedding and account_for_loss count those two as pipeline layers too)"},
           r.path_of(p.vpp > 1 ? "vpp" : "pp"));
  }
  if (p.pp * p.vpp > pipelined) {
    refuse(code::inconsistent,
           {"pp·vpp = ", p.pp * p.vpp, " model chunks but the model has only ", pipelined, " pipeline layers (",
            m.layers, " layers with the embedding and the loss where they count)"},
           r.path_of(p.vpp > 1 ? "vpp" : "pp"));
  }
  p.microbatch_size = r.integer_or("microbatch_size", 1, 1, kMaxBatch);
  p.global_batch = r.integer("global_batch", 1, kMaxBatch);
  if (p.global_batch % (p.dp * p.microbatch_size) != 0) {
    refuse(code::inconsistent,
           {"global_batch = ", p.global_batch, " sequences must be a multiple of dp·microbatch_size = ", p.dp, "·",
            p.microbatch_size, " = ", p.dp * p.microbatch_size},
           r.path_of("global_batch"));
  }
  p.schedule = *parse_schedule(r.choice_or("schedule", p.vpp > 1 ? "interleaved" : "1f1b", schedule_ids()));
  if (p.vpp > 1 && !schedule_info(p.schedule).interleaves) {
    refuse(code::inconsistent, {"vpp > 1 needs schedule \"interleaved\"; got \"", schedule_id(p.schedule), "\""},
           r.path_of("schedule"));
  }
  p.recompute = parse_recompute(r.choice_or("recompute", "none", recompute_ids()));
  check_op_recompute(m, p.recompute, r.path_of("recompute"));
  p.sequence_parallel = r.boolean_or("sequence_parallel", false);
  p.zero = int(r.integer_or("zero", 0, 0, 3));
  if (r.has("reshard_after_forward") && p.zero != 3) {
    refuse(code::inconsistent,
           {"reshard_after_forward applies to zero 3 (FSDP), which gathers the weights; got zero ", p.zero},
           r.path_of("reshard_after_forward"));
  }
  // Default as torchtitan sets it ("default" policy: reshard_after_forward = not pp_enabled): PyTorch FSDP's own
  // default (true) without a pipeline; with one, false, to avoid per-microbatch all-gathers (Llama 3's choice).
  p.reshard_after_forward = r.boolean_or("reshard_after_forward", p.pp == 1);
  read_stage_layers(r, m, p);
  if (r.has("moe_max_nodes_per_token") && !m.is_moe()) {
    refuse(code::inconsistent, {"moe_max_nodes_per_token needs a mixture-of-experts model (experts > 1)"},
           r.path_of("moe_max_nodes_per_token"));
  }
  p.moe_max_nodes_per_token = r.integer_or("moe_max_nodes_per_token", 0, 1, kMaxGpus);
  p.offload_optimizer = read_offload(r, hw);
  r.finish();
  return p;
}

}  // namespace

/// `offload_optimizer`: the share of the optimizer's parameters stepped on the host (engine/API.md, "Host offload").
/// Its cost needs the host link's and the host memory's bandwidths, which the hardware names or the request gives.
double read_offload(RequestReader& r, const Hardware& hw) {
  const double share = r.number_or("offload_optimizer", 0, 0, 1);
  if (share == 0) return share;
  for (const auto& [key, value] :
       {std::pair{"host_bandwidth", hw.host_bandwidth}, std::pair{"host_memory_bandwidth", hw.host_memory_bandwidth}}) {
    if (value > 0) continue;
    refuse(code::inconsistent,
           {"offload_optimizer needs the hardware's ", key, " (bytes/s), which ", hw.name,
            " does not give: add it to a hardware object"},
           r.path_of("offload_optimizer"));
  }
  return share;
}

TrainingRun read_run(RequestReader& request) {
  TrainingRun run;
  run.model = resolve_model(request, "model");
  run.hardware = resolve_hardware(request, "hardware");
  {
    RequestReader cluster = request.object("cluster");
    run.cluster = read_cluster(cluster, run.hardware);
  }
  RequestReader parallel = request.object("parallel");
  run.parallel = read_parallel(parallel, run.model, run.cluster, run.hardware);
  return run;
}

}  // namespace parascope::detail
