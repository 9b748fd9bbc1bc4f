// A step request as Megatron-Bridge ConfigContainer overrides, YAML (config_export_formats.hpp): Megatron-LM's
// arguments for it (op_config_export.cpp) each written as the key config_import_nemo.cpp reads as that flag, so the
// two stay inverse; sections and keys as NVIDIA-NeMo/Megatron-Bridge v0.6.0 (51885cf) names them.
#include <algorithm>
#include <string>
#include <utility>
#include <vector>

#include "config_export_formats.hpp"
#include "config_import_formats.hpp"

namespace parascope::detail {

namespace {

using nlohmann::json;

struct Yaml {
  std::vector<std::pair<std::string, std::vector<std::string>>> sections;  ///< in order: name, its "key: value" lines
  void set(const std::string& dotted, const std::string& value) {
    const std::string section = dotted.substr(0, dotted.find('.')), key = dotted.substr(dotted.find('.') + 1);
    for (auto& [name, lines] : sections) {
      if (name == section) return lines.push_back(key + ": " + value);
    }
    sections.push_back({section, {key + ": " + value}});
  }
};

/// One Megatron argument ("--flag value" or "--switch") as its Bridge key; false when it has none.
bool write(const std::string& arg, Yaml& y) {
  const std::size_t space = arg.find(' ');
  const std::string flag = arg.substr(0, space);
  std::string value = space == std::string::npos ? "" : arg.substr(space + 1);
  if (value.size() > 1 && value.front() == '"') value = value.substr(1, value.size() - 2);  // --moe-layer-freq
  // Said by num_query_groups, and by seq_length (GPTModelProvider has no position-table length of its own).
  if (flag == "--group-query-attention" || flag == "--max-position-embeddings") return true;
  if (flag == "--make-vocab-size-divisible-by") {
    y.set("model.should_pad_vocab", "false");  // gpt_provider.py: the vocabulary as given, unpadded
    return true;
  }
  if (flag == "--tp-comm-overlap") {
    y.set("comm_overlap.tp_comm_overlap", "true");  // CommOverlapConfig, as the recipes set it
    return true;
  }
  if (flag == "--seq-length") y.set("dataset.seq_length", value);  // config.py: must equal model.seq_length
  if ((flag == "--attention-dropout" || flag == "--hidden-dropout") && value == "0") value = "0.0";
  const std::string key = nemo_key_of_flag(flag);
  if (key.empty()) return false;
  const bool inverse = flag == "--untie-embeddings-and-output-weights" || flag == "--disable-bias-linear";
  y.set(key, value.empty() ? (inverse ? "false" : "true") : value);
  return true;
}

}  // namespace

json export_nemo(const StepRequest& s) {
  const MegatronArgs launch = megatron_args(s);
  Yaml y;
  json notes = json::array();
  for (const std::string& arg : launch.args) {
    if (!write(arg, y)) notes.push_back({{"setting", arg}, {"why", "Megatron-Bridge has no key for this flag"}});
  }
  for (const json& n : launch.notes) {
    if (n["setting"] != "vocab") notes.push_back(n);  // should_pad_vocab false: Bridge keeps the vocabulary as is
  }
  const std::int64_t per_node = std::min(s.run.cluster.gpus_per_node, s.run.cluster.gpus);
  const std::int64_t nodes = (s.run.cluster.gpus + per_node - 1) / per_node;
  std::string text =
      "# Megatron-Bridge ConfigContainer overrides (keys as Megatron-Bridge v0.6.0 and Megatron-Core name them)\n"
      "# launch on " +
      std::to_string(s.run.cluster.gpus) + " GPUs: torchrun --nproc-per-node " + std::to_string(per_node) +
      " --nnodes " + std::to_string(nodes) + " <your recipe script> with this file as its YAML overrides\n";
  for (const auto& [section, lines] : y.sections) {
    text += section + ":\n";
    for (const std::string& l : lines) text += "  " + l + "\n";
  }
  return {{"text", text}, {"notes", notes}};
}

}  // namespace parascope::detail
