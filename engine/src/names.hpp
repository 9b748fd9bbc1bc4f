/// The API's names for the engine's fixed choices, one list each: recomputation modes, precisions, MFU attention
/// conventions, software generations, ZeRO stages, plan objectives. The readers and the presets op use these lists
/// (the schedules' ids come from the schedule registry, parascope/schedule.hpp).
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "parascope/cost_types.hpp"

namespace parascope::detail {

const std::vector<std::string_view>& recompute_ids();  ///< "none", "selective", "full", "op"
Recompute parse_recompute(std::string_view id);        ///< one of recompute_ids()
std::string_view recompute_id(Recompute recompute);
/// Refuses recompute "op" (torchtitan's per-op policy, counted for dense blocks) for an MoE or MLA model.
void check_op_recompute(const ModelShape& model, Recompute recompute, const std::string& field);

const std::vector<std::string_view>& precision_ids();  ///< "bf16", "fp8"
Precision parse_precision(std::string_view id);
std::string_view precision_id(Precision precision);

const std::vector<std::string_view>& fp8_recipe_ids();  ///< "current" (per-tensor current scaling), "delayed", "mxfp8"
const std::vector<std::string_view>& fp8_block_format_ids();  ///< hardware `fp8_block_scaling` entries: "mxfp8"

const std::vector<std::string_view>& attention_ids();  ///< "full", "causal"
AttentionFlops parse_attention(std::string_view id);

const std::vector<std::string_view>& software_ids();          ///< the generations default_efficiency knows
const std::vector<std::string_view>& attention_kernel_ids();  ///< "fused", "fa2", "triton"
const std::vector<int>& zero_stages();                        ///< 0, 1, 2, 3
const std::vector<std::string_view>& objective_ids();         ///< the planner's: "mfu", "step_time", "memory"

}  // namespace parascope::detail
