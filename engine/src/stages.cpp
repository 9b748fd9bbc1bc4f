// Layers per pipeline stage and model chunk: the balanced rule with the ends lighter, or the first/last-stage counts.
#include "parascope/stages.hpp"

#include <algorithm>

namespace parascope {

namespace {

/// Pipeline layers the embedding and the loss count as (Megatron-Core's --account-for-embedding-in-pipeline-split,
/// --account-for-loss-in-pipeline-split: each is one layer of its stage's share; megatron/core/transformer/
/// transformer_block.py get_num_layers_to_build, core_r0.13.0).
std::int64_t embedding_layers(const ParallelConfig& p) { return p.embedding_in_split ? 1 : 0; }
std::int64_t loss_layers(const ParallelConfig& p) { return p.loss_in_split ? 1 : 0; }

/// nanotron's cost-balanced split (stages.hpp): transformer layers per stage, or none when it would leave a stage
/// without a layer or put the LM head before the last stage.
std::vector<std::int64_t> cost_balanced_counts(std::int64_t layers, std::int64_t pp, double head_weight) {
  const double total = double(layers) + head_weight;
  std::vector<std::int64_t> counts(std::size_t(pp), 0);
  std::int64_t stage = 0;
  for (std::int64_t layer = 1; layer <= layers && stage < pp; ++layer) {
    ++counts[std::size_t(stage)];
    if (double(layer) > total * double(stage + 1) / double(pp)) ++stage;
  }
  // The LM head goes to `stage`: the last one, with every stage holding a layer, or the split is not ours to draw.
  const bool every_stage = std::all_of(counts.begin(), counts.end(), [](std::int64_t n) { return n > 0; });
  if (stage != pp - 1 || !every_stage) return {};
  return counts;
}

/// Pipeline layers (transformer layers, plus the embedding and the loss where they count) per stage.
std::vector<std::int64_t> pipeline_layer_counts(std::int64_t layers, const ParallelConfig& p) {
  const bool by_cost = p.output_layer_weight > 0 && p.pp > 1 && p.first_stage_layers == 0 && p.last_stage_layers == 0 &&
                       !p.embedding_in_split && !p.loss_in_split;
  if (by_cost) {
    std::vector<std::int64_t> counts = cost_balanced_counts(layers, p.pp, p.output_layer_weight);
    const bool holds_chunks = std::all_of(counts.begin(), counts.end(), [&](std::int64_t n) { return n >= p.vpp; });
    if (!counts.empty() && holds_chunks) return counts;
  }
  layers = pipeline_layers(layers, p);
  const std::int64_t pp = p.pp;
  std::vector<std::int64_t> counts(std::size_t(pp), -1);
  std::int64_t rest = layers, shared = pp;
  if (p.first_stage_layers > 0 && pp > 1) {
    counts.front() = p.first_stage_layers;
    rest -= p.first_stage_layers;
    --shared;
  }
  if (p.last_stage_layers > 0 && pp > 1) {
    counts.back() = p.last_stage_layers;
    rest -= p.last_stage_layers;
    --shared;
  }
  if (shared <= 0) return counts;
  // The stages still open, ends first: last, first, pp−2, 1, pp−3, 2, ...
  std::vector<std::size_t> ends_first;
  ends_first.reserve(std::size_t(pp));  // one allocation (a planner asks this of every cost-model core it builds)
  for (std::int64_t i = 0; i < pp; ++i) {
    const std::int64_t s = i % 2 == 0 ? pp - 1 - i / 2 : i / 2;
    if (counts[std::size_t(s)] < 0) ends_first.push_back(std::size_t(s));
  }
  const std::int64_t base = rest / shared, heavier = rest % shared;
  for (std::size_t k = 0; k < ends_first.size(); ++k) {
    counts[ends_first[k]] = base + (std::int64_t(k) >= shared - heavier ? 1 : 0);
  }
  return counts;
}

}  // namespace

double output_layer_weight(const std::string& software, const ModelShape& m) {
  if (software != "nanotron" || m.hidden <= 0 || m.heads <= 0) return 0.0;
  const double h = double(m.hidden), d_qkv = double(m.hidden / m.heads);
  const double layer = 4.0 * double(m.heads) * d_qkv * h + 3.0 * double(m.ffn) * h;
  return layer > 0 ? double(m.vocab) * h / layer : 0.0;
}

std::int64_t pipeline_layers(std::int64_t layers, const ParallelConfig& p) {
  return layers + embedding_layers(p) + loss_layers(p);
}

std::vector<std::int64_t> stage_layer_counts(std::int64_t layers, const ParallelConfig& p) {
  std::vector<std::int64_t> counts = pipeline_layer_counts(layers, p);
  // The embedding is the first stage's first pipeline layer, the loss the last stage's last: not transformer layers.
  counts.front() -= embedding_layers(p);
  counts.back() -= loss_layers(p);
  return counts;
}

std::vector<std::vector<Span>> stage_chunks(std::int64_t layers, const ParallelConfig& p) {
  const std::vector<std::int64_t> counts = pipeline_layer_counts(layers, p);
  std::vector<std::vector<Span>> out(std::size_t(p.pp), std::vector<Span>(std::size_t(p.vpp)));
  // Chunks are laid out over pipeline layers; pipeline layer v is transformer layer v − e (e = 1 when the embedding
  // counts), so the embedding's and the loss's chunks hold one transformer layer fewer (possibly none).
  const std::int64_t e = embedding_layers(p);
  auto transformer = [&](std::int64_t v) { return std::clamp<std::int64_t>(v - e, 0, layers); };
  std::int64_t next = 0;
  for (std::int64_t c = 0; c < p.vpp; ++c) {
    for (std::int64_t s = 0; s < p.pp; ++s) {
      const std::int64_t n = counts[std::size_t(s)];
      const std::int64_t size = (c + 1) * n / p.vpp - c * n / p.vpp;
      out[std::size_t(s)][std::size_t(c)] = {transformer(next), transformer(next + size)};
      next += size;
    }
  }
  return out;
}

}  // namespace parascope
