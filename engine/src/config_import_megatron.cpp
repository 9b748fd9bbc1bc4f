// Megatron-LM arguments -> a step request (config_import_formats.hpp): each flag's meaning and default as
// megatron/training/arguments.py defines it at core_v0.14.0 (NVIDIA/Megatron-LM), the vocabulary padding as
// megatron/training/tokenizer/tokenizer.py `_vocab_size_with_padding` does it there.
#include <cctype>
#include <string>
#include <utility>
#include <vector>

#include "config_doc.hpp"
#include "config_import_formats.hpp"
#include "megatron_flags.hpp"
#include "request_reader.hpp"
#include "step_json.hpp"

namespace parascope::detail {

namespace {

using nlohmann::json;

/// Megatron's FFN default (arguments.py, validate_args): 4h, or with --swiglu 4h·2/3 rounded down to a multiple of 64.
long long default_ffn(long long hidden, bool swiglu) { return swiglu ? (4 * hidden * 2 / 3) / 64 * 64 : 4 * hidden; }

void attention(MegatronFlags& f, long long hidden, long long heads, json& m) {
  const bool gqa = f.on("--group-query-attention");
  const long long groups = f.integer("--num-query-groups", 1);
  m["kv_heads"] = gqa ? groups : heads;
  if (!gqa && f.has("--num-query-groups")) f.ignore("--num-query-groups", "read only with --group-query-attention");
  if (f.has("--kv-channels")) m["head_dim"] = f.integer("--kv-channels", hidden / heads);
  f.unmap("--add-qkv-bias", "biases on the QKV projection only: the engine's bias is all matrices");
}

void mla(MegatronFlags& f, json& m, ImportedRequest& out) {
  const std::vector<std::string> keys = {"--kv-lora-rank", "--q-lora-rank", "--qk-head-dim", "--qk-pos-emb-head-dim",
                                         "--v-head-dim"};
  if (!f.on("--multi-latent-attention")) {
    for (const std::string& k : keys) f.ignore(k, "read only with --multi-latent-attention");
    return;
  }
  m["kv_lora_rank"] = f.integer("--kv-lora-rank", 32);  // arguments.py defaults
  m["q_lora_rank"] = f.integer("--q-lora-rank", 0, 0);
  const long long qk = f.integer("--qk-head-dim", 128), v = f.integer("--v-head-dim", 128);
  m["head_dim"] = qk;
  m["rope_head_dim"] = f.integer("--qk-pos-emb-head-dim", 64);
  if (v != qk) {
    out.unmapped.push_back({{"key", "--v-head-dim"},
                            {"why", "values " + std::to_string(v) + " wide, keys " + std::to_string(qk) +
                                        ": the engine's MLA has one head width (costed at the keys')"}});
  }
}

/// A Python list expression of 0/1 as --moe-layer-freq takes one ("([0]*3+[1]*58)"): lists, `+`, `* n`, parentheses.
class PatternParser {
 public:
  explicit PatternParser(const std::string& t) : t_(t) {}
  std::vector<int> all() {
    std::vector<int> v = sum();
    skip();
    if (i_ != t_.size()) fail();
    return v;
  }

