/// A launcher's config file read into JSON leaves by dotted key (torchtitan's TOML, nanotron's YAML): each read marks
/// its key; finish() lists every key not read as ignored (with the format's reason) or unmapped.
#pragma once

#include <nlohmann/json.hpp>
#include <set>
#include <string>

#include "config_import_formats.hpp"

namespace parascope::detail {

class ConfigDoc {
 public:
  /// `doc` and `lines` (each leaf's 1-based line by dotted key) as read_toml / read_yaml give them.
  ConfigDoc(nlohmann::json doc, nlohmann::json lines, ImportedRequest& out)
      : doc_(std::move(doc)), lines_(std::move(lines)), out_(out) {}

  /// The leaf at `dotted`, or null when the file does not give it.
  const nlohmann::json* get(const std::string& dotted);
  long long integer(const std::string& k, long long fallback, long long min);
  double number(const std::string& k, double fallback, double min, double max);
  std::string text(const std::string& k, const std::string& fallback);
  bool flag(const std::string& k, bool fallback);
  [[noreturn]] void bad(const std::string& k, const std::string& want);
  /// The key with its line ("training.seq_len (line 12)"), or "(default)" when the file does not give it.
  std::string key(const std::string& k);
  void unmap(const std::string& k, const std::string& why);
  /// Every key not read: ignored with `ignored_reason(key)` when it gives one, else unmapped with `unknown`.
  void finish(const char* (*ignored_reason)(const std::string& key), const std::string& unknown);

 private:
  nlohmann::json doc_, lines_;
  std::set<std::string> read_;
  ImportedRequest& out_;
};

/// An assumption the file left open, listed in the answer's `assumed`.
void assume(ImportedRequest& out, const std::string& field, const std::string& why);

/// Refuses (field "text") a mapped request the engine would refuse, saying what it came from (`what`: "the config",
/// "the arguments").
void check_imported(const nlohmann::json& request, const char* what);

}  // namespace parascope::detail
