// engine/data/kineto-rules.json read into compiled patterns: ECMAScript regular expressions, as JavaScript's RegExp
// reads them, case-insensitive (ASCII letters, in both) where the rule's flags hold "i".
#include "kineto_rules.hpp"

#include <nlohmann/json.hpp>
#include <stdexcept>

#include "parascope/embedded_data.hpp"

namespace parascope::cli {

namespace {

std::regex pattern(const nlohmann::json& rule) {
  const std::string flags = rule.at("flags").get<std::string>();
  if (flags.find_first_not_of('i') != std::string::npos) throw std::runtime_error("kineto-rules: flags other than i");
  auto options = std::regex::ECMAScript;
  if (!flags.empty()) options |= std::regex::icase;
  return std::regex(rule.at("pattern").get<std::string>(), options);
}

}  // namespace

KinetoRules::KinetoRules() {
  const auto rules = nlohmann::json::parse(parascope::detail::embedded_data_kineto_rules());
  kinds_ = rules.at("kinds").get<std::vector<std::string>>();
  step_ = pattern(rules.at("step_marker"));
  launch_category_ = rules.at("launch_category").get<std::string>();
  kernel_category_ = rules.at("kernel_category").get<std::string>();
  copies_ = rules.at("copy_categories").get<std::set<std::string>>();
  nccl_kernel_ = pattern(rules.at("nccl").at("kernel"));
  nccl_collective_ = pattern(rules.at("nccl").at("collective"));
  unnamed_collective_ = rules.at("nccl").at("unnamed_collective").get<std::string>();
  for (const auto& r : rules.at("compute")) compute_.emplace_back(r.at("kind").get<std::string>(), pattern(r));
  unnamed_compute_ = rules.at("unnamed_compute").get<std::string>();
}

KernelKind KinetoRules::classify(const std::string& name, const std::string& cat) const {
  if (copies_.count(cat)) return {"memcpy", ""};
  std::smatch nccl;
  const bool named = std::regex_search(name, nccl, nccl_collective_);
  if (named || std::regex_search(name, nccl_kernel_)) return {"nccl", named ? nccl[1].str() : unnamed_collective_};
  for (const auto& [kind, re] : compute_) {
    if (std::regex_search(name, re)) return {kind, ""};
  }
  return {unnamed_compute_, ""};
}

}  // namespace parascope::cli
