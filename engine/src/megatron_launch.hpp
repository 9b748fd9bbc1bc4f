/// A Megatron-LM launch script or command line read into its flags: shell variables assigned in the text expanded,
/// the torchrun flags told apart from pretrain_gpt.py's, everything else accounted for.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "shell_words.hpp"

namespace parascope::detail {

struct LaunchArg {
  std::string flag;               ///< "--num-layers" (a `--flag=value` split at the `=`)
  std::vector<ShellWord> values;  ///< the words up to the next `--flag`; a `$VAR` the text never sets stays as written
  std::size_t line = 1;
  bool launcher = false;  ///< before the script (torchrun's), not the script's
};

struct LaunchLine {
  std::vector<LaunchArg> args;
  nlohmann::json ignored = nlohmann::json::array();   ///< {key, why}: other shell statements, the launcher's words
  nlohmann::json unmapped = nlohmann::json::array();  ///< {key, why}: words that belong to no flag
};

/// The launch: the first statement that runs a `*.py` script or torchrun; with neither, the whole text as one
/// argument list (flags on lines with or without backslashes).
LaunchLine read_launch(const std::string& text);

}  // namespace parascope::detail
