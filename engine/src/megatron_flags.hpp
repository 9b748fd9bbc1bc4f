/// The flags of one Megatron-LM launch as typed values: each read marks the flag used, a value the text leaves to a
/// shell variable is refused by the variable's name, and what is never read is listed at the end.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "config_import_formats.hpp"
#include "megatron_launch.hpp"

namespace parascope::detail {

class MegatronFlags {
 public:
  /// Later copies of a flag win, as argparse keeps the last; the earlier ones are listed as ignored.
  MegatronFlags(const LaunchLine& launch, ImportedRequest& out);

  bool has(const std::string& flag) const { return args_.count(flag) > 0; }
  /// A store_true switch: given or not (marks it read; values after it are listed as stray).
  bool on(const std::string& flag);
  std::string text(const std::string& flag, const std::string& fallback);
  long long integer(const std::string& flag, long long fallback, long long min = 1);
  /// A required integer: missing_field naming the flag when absent.
  long long required(const std::string& flag, const char* why);
  double number(const std::string& flag, double fallback);
  /// Marks a flag read without reading it, listing it as ignored or unmapped with `why`.
  void ignore(const std::string& flag, const std::string& why);
  void unmap(const std::string& flag, const std::string& why);
  /// Lists every flag never read: ignored with the reason its group has, else unmapped.
  void finish();

 private:
  const LaunchArg* take(const std::string& flag);
  std::string value(const std::string& flag);
  std::map<std::string, LaunchArg> args_;
  std::map<std::string, bool> read_;
  ImportedRequest& out_;
};

/// The flags of the ignored groups (megatron_known_flags lists them with the mapped ones).
std::vector<std::string> megatron_ignored_flags();

/// The key a listing names a flag by: "--num-layers (line 12)".
std::string flag_key(const LaunchArg& a);

}  // namespace parascope::detail
