// Megatron-LM launch text -> its flags (megatron_launch.hpp). Expands `$NAME`, `${NAME}` and `${NAME[@]}` when the
// text assigns NAME a literal value or array (as Megatron-LM's examples/*/train_*.sh do); bash(1), "Arrays".
#include "megatron_launch.hpp"

#include <cctype>
#include <map>

namespace parascope::detail {

namespace {

using Vars = std::map<std::string, std::vector<ShellWord>>;

bool is_name(const std::string& s) {
  if (s.empty() || std::isdigit(static_cast<unsigned char>(s[0]))) return false;
  for (char c : s) {
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '_') return false;
  }
  return true;
}

/// The variable a whole word names ($X, ${X}, ${X[@]}, ${X[*]}), or "" when the word is not one reference.
std::string reference(const ShellWord& w) {
  const std::string& t = w.text;
  if (w.literal || t.size() < 2 || t[0] != '$') return "";
  std::string name = t.substr(1);
  if (name.front() == '{' && name.back() == '}') name = name.substr(1, name.size() - 2);
  for (const char* tail : {"[@]", "[*]"}) {
    if (name.size() > 3 && name.compare(name.size() - 3, 3, tail) == 0) name.resize(name.size() - 3);
  }
  return is_name(name) ? name : "";
}

/// A word with the variables it references replaced by their values (each a word of its own for an array).
void expand(const ShellWord& w, const Vars& vars, std::vector<ShellWord>& out) {
  const std::string name = reference(w);
  const auto found = name.empty() ? vars.end() : vars.find(name);
  if (found == vars.end()) {
    out.push_back(w);
    return;
  }
  for (ShellWord v : found->second) {
    v.line = w.line;
    out.push_back(v);
  }
}

/// `NAME=value` or `NAME=(`: the name, else "".
std::string assigned(const ShellWord& w) {
  const std::size_t eq = w.text.find('=');
  return eq != std::string::npos && is_name(w.text.substr(0, eq)) ? w.text.substr(0, eq) : "";
}

/// Reads the assignments at the front of a statement into `vars`; answers the index of its first other word.
std::size_t assignments(const ShellStatement& s, Vars& vars) {
  std::size_t i = s.words[0].text == "export" ? 1 : 0;
  while (i < s.words.size()) {
    const std::string name = assigned(s.words[i]);
    if (name.empty()) break;
    const std::string value = s.words[i].text.substr(name.size() + 1);
    std::vector<ShellWord> values;
    if (value == "(") {
      for (++i; i < s.words.size() && s.words[i].text != ")"; ++i) expand(s.words[i], vars, values);
    } else {
      expand({value, s.words[i].line, s.words[i].literal}, vars, values);
    }
    vars[name] = values;
    ++i;
  }
  return i;
}

bool ends_with(const std::string& s, const std::string& tail) {
  return s.size() >= tail.size() && s.compare(s.size() - tail.size(), tail.size(), tail) == 0;
}

/// Words -> flags with their values; launcher words before the script, stray words listed.
void split_args(const std::vector<ShellWord>& words, LaunchLine& out) {
  bool launcher = false;
  for (const ShellWord& w : words) launcher = launcher || ends_with(w.text, ".py");
  for (const ShellWord& w : words) {
    if (launcher && ends_with(w.text, ".py")) {
      launcher = false;
      out.ignored.push_back({{"key", w.text}, {"why", "the training script"}});
    } else if (w.text.rfind("--", 0) == 0 && w.text.size() > 2) {
      const std::size_t eq = w.text.find('=');
      LaunchArg a{w.text.substr(0, eq), {}, w.line, launcher};
      if (eq != std::string::npos) a.values.push_back({w.text.substr(eq + 1), w.line, w.literal});
      out.args.push_back(a);
    } else if (!out.args.empty() && out.args.back().launcher == launcher) {
      out.args.back().values.push_back(w);
    } else if (launcher) {
      out.ignored.push_back({{"key", w.text}, {"why", "the launcher (line " + std::to_string(w.line) + ")"}});
    } else {
      out.unmapped.push_back(
          {{"key", w.text}, {"why", "a word before any flag (line " + std::to_string(w.line) + ")"}});
    }
  }
}

bool is_launch(const ShellStatement& s, std::size_t from) {
  for (std::size_t i = from; i < s.words.size(); ++i) {
    if (ends_with(s.words[i].text, ".py") || (i == from && s.words[i].text == "torchrun")) return true;
  }
  return false;
}

}  // namespace

LaunchLine read_launch(const std::string& text) {
  const std::vector<ShellStatement> statements = shell_statements(text);
  bool any_launch = false;
  for (const ShellStatement& s : statements) {
    Vars scratch;
    any_launch = any_launch || is_launch(s, assignments(s, scratch));
  }
  Vars vars;
  LaunchLine out;
  std::vector<ShellWord> words;
  bool launched = false;
  for (const ShellStatement& s : statements) {
    const std::size_t from = assignments(s, vars);
    if (from >= s.words.size()) continue;  // assignments only: read into vars
    const bool launch = any_launch ? !launched && is_launch(s, from) : true;
    if (!launch) {
      out.ignored.push_back({{"key", s.words[from].text + " (line " + std::to_string(s.line) + ")"},
                             {"why", launched || !any_launch ? "a second launch or another shell command"
                                                             : "a shell command other than the launch"}});
      continue;
    }
    launched = launched || any_launch;
    for (std::size_t i = from; i < s.words.size(); ++i) {
      const ShellWord& w = s.words[i];
      const std::size_t eq = w.text.rfind("--", 0) == 0 ? w.text.find('=') : std::string::npos;
      if (eq == std::string::npos) {
        expand(w, vars, words);
        continue;
      }
      words.push_back({w.text.substr(0, eq), w.line, w.literal});  // --flag=value: the value expands alone
      expand({w.text.substr(eq + 1), w.line, w.literal}, vars, words);
    }
  }
  split_args(words, out);
  return out;
}

}  // namespace parascope::detail
