// The API's names for the engine's fixed choices (names.hpp).
#include "names.hpp"

#include "request_reader.hpp"

namespace parascope::detail {

const std::vector<std::string_view>& recompute_ids() {
  static const std::vector<std::string_view> ids{"none", "selective", "full", "op"};
  return ids;
}
Recompute parse_recompute(std::string_view id) {
  if (id == "op") return Recompute::op;
  return id == "full" ? Recompute::full : id == "selective" ? Recompute::selective : Recompute::none;
}
std::string_view recompute_id(Recompute recompute) { return recompute_ids()[std::size_t(recompute)]; }
void check_op_recompute(const ModelShape& model, Recompute recompute, const std::string& field) {
  if (recompute == Recompute::op && (model.is_moe() || model.is_mla())) {
    refuse(code::inconsistent,
           {"recompute \"op\" is torchtitan's per-op policy for dense blocks (wq, wk, wv, wo, w1, w3, w2 as separate "
            "matmuls); a mixture-of-experts or MLA model's blocks are not counted that way"},
           field);
  }
}

const std::vector<std::string_view>& precision_ids() {
  static const std::vector<std::string_view> ids{"bf16", "fp8"};
  return ids;
}
Precision parse_precision(std::string_view id) { return id == "fp8" ? Precision::fp8 : Precision::bf16; }
std::string_view precision_id(Precision precision) { return precision_ids()[std::size_t(precision)]; }

const std::vector<std::string_view>& fp8_recipe_ids() {
  static const std::vector<std::string_view> ids{"current", "delayed", "mxfp8"};
  return ids;
}

const std::vector<std::string_view>& fp8_block_format_ids() {
  static const std::vector<std::string_view> ids{"mxfp8"};
  return ids;
}

const std::vector<std::string_view>& attention_ids() {
  static const std::vector<std::string_view> ids{"full", "causal"};
  return ids;
}
AttentionFlops parse_attention(std::string_view id) {
  return id == "causal" ? AttentionFlops::causal : AttentionFlops::full;
}

const std::vector<std::string_view>& software_ids() {
  static const std::vector<std::string_view> ids{"megatron-core",   "megatron-2021", "deepspeed", "pytorch",
                                                 "pytorch-compile", "nanotron",      "xla"};
  return ids;
}

const std::vector<std::string_view>& attention_kernel_ids() {
  static const std::vector<std::string_view> ids{"fused", "fa2", "triton"};
  return ids;
}

const std::vector<int>& zero_stages() {
  static const std::vector<int> stages{0, 1, 2, 3};
  return stages;
}

const std::vector<std::string_view>& objective_ids() {
  static const std::vector<std::string_view> ids{"mfu", "step_time", "memory"};
  return ids;
}

}  // namespace parascope::detail
