// Each kind of layer's times and the output layer's, for the cost model's first phase: built per run, or kept by the
// run fields a search varies (LayerMemo) so the schedules and interleaving degrees of one split share them.
#include "layer_part.hpp"

#include <cstddef>
#include <cstdint>
#include <unordered_map>

#include "exact_key.hpp"
#include "kernel_model.hpp"
#include "parascope/schedule.hpp"

namespace parascope::detail {

Recompute counted_recompute(const ParallelConfig& p, const Efficiency& eff) {
  return p.recompute == Recompute::selective && eff.flash_attention ? Recompute::none : p.recompute;
}

namespace {

/// LayerPart's inputs that a search varies (PlanSearch::State::consider rewrites no other field of the run): equal
/// keys within one search give the same LayerPart, bit for bit. The key holds no Efficiency field (split_projections,
/// the kernel and link efficiencies, ...), though layer times read them: one search uses one Efficiency per precision
/// (PlanSearch's `efficiency`, the query's with only precision set), so within it the precision names the Efficiency.
/// A memo shared across searches or Efficiencies would need those fields in the key.
struct LayerKey {
  std::int64_t dp, tp, pp, cp, ep, etp, microbatch_size, global_batch, recompute, sequence_parallel, precision, paired;
  bool operator==(const LayerKey& o) const {
    return dp == o.dp && tp == o.tp && pp == o.pp && cp == o.cp && ep == o.ep && etp == o.etp &&
           microbatch_size == o.microbatch_size && global_batch == o.global_batch && recompute == o.recompute &&
           sequence_parallel == o.sequence_parallel && precision == o.precision && paired == o.paired;
  }
};

LayerKey layer_key(const TrainingRun& run, const Efficiency& eff) {
  const ParallelConfig& p = run.parallel;
  const bool paired = schedule_info(p.schedule).pairs_all_to_all && p.pp > 1;
  return {p.dp,
          p.tp,
          p.pp,
          p.cp,
          p.ep,
          p.etp,
          p.microbatch_size,
          p.global_batch,
          std::int64_t(p.recompute),
          p.sequence_parallel ? 1 : 0,
          std::int64_t(eff.precision),
          paired ? 1 : 0};
}

LogitsSeconds logits_seconds(const TrainingRun& run, const Efficiency& eff) {
  const LogitsTimes logits_t = logits_kernel_times(run, eff);
  const double logits_gemm = logits_t.gemm_fwd;
  LogitsSeconds s;
  s.fwd = logits_gemm + logits_t.mem_fwd;
  s.bwd = 2.0 * logits_gemm + logits_t.mem_bwd;
  s.math = 3.0 * logits_gemm;
  return s;
}

LayerKinds layer_kinds(const TrainingRun& run, const Efficiency& eff, const LayerWork& work, const LayerComm& comm) {
  LayerKinds k;
  if (!run.model.is_moe()) {
    // A dense model has no MoE layer whatever first_dense_layers and moe_layer_freq say (ModelShape::moe_layers), so
    // both kinds of layer are the run's own layer: the same numbers, timed once.
    k.dense = k.moe = layer_times(run, eff, work, comm);
  } else {
    const TrainingRun dense_run = with_layer_kind(run, false), moe_run = with_layer_kind(run, true);
    const LayerWork dense_work = layer_work(dense_run, eff), moe_work = layer_work(moe_run, eff);
    k.dense = layer_times(dense_run, eff, dense_work, layer_comm(dense_run, eff, dense_work));
    k.moe = layer_times(moe_run, eff, moe_work, layer_comm(moe_run, eff, moe_work));
  }
  return k;
}

void build_layer_part(const TrainingRun& run, const Efficiency& eff, LayerPart& out) {
  // MFU and HFU count the model's FLOPs per token (PaLM App. B): fixed by the model and the recomputation.
  // With FlashAttention, selective recomputation (Korthikanti's: the attention core) has nothing left to do: the fused
  // kernel stores no score matrix and its backward rebuilds the scores anyway, which the attention backward's time
  // already holds. So the hardware does the FLOPs of no recomputation (and selective costs and saves nothing).
  out.flops = flops_per_token(run.model, eff.attention, counted_recompute(run.parallel, eff));
  out.work = layer_work(run, eff);
  out.comm = layer_comm(run, eff, out.work);
  out.logits = logits_work(run, eff);
  out.logits_seconds = logits_seconds(run, eff);
  out.kinds = layer_kinds(run, eff, out.work, out.comm);
}

}  // namespace

/// LayerParts already built in one search, by LayerKey; emptied when full (kCapacity), so its memory stays bounded
/// (the search asks for a LayerPart again within one split, across its schedules and interleaving degrees).
struct LayerMemo {
  struct Hash {
    std::size_t operator()(const LayerKey& k) const {
      const std::uint64_t words[] = {std::uint64_t(k.dp),
                                     std::uint64_t(k.tp),
                                     std::uint64_t(k.pp),
                                     std::uint64_t(k.cp),
                                     std::uint64_t(k.ep),
                                     std::uint64_t(k.etp),
                                     std::uint64_t(k.microbatch_size),
                                     std::uint64_t(k.global_batch),
                                     std::uint64_t(k.recompute),
                                     std::uint64_t(k.sequence_parallel),
                                     std::uint64_t(k.precision),
                                     std::uint64_t(k.paired)};
      const std::uint64_t h = hash_words(words, sizeof words / sizeof words[0]);
      return std::size_t(h ^ (h >> 32));
    }
  };
  static constexpr std::size_t kCapacity = 1024;
  std::unordered_map<LayerKey, LayerPart, Hash> parts;
};
void LayerMemoDeleter::operator()(LayerMemo* memo) const { delete memo; }
LayerMemoPtr make_layer_memo() { return LayerMemoPtr(new LayerMemo); }

const LayerPart& layer_part(const TrainingRun& run, const Efficiency& eff, LayerMemo* memo, LayerPart& scratch) {
  if (memo == nullptr) {
    build_layer_part(run, eff, scratch);
    return scratch;
  }
  const LayerKey key = layer_key(run, eff);
  const auto found = memo->parts.find(key);
  if (found != memo->parts.end()) return found->second;
  if (memo->parts.size() >= LayerMemo::kCapacity) memo->parts.clear();
  LayerPart& part = memo->parts[key];
  build_layer_part(run, eff, part);
  return part;
}

}  // namespace parascope::detail
