// Shell text -> statements of words (shell_words.hpp): bash's quoting rules (bash(1), QUOTING) for the subset launch
// scripts use; nothing is expanded here.
#include "shell_words.hpp"

#include "request_reader.hpp"

namespace parascope::detail {

namespace {

class Lexer {
 public:
  explicit Lexer(const std::string& text) : t_(text) {}

  std::vector<ShellStatement> run() {
    while (i_ < t_.size()) step();
    end_word();
    end_statement();
    if (depth_ > 0)
      refuse(code::invalid_value, {"an array's \"(\" opened at line ", open_line_, " is never closed"}, "text");
    return out_;
  }

 private:
  void step() {
    const char c = t_[i_];
    if (c == '\\' && i_ + 1 < t_.size() && t_[i_ + 1] == '\n') {  // continuation: the line goes on
      i_ += 2;
      ++line_;
      return;
    }
    if (c == '\n' || c == ';' || c == ' ' || c == '\t' || c == '\r') {
      end_word();
      if (c == '\n') ++line_;
      if ((c == '\n' || c == ';') && depth_ == 0) end_statement();
      ++i_;
      return;
    }
    if (c == '#' && !in_word_) return comment();
    if (c == ')' && depth_ > 0 && !in_word_) {
      --depth_;
      push_word(")");
      ++i_;
      return;
    }
    if (c == '(' && in_word_ && !word_.empty() && word_.back() == '=') {  // NAME=( starts an array
      word_ += '(';
      end_word();
      if (depth_++ == 0) open_line_ = line_;
      ++i_;
      return;
    }
    start_word();
    if (c == '\'') return single_quoted();
    if (c == '"') return double_quoted();
    if (c == '$' && i_ + 1 < t_.size() && t_[i_ + 1] == '(') return substitution();
    if (c == '\\' && i_ + 1 < t_.size()) ++i_;  // an escaped character stands for itself
    word_ += t_[i_++];
  }

  void comment() {
    while (i_ < t_.size() && t_[i_] != '\n') ++i_;
  }

  void single_quoted() {
    const std::size_t opened = line_;
    ++i_;
    while (i_ < t_.size() && t_[i_] != '\'') take();
    if (i_ >= t_.size())
      refuse(code::invalid_value, {"a quote (') opened at line ", opened, " is never closed"}, "text");
    ++i_;
    literal_ = true;
  }

  void double_quoted() {
    const std::size_t opened = line_;
    ++i_;
    while (i_ < t_.size() && t_[i_] != '"') {
      if (t_[i_] == '\\' && i_ + 1 < t_.size() && std::string("$`\"\\\n").find(t_[i_ + 1]) != std::string::npos) ++i_;
      take();
    }
    if (i_ >= t_.size())
      refuse(code::invalid_value, {"a quote (\") opened at line ", opened, " is never closed"}, "text");
    ++i_;
  }

  /// `$( ... )` or `$(( ... ))`, kept whole in the word (never run).
  void substitution() {
    const std::size_t opened = line_;
    int depth = 0;
    do {
      if (t_[i_] == '(') ++depth;
      if (t_[i_] == ')') --depth;
      take();
    } while (i_ < t_.size() && depth > 0);
    if (depth > 0) refuse(code::invalid_value, {"a \"$(\" opened at line ", opened, " is never closed"}, "text");
  }

  void take() {
    if (t_[i_] == '\n') ++line_;
    word_ += t_[i_++];
  }
  void start_word() {
    if (!in_word_) word_line_ = line_;
    in_word_ = true;
  }
  void push_word(std::string text) { words_.push_back({std::move(text), line_, false}); }
  void end_word() {
    if (in_word_) words_.push_back({word_, word_line_, literal_});
    word_.clear();
    in_word_ = literal_ = false;
  }
  void end_statement() {
    if (!words_.empty()) out_.push_back({words_, words_.front().line});
    words_.clear();
  }

  const std::string& t_;
  std::size_t i_ = 0, line_ = 1, word_line_ = 1, open_line_ = 1;
  int depth_ = 0;
  bool in_word_ = false, literal_ = false;
  std::string word_;
  std::vector<ShellWord> words_;
  std::vector<ShellStatement> out_;
};

}  // namespace

std::vector<ShellStatement> shell_statements(const std::string& text) { return Lexer(text).run(); }

}  // namespace parascope::detail
