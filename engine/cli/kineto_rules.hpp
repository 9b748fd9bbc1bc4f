// The CLI's reading of engine/data/kineto-rules.json (embedded): how a Kineto trace's GPU events are classified, the
// same rules the step figure's trace reader takes from the same file (web/widgets/step/model/kineto.js).
#pragma once

#include <regex>
#include <set>
#include <string>
#include <utility>
#include <vector>

namespace parascope::cli {

struct KernelKind {
  std::string kind;
  std::string collective;  // NCCL's collective ("AllReduce"), empty for any other kind
};

class KinetoRules {
 public:
  /// The embedded rules; throws std::runtime_error if they are missing or malformed (a build fault).
  KinetoRules();

  /// Every kind, in the order the figure lists them.
  const std::vector<std::string>& kinds() const { return kinds_; }
  bool is_step_marker(const std::string& name) const { return std::regex_search(name, step_); }
  bool is_launch(const std::string& cat) const { return cat == launch_category_; }
  bool is_kernel(const std::string& cat) const { return cat == kernel_category_; }
  bool is_gpu(const std::string& cat) const { return cat == kernel_category_ || copies_.count(cat) > 0; }
  /// The kind of a GPU event of category `cat` (is_gpu) named `name`: kineto.js's kernelKind.
  KernelKind classify(const std::string& name, const std::string& cat) const;

 private:
  std::vector<std::string> kinds_;
  std::regex step_;
  std::string launch_category_;
  std::string kernel_category_;
  std::set<std::string> copies_;
  std::regex nccl_kernel_;
  std::regex nccl_collective_;
  std::string unnamed_collective_;
  std::vector<std::pair<std::string, std::regex>> compute_;
  std::string unnamed_compute_;
};

}  // namespace parascope::cli
