// Typed reads of a Megatron-LM launch's flags (megatron_flags.hpp); the groups of flags with no bearing on cost, each
// with its reason, as megatron/training/arguments.py names them at core_v0.14.0.
#include "megatron_flags.hpp"

#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <vector>

#include "request_reader.hpp"

namespace parascope::detail {

namespace {

struct IgnoredGroup {
  std::vector<const char*> flags;
  const char* why;
};

const std::vector<IgnoredGroup>& ignored_groups() {
  static const std::vector<IgnoredGroup> groups = {
      {{"--lr",
        "--min-lr",
        "--lr-decay-style",
        "--lr-decay-iters",
        "--lr-decay-samples",
        "--lr-warmup-iters",
        "--lr-warmup-samples",
        "--lr-warmup-fraction",
        "--lr-warmup-init",
        "--weight-decay",
        "--start-weight-decay",
        "--end-weight-decay",
        "--weight-decay-incr-style",
        "--clip-grad",
        "--adam-beta1",
        "--adam-beta2",
        "--adam-eps",
        "--init-method-std",
        "--init-method-xavier-uniform",
        "--seed",
        "--loss-scale",
        "--initial-loss-scale",
        "--min-loss-scale",
        "--loss-scale-window",
        "--hysteresis"},
       "an optimiser or initialisation hyperparameter: the same kernels and bytes per step"},
      {{"--train-iters", "--train-samples", "--exit-interval", "--exit-duration-in-mins", "--eval-iters",
        "--eval-interval"},
       "how long to train or evaluate: the engine costs one step"},
      {{"--data-path", "--train-data-path", "--valid-data-path", "--test-data-path", "--split", "--mock-data",
        "--tokenizer-type", "--tokenizer-model", "--vocab-file", "--merge-file", "--data-cache-path", "--num-workers",
        "--dataloader-type", "--no-create-attention-mask-in-dataloader"},
       "data and tokenizer files: not part of the step's cost (the vocabulary is read from --vocab-size)"},
      {{"--save", "--load", "--save-interval", "--pretrained-checkpoint", "--ckpt-format", "--no-load-optim",
        "--no-load-rng", "--finetune", "--async-save", "--use-dist-ckpt", "--auto-detect-ckpt-format",
        "--ckpt-fully-parallel-load", "--use-checkpoint-opt_param-scheduler"},
       "checkpointing: not part of a training step"},
      {{"--log-interval", "--tensorboard-dir", "--wandb-project", "--wandb-exp-name", "--wandb-save-dir",
        "--log-throughput", "--log-timers-to-tensorboard", "--log-validation-ppl-to-tensorboard",
        "--log-memory-to-tensorboard", "--timing-log-level", "--log-params-norm", "--log-num-zeros-in-grad",
        "--tensorboard-log-interval", "--log-progress"},
       "logging"},
      {{"--norm-epsilon", "--rotary-base", "--rotary-percent", "--rotary-scaling-factor", "--use-rope-scaling",
        "--rotary-interleaved", "--attention-softmax-in-fp32", "--accumulate-allreduce-grads-in-fp32",
        "--apply-query-key-layer-scaling", "--fp8-amax-history-len", "--fp8-amax-compute-algo", "--fp8-margin",
        "--fp8-interval"},
       "a numeric detail with the same matrices and FLOPs"},
      {{"--use-mcore-models",
        "--use-legacy-models",
        "--transformer-impl",
        "--attention-backend",
        "--use-flash-attn",
        "--distributed-backend",
        "--distributed-timeout-minutes",
        "--manual-gc",
        "--no-masked-softmax-fusion",
        "--no-bias-gelu-fusion",
        "--no-bias-swiglu-fusion",
        "--no-bias-dropout-fusion",
        "--no-rope-fusion",
        "--no-gradient-accumulation-fusion",
        "--cross-entropy-loss-fusion",
        "--no-persist-layer-norm",
        "--moe-grouped-gemm",
        "--moe-permute-fusion",
        "--moe-router-fusion",
        "--moe-token-dispatcher-type"},
       "an implementation choice: the engine's software stack (\"megatron-core\") assumes fused kernels, flash "
       "attention and grouped expert GEMMs"},
      {{"--moe-router-load-balancing-type", "--moe-aux-loss-coeff", "--moe-z-loss-coeff", "--moe-router-score-function",
        "--moe-router-pre-softmax", "--moe-router-dtype", "--moe-router-enable-expert-bias",
        "--moe-router-bias-update-rate", "--moe-router-topk-scaling-factor", "--moe-input-jitter-eps"},
       "the router's rule and loss: the engine's routing cost does not depend on them"},
      {{"--overlap-param-gather"}, "read with --overlap-grad-reduce: the engine's one data-parallel overlap"},
  };
  return groups;
}

const char* ignored_reason(const std::string& flag) {
  for (const IgnoredGroup& g : ignored_groups()) {
    for (const char* f : g.flags) {
      if (flag == f) return g.why;
    }
  }
  return nullptr;
}

}  // namespace

std::string flag_key(const LaunchArg& a) {
  return (a.launcher ? "torchrun " : "") + a.flag + " (line " + std::to_string(a.line) + ")";
}

MegatronFlags::MegatronFlags(const LaunchLine& launch, ImportedRequest& out) : out_(out) {
  for (const LaunchArg& a : launch.args) {
    std::string name = a.flag;
    if (a.launcher) {  // torchrun takes --nproc_per_node and --nproc-per-node alike
      for (char& c : name) c = c == '_' ? '-' : c;
      name = "torchrun " + name;
    }
    const auto before = args_.find(name);
    if (before != args_.end()) {
      out_.ignored.push_back({{"key", flag_key(before->second)},
                              {"why", "given again on line " + std::to_string(a.line) + ": argparse keeps the last"}});
    }
    args_[name] = a;
  }
}

const LaunchArg* MegatronFlags::take(const std::string& flag) {
  const auto it = args_.find(flag);
  if (it == args_.end()) return nullptr;
  read_[flag] = true;
  return &it->second;
}

bool MegatronFlags::on(const std::string& flag) {
  const LaunchArg* a = take(flag);
  if (a == nullptr) return false;
  for (const ShellWord& w : a->values) {
    out_.unmapped.push_back({{"key", w.text}, {"why", "a word after " + flag_key(*a) + ", a switch that takes none"}});
  }
  return true;
}

std::string MegatronFlags::value(const std::string& flag) {
  const LaunchArg& a = *take(flag);
  if (a.values.size() != 1) {
    refuse(code::invalid_value, {flag_key(a), " takes one value; got ", a.values.size()}, "text");
  }
  const ShellWord& w = a.values[0];
  const std::size_t dollar = w.literal ? std::string::npos : w.text.find('$');
  if (dollar != std::string::npos) {
    refuse(code::invalid_value,
           {flag_key(a), " is ", w.text, ", a shell variable the text does not set: give its value"}, "text");
  }
  return w.text;
}

std::string MegatronFlags::text(const std::string& flag, const std::string& fallback) {
  return has(flag) ? value(flag) : fallback;
}

long long MegatronFlags::integer(const std::string& flag, long long fallback, long long min) {
  if (!has(flag)) return fallback;
  const std::string v = value(flag);
  char* end = nullptr;
  errno = 0;
  const long long n = std::strtoll(v.c_str(), &end, 10);
  if (v.empty() || *end != '\0' || errno == ERANGE || n < min || n > 100'000'000'000LL) {
    refuse(code::invalid_value, {flag_key(args_.at(flag)), " is \"", v, "\"; it takes a whole number ≥ ", min}, "text");
  }
  return n;
}

long long MegatronFlags::required(const std::string& flag, const char* why) {
  if (!has(flag)) refuse(code::missing_field, {"the arguments give no ", flag, ": ", why}, "text");
  return integer(flag, 0);
}

double MegatronFlags::number(const std::string& flag, double fallback) {
  if (!has(flag)) return fallback;
  const std::string v = value(flag);
  char* end = nullptr;
  const double x = std::strtod(v.c_str(), &end);
  if (v.empty() || *end != '\0' || !std::isfinite(x)) {
    refuse(code::invalid_value, {flag_key(args_.at(flag)), " is \"", v, "\"; it takes a number"}, "text");
  }
  return x;
}

void MegatronFlags::ignore(const std::string& flag, const std::string& why) {
  if (read_.count(flag)) return;
  if (const LaunchArg* a = take(flag)) out_.ignored.push_back({{"key", flag_key(*a)}, {"why", why}});
}

void MegatronFlags::unmap(const std::string& flag, const std::string& why) {
  if (read_.count(flag)) return;
  if (const LaunchArg* a = take(flag)) out_.unmapped.push_back({{"key", flag_key(*a)}, {"why", why}});
}

void MegatronFlags::finish() {
  for (const auto& [name, a] : args_) {
    if (read_.count(name)) continue;
    if (const char* why = ignored_reason(name)) {
      out_.ignored.push_back({{"key", flag_key(a)}, {"why", why}});
    } else {
      out_.unmapped.push_back({{"key", flag_key(a)},
                               {"why", a.launcher ? "a torchrun flag the importer does not read"
                                                  : "a flag the importer does not read (not a cost setting it "
                                                    "knows, or not one of Megatron-LM's at core_v0.14.0)"}});
    }
  }
}

std::vector<std::string> megatron_ignored_flags() {
  std::vector<std::string> out;
  for (const IgnoredGroup& g : ignored_groups()) out.insert(out.end(), g.flags.begin(), g.flags.end());
  return out;
}

}  // namespace parascope::detail