 private:
  std::vector<int> sum() {
    std::vector<int> v = product();
    while (peek('+')) {
      const std::vector<int> more = product();
      v.insert(v.end(), more.begin(), more.end());
    }
    return v;
  }
  std::vector<int> product() {
    std::vector<int> v = atom();
    while (peek('*')) {
      const long long n = whole();
      if (n < 0 || v.size() * std::size_t(n) > 1'000'000) fail();
      std::vector<int> r;
      for (long long k = 0; k < n; ++k) r.insert(r.end(), v.begin(), v.end());
      v = r;
    }
    return v;
  }
  std::vector<int> atom() {
    if (peek('(')) {
      std::vector<int> v = sum();
      if (!peek(')')) fail();
      return v;
    }
    if (!peek('[')) fail();
    std::vector<int> v;
    while (!peek(']')) {
      if (!v.empty() && !peek(',')) fail();
      const long long x = whole();
      if (x != 0 && x != 1) fail();
      v.push_back(int(x));
    }
    return v;
  }
  long long whole() {
    skip();
    long long n = 0;
    const std::size_t start = i_;
    while (i_ < t_.size() && std::isdigit(static_cast<unsigned char>(t_[i_])) && n < 1'000'000)
      n = n * 10 + (t_[i_++] - '0');
    if (i_ == start) fail();
    return n;
  }
  bool peek(char c) {
    skip();
    if (i_ < t_.size() && t_[i_] == c) return ++i_, true;
    return false;
  }
  void skip() {
    while (i_ < t_.size() && t_[i_] == ' ') ++i_;
  }
  [[noreturn]] void fail() {
    refuse(code::invalid_value,
           {"--moe-layer-freq \"", t_, "\" is neither a whole number nor a list expression of 0 and 1"}, "text");
  }
  const std::string& t_;
  std::size_t i_ = 0;
};

/// --moe-layer-freq: an integer k (layer i is MoE when i % k == 0, arguments.py moe_freq_type and
/// megatron/core/models/gpt/moe_module_specs) or a list expression of 0/1, one per layer.
std::vector<int> moe_pattern(const std::string& text, long long layers) {
  std::vector<int> v;
  if (text.find('[') == std::string::npos) {
    const long long k = PatternParser("[1]*" + text).all().size();
    if (k < 1) refuse(code::invalid_value, {"--moe-layer-freq must be at least 1; got ", text}, "text");
    for (long long i = 0; i < layers; ++i) v.push_back(i % k == 0 ? 1 : 0);
    return v;
  }
  v = PatternParser(text).all();
  if (static_cast<long long>(v.size()) != layers) {
    refuse(code::inconsistent, {"--moe-layer-freq lists ", v.size(), " layers; --num-layers is ", layers}, "text");
  }
  return v;
}

void experts(MegatronFlags& f, long long layers, json& m, ImportedRequest& out) {
  if (!f.has("--num-experts")) {
    for (const char* k : {"--moe-router-topk", "--moe-ffn-hidden-size", "--moe-shared-expert-intermediate-size",
                          "--moe-layer-freq", "--expert-model-parallel-size", "--expert-tensor-parallel-size"}) {
      f.ignore(k, "read only with --num-experts");
    }
    return;
  }
  const long long experts = f.integer("--num-experts", 1);
  m["experts"] = experts;
  m["top_k"] = f.integer("--moe-router-topk", 2);
  const long long expert_ffn = f.integer("--moe-ffn-hidden-size", m["ffn"].get<long long>());
  m["expert_ffn"] = expert_ffn;
  const long long shared = f.integer("--moe-shared-expert-intermediate-size", 0, 0);
  if (shared % expert_ffn != 0) {
    out.unmapped.push_back({{"key", "--moe-shared-expert-intermediate-size"},
                            {"why", "not a whole number of experts " + std::to_string(expert_ffn) +
                                        " wide: the engine counts shared experts in routed widths"}});
  }
  if (shared > 0) m["shared_experts"] = shared / expert_ffn;
  if (!f.has("--moe-layer-freq")) return;
  const std::vector<int> pattern = moe_pattern(f.text("--moe-layer-freq", "1"), layers);
  // The engine's rule (parascope/model.hpp is_moe_layer): past `first` dense layers, every freq-th layer is MoE, so
  // the first MoE layer is first + freq − 1 and the next one freq later.
  long long z = 0;
  while (z < layers && pattern[z] == 0) ++z;
  long long freq = 1;
  while (z + freq < layers && pattern[z + freq] == 0) ++freq;
  if (z + freq >= layers) freq = 1;  // one MoE layer: every layer after the dense ones
  const long long first = z - freq + 1;
  for (long long i = 0; i < layers; ++i) {
    const bool moe = first >= 0 && i >= first && (i - first + 1) % freq == 0;
    if (z == layers || moe != (pattern[i] == 1)) {
      out.unmapped.push_back({{"key", "--moe-layer-freq"},
                              {"why",
                               "the pattern is not leading dense layers then every k-th layer MoE, the "
                               "engine's rule: costed as every layer MoE"}});
      return;
    }
  }
  if (first > 0) m["first_dense_layers"] = first;
  if (freq > 1) m["moe_layer_freq"] = freq;
}

/// Position embeddings: --position-embedding-type (default learned_absolute) and its older switches.
std::string position(MegatronFlags& f, ImportedRequest& out) {
  std::string type = f.text("--position-embedding-type", "learned_absolute");
  if (f.on("--use-rotary-position-embeddings")) type = "rope";
  if (f.on("--no-position-embedding")) type = "none";
  if (type == "rope" || type == "none") return type;
  if (type == "learned_absolute") return "learned";
  out.unmapped.push_back({{"key", "--position-embedding-type " + type},
                          {"why", type == "mrope" ? "multimodal RoPE: costed as RoPE (the same FLOPs)"
                                                  : "relative position buckets: costed as no position embedding"}});
  return type == "mrope" ? "rope" : "none";
}

/// Biases and dropout, which the engine counts together (`bias`: GPT-style models train with both).
void bias(MegatronFlags& f, json& m, ImportedRequest& out) {
  const bool bias = !f.on("--disable-bias-linear");
  m["bias"] = bias;
  const double attn = f.number("--attention-dropout", 0.1), hidden = f.number("--hidden-dropout", 0.1);
  const bool dropout = attn > 0 || hidden > 0;
  if (dropout != bias) {
    out.unmapped.push_back(
        {{"key", "--attention-dropout, --hidden-dropout"},
         {"why", std::string(bias ? "biases without dropout"
                                  : "dropout without biases (Megatron's "
                                    "default is 0.1)") +
                     ": the engine counts dropout with `bias`, costed as bias " + (bias ? "true" : "false")}});
  }
}

long long vocabulary(MegatronFlags& f, const ImportOptions& o, long long tp, ImportedRequest& out) {
  long long vocab = f.integer("--vocab-size", o.vocab);
  if (vocab == 0) {
    refuse(code::missing_field,
           {"the arguments give no --vocab-size (Megatron reads the vocabulary from the tokenizer's files): give "
            "`vocab`"},
           "vocab");
  }
  const long long multiple = o.pad_vocab ? f.integer("--make-vocab-size-divisible-by", 128) * tp : 1;
  const long long padded = (vocab + multiple - 1) / multiple * multiple;
  if (padded != vocab) {
    assume(out, "vocab",
           "Megatron pads the vocabulary to a multiple of --make-vocab-size-divisible-by × tp = " +
               std::to_string(multiple) + ": " + std::to_string(vocab) + " → " + std::to_string(padded));
  }
  return padded;
}

json model(MegatronFlags& f, const ImportOptions& o, long long tp, ImportedRequest& out) {
  json m = json::object();
  const long long layers = f.required("--num-layers", "the model's depth");
  const long long hidden = f.required("--hidden-size", "the model's width");
  const long long heads = f.required("--num-attention-heads", "the attention heads");
  m["layers"] = layers;
  m["hidden"] = hidden;
  m["heads"] = heads;
  const bool swiglu = f.on("--swiglu");
  m["activation"] = swiglu ? "swiglu" : "gelu";
  if (!f.has("--ffn-hidden-size")) assume(out, "ffn", "no --ffn-hidden-size: Megatron's default for the MLP");
  m["ffn"] = f.integer("--ffn-hidden-size", default_ffn(hidden, swiglu));
  attention(f, hidden, heads, m);
  m["vocab"] = vocabulary(f, o, tp, out);
  const long long seq = f.integer("--seq-length", o.seq);
  if (seq == 0) refuse(code::missing_field, {"the arguments give no --seq-length: give it, or `seq`"}, "text");
  m["seq"] = seq;
  m["norm"] = f.text("--normalization", "LayerNorm") == "RMSNorm" ? "rmsnorm" : "layernorm";
  m["position_embedding"] = position(f, out);
  if (f.integer("--max-position-embeddings", seq) != seq && m["position_embedding"] == "learned") {
    f.unmap("--max-position-embeddings", "a position table longer than --seq-length: the engine's has seq rows");
  } else {
    f.ignore("--max-position-embeddings", "the longest context: the training length is --seq-length");
  }
  m["tied_embeddings"] = !f.on("--untie-embeddings-and-output-weights");
  bias(f, m, out);
  mla(f, m, out);
  experts(f, layers, m, out);
  return m;
}

void recompute(MegatronFlags& f, json& p, ImportedRequest& out) {
  if (f.on("--recompute-activations")) p["recompute"] = "selective";  // arguments.py: the old name of selective
  const std::string g = f.text("--recompute-granularity", p.value("recompute", "none"));
  if (g == "selective") {
    p["recompute"] = "selective";
    f.unmap("--recompute-modules",
            "modules other than the default core_attn: "
            "costed as the attention core only");
  } else if (g == "full") {
    p["recompute"] = "full";
    const std::string method = f.text("--recompute-method", "uniform");
    const long long n = f.integer("--recompute-num-layers", 1);
    if (method != "uniform" || n != 1) {
      out.unmapped.push_back({{"key", "--recompute-method " + method + " --recompute-num-layers " + std::to_string(n)},
                              {"why",
                               "the engine's full recompute stores each layer's input and recomputes every "
                               "layer (uniform, 1): costed so"}});
    }
  } else if (g != "none") {
    refuse(code::invalid_value, {"--recompute-granularity is \"", g, "\"; Megatron takes full or selective"}, "text");
  }
  for (const char* k : {"--recompute-method", "--recompute-num-layers", "--recompute-modules"}) {
    f.ignore(k, "read only with its --recompute-granularity");
  }
  f.unmap("--distribute-saved-activations", "checkpoints split over tensor parallelism: not modelled");
}

void sharding(MegatronFlags& f, json& p) {
  if (f.on("--use-distributed-optimizer")) p["zero"] = 1;
  // The hybrid optimizer's host share (megatron/core/optimizer/cpu_offloading; engine/API.md, "Host offload"), its
  // copies priced as overlapped, which --overlap-cpu-optimizer-d2h-h2d turns on.
  if (f.on("--optimizer-cpu-offload")) {
    p["offload_optimizer"] = f.number("--optimizer-offload-fraction", 1.0);
  } else {
    f.ignore("--optimizer-offload-fraction", "read only with --optimizer-cpu-offload");
  }
  f.ignore("--overlap-cpu-optimizer-d2h-h2d", "the engine prices the host optimizer's copies as overlapped");
  const bool fsdp = f.on("--use-megatron-fsdp");
  if (!fsdp) {
    f.ignore("--data-parallel-sharding-strategy", "read only with --use-megatron-fsdp");
  } else {
    const std::string s = f.text("--data-parallel-sharding-strategy", "no_shard");
    const int zero = s == "optim" ? 1 : s == "optim_grads" ? 2 : s == "optim_grads_params" ? 3 : 0;
    if (zero > 0) p["zero"] = zero;
  }
  if (f.on("--use-torch-fsdp2")) p["zero"] = 3;
}

json parallel(MegatronFlags& f, long long layers, long long gpus, ImportedRequest& out) {
  json p = json::object();
  const long long tp = f.integer("--tensor-model-parallel-size", 1),
                  pp = f.integer("--pipeline-model-parallel-size", 1), cp = f.integer("--context-parallel-size", 1);
  for (const auto& [key, v] : {std::pair{"tp", tp}, {"pp", pp}, {"cp", cp}}) {
    if (v > 1) p[key] = v;
  }
  if (f.has("--expert-model-parallel-size")) p["ep"] = f.integer("--expert-model-parallel-size", 1);
  if (f.has("--expert-tensor-parallel-size")) p["etp"] = f.integer("--expert-tensor-parallel-size", 1);
  long long vpp = f.integer("--num-virtual-stages-per-pipeline-rank", 1);
  if (f.has("--num-layers-per-virtual-pipeline-stage")) {
    const long long per = f.integer("--num-layers-per-virtual-pipeline-stage", 1);
    if (layers % (pp * per) != 0) {
      refuse(code::inconsistent,
             {"--num-layers-per-virtual-pipeline-stage ", per, " × pp ", pp, " does not divide --num-layers ", layers},
             "text");
    }
    vpp = layers / (pp * per);
  }
  if (vpp > 1) p["vpp"] = vpp;
  for (const auto& [flag, key] : {std::pair{"--decoder-first-pipeline-num-layers", "first_stage_layers"},
                                  {"--decoder-last-pipeline-num-layers", "last_stage_layers"}}) {
    if (f.has(flag)) p[key] = f.integer(flag, 0, 0);
  }
  if (f.on("--account-for-embedding-in-pipeline-split")) p["account_for_embedding"] = true;
  if (f.on("--account-for-loss-in-pipeline-split")) p["account_for_loss"] = true;
  const long long micro = f.integer("--micro-batch-size", 1);
  if (!f.has("--micro-batch-size")) assume(out, "parallel.microbatch_size", "no --micro-batch-size: 1");
  p["microbatch_size"] = micro;
  // arguments.py: without --global-batch-size, one microbatch per data-parallel rank.
  const long long dp = gpus % (tp * pp * cp) == 0 ? gpus / (tp * pp * cp) : 1;
  p["global_batch"] = f.integer("--global-batch-size", micro * dp);
  f.unmap("--rampup-batch-size", "a batch that grows over training: the engine costs the final global batch");
  if (f.on("--sequence-parallel") && tp > 1) p["sequence_parallel"] = true;
  recompute(f, p, out);
  sharding(f, p);
  return p;
}

/// Precision and the overlaps the engine models: the request's top-level and `efficiency` fields.
void numerics(MegatronFlags& f, const json& p, long long gpus, json& r, ImportedRequest& out) {
  const bool bf16 = f.on("--bf16"), fp16 = f.on("--fp16");
  if (fp16) {
    out.unmapped.push_back({{"key", "--fp16"},
                            {"why",
                             "fp16 with loss scaling: costed as bf16 (the same tensor-core "
                             "rate)"}});
  }
  if (!bf16 && !fp16) {
    out.unmapped.push_back({{"key", "--bf16"},
                            {"why",
                             "neither --bf16 nor --fp16: Megatron trains in fp32, costed "
                             "as bf16"}});
  }
  if (f.has("--fp8-format")) {
    r["precision"] = "fp8";
    const std::string recipe = f.text("--fp8-recipe", "delayed");
    if (recipe == "mxfp8" || recipe == "delayed") r["fp8_recipe"] = recipe;
    if (recipe == "blockwise") {
      out.unmapped.push_back({{"key", "--fp8-recipe " + recipe},
                              {"why", "costed as per-tensor current scaling (tensorwise): the same FP8 GEMMs"}});
    }
    f.ignore("--fp8-format", "e4m3 or hybrid: the same FP8 tensor-core rate");
  } else {
    f.ignore("--fp8-recipe", "read only with --fp8-format");
  }
  const long long tp = p.value("tp", 1LL), model_parallel = tp * p.value("pp", 1LL) * p.value("cp", 1LL);
  const long long dp_cp = gpus / model_parallel * p.value("cp", 1LL);
  json e = json::object();
  const bool dp_overlap = f.on("--overlap-grad-reduce"), tp_overlap = f.on("--tp-comm-overlap");
  if (dp_cp > 1) e["dp_overlap"] = dp_overlap;  // Megatron's default: no overlap
  if (tp > 1) e["tp_comm_overlap"] = tp_overlap;
  if (!e.empty()) r["efficiency"] = e;
}

/// torchrun's --nproc-per-node × --nnodes: the cluster, over base's.
json cluster(MegatronFlags& f, const ImportOptions& o, ImportedRequest& out) {
  json c = o.base.value("cluster", json::object());
  if (!f.has("torchrun --nproc-per-node")) {
    if (!c.contains("gpus")) {
      // One node of 8, or one model replica where tp × pp × cp does not divide 8 (as the torchtitan reader does).
      const long long replica = f.integer("--tensor-model-parallel-size", 1) *
                                f.integer("--pipeline-model-parallel-size", 1) *
                                f.integer("--context-parallel-size", 1);
      c["gpus"] = 8 % replica == 0 ? 8 : replica;
      assume(out, "cluster.gpus",
             "no torchrun --nproc-per-node and no base.cluster: " + std::to_string(c["gpus"].get<long long>()) +
                 (8 % replica == 0 ? std::string() : " (one replica of tp × pp × cp)"));
    }
    return c;
  }
  const long long per_node = f.integer("torchrun --nproc-per-node", 1), nodes = f.integer("torchrun --nnodes", 1);
  c["gpus"] = per_node * nodes;
  if (nodes > 1) c["gpus_per_node"] = per_node;
  for (const char* k :
       {"torchrun --master-addr", "torchrun --master-port", "torchrun --node-rank", "torchrun --rdzv-backend",
        "torchrun --rdzv-endpoint", "torchrun --rdzv-id", "torchrun --standalone"}) {
    f.ignore(k, "where the processes meet: not part of the cost");
  }
  return c;
}

/// The request through the engine's own reader: a refusal names what the arguments asked for.
}  // namespace

ImportedRequest import_megatron(const std::string& text, const ImportOptions& o) {
  return import_megatron_launch(read_launch(text), o);
}

ImportedRequest import_megatron_launch(const LaunchLine& launch, const ImportOptions& o) {
  ImportedRequest out;
  out.ignored = launch.ignored;
  out.unmapped = launch.unmapped;
  MegatronFlags f(launch, out);
  json r = o.base;
  r["op"] = "step";
  if (!r.contains("hardware")) {
    r["hardware"] = "h100-sxm";
    assume(out, "hardware", "Megatron's arguments do not name the GPU: h100-sxm, until you give `base`");
  }
  if (!r.contains("software")) r["software"] = "megatron-core";
  r["cluster"] = cluster(f, o, out);
  const long long gpus = r["cluster"]["gpus"].get<long long>();
  const long long tp = f.integer("--tensor-model-parallel-size", 1);
  r["model"] = model(f, o, tp, out);
  json p = o.base.value("parallel", json::object());
  p.update(parallel(f, r["model"]["layers"].get<long long>(), gpus, out));
  r["parallel"] = p;
  numerics(f, p, gpus, r, out);
  f.finish();
  check_imported(r, "the arguments");
  out.request = std::move(r);
  return out;
}

std::vector<std::string> megatron_known_flags() {
  std::vector<std::string> out = megatron_ignored_flags();
  const std::vector<std::string> mapped = {"--num-layers",
                                           "--hidden-size",
                                           "--num-attention-heads",
                                           "--swiglu",
                                           "--ffn-hidden-size",
                                           "--group-query-attention",
                                           "--num-query-groups",
                                           "--kv-channels",
                                           "--add-qkv-bias",
                                           "--multi-latent-attention",
                                           "--kv-lora-rank",
                                           "--q-lora-rank",
                                           "--qk-head-dim",
                                           "--qk-pos-emb-head-dim",
                                           "--v-head-dim",
                                           "--num-experts",
                                           "--moe-router-topk",
                                           "--moe-ffn-hidden-size",
                                           "--moe-shared-expert-intermediate-size",
                                           "--moe-layer-freq",
                                           "--expert-model-parallel-size",
                                           "--expert-tensor-parallel-size",
                                           "--position-embedding-type",
                                           "--use-rotary-position-embeddings",
                                           "--no-position-embedding",
                                           "--disable-bias-linear",
                                           "--attention-dropout",
                                           "--hidden-dropout",
                                           "--vocab-size",
                                           "--make-vocab-size-divisible-by",
                                           "--seq-length",
                                           "--normalization",
                                           "--max-position-embeddings",
                                           "--untie-embeddings-and-output-weights",
                                           "--recompute-activations",
                                           "--recompute-granularity",
                                           "--recompute-modules",
                                           "--recompute-method",
                                           "--recompute-num-layers",
                                           "--distribute-saved-activations",
                                           "--use-distributed-optimizer",
                                           "--optimizer-cpu-offload",
                                           "--optimizer-offload-fraction",
                                           "--use-megatron-fsdp",
                                           "--data-parallel-sharding-strategy",
                                           "--use-torch-fsdp2",
                                           "--tensor-model-parallel-size",
                                           "--pipeline-model-parallel-size",
                                           "--context-parallel-size",
                                           "--num-virtual-stages-per-pipeline-rank",
                                           "--num-layers-per-virtual-pipeline-stage",
                                           "--decoder-first-pipeline-num-layers",
                                           "--decoder-last-pipeline-num-layers",
                                           "--account-for-embedding-in-pipeline-split",
                                           "--account-for-loss-in-pipeline-split",
                                           "--micro-batch-size",
                                           "--global-batch-size",
                                           "--rampup-batch-size",
                                           "--sequence-parallel",
                                           "--bf16",
                                           "--fp16",
                                           "--fp8-format",
                                           "--fp8-recipe",
                                           "--overlap-grad-reduce",
                                           "--tp-comm-overlap"};
  out.insert(out.end(), mapped.begin(), mapped.end());
  return out;
}

}  // namespace parascope::detail
