/// A shell script's text split into statements of words, as bash would read them before expansion (the subset launch
/// scripts use: quotes, backslash continuations, comments, `NAME=( ... )` arrays, `$(...)` kept whole).
#pragma once

#include <cstddef>
#include <string>
#include <vector>

namespace parascope::detail {

struct ShellWord {
  std::string text;      ///< quotes removed; `$` expansions left as written
  std::size_t line = 1;  ///< 1-based line where the word starts
  bool literal = false;  ///< the word was single-quoted: no expansion
};

struct ShellStatement {
  std::vector<ShellWord> words;
  std::size_t line = 1;
};

/// Splits `text` into statements: a newline or `;` ends one (not inside an array's parentheses), backslash-newline
/// continues it, `#` at a word's start comments to the end of the line. An unclosed quote or parenthesis is refused
/// (RequestError invalid_value, field "text") naming the line it opened on.
std::vector<ShellStatement> shell_statements(const std::string& text);

}  // namespace parascope::detail
