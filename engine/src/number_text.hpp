/// Numbers in messages: the one formatting rule every refusal uses (no JSON here, so the domain can use it too).
#pragma once

#include <cstdint>
#include <initializer_list>
#include <string>
#include <string_view>
#include <type_traits>

namespace parascope::detail {

/// Formats a number for an error message: integers without a fraction, others with up to 6 significant digits.
std::string format_number(double value);

/// printf's "%.<decimals>f" of any double (decimals <= 20), rounded as printf rounds: half to even on the exact value.
std::string format_fixed(double value, int decimals);

/// One piece of a message: text, a whole number (written as std::to_string writes it) or any other number
/// (written by format_number). Trivially destructible, so a list of them costs a call site no cleanup code.
class Piece {
 public:
  Piece(const char* text) : text_(text) {}
  Piece(std::string_view text) : text_(text) {}
  Piece(const std::string& text) : text_(text) {}
  template <class I,
            std::enable_if_t<std::is_integral_v<I> && !std::is_same_v<I, bool> && !std::is_same_v<I, char>, int> = 0>
  Piece(I whole) : kind_(Kind::whole), whole_(std::int64_t(whole)) {}
  Piece(double number) : kind_(Kind::number), number_(number) {}
  void append_to(std::string& out) const;

 private:
  enum class Kind : unsigned char { text, whole, number };
  Kind kind_ = Kind::text;
  std::string_view text_;
  std::int64_t whole_ = 0;
  double number_ = 0;
};

/// The pieces joined into one string (out of line: one call where `a + b + c` inlined a string temporary per `+`).
std::string join_pieces(std::initializer_list<Piece> pieces);

}  // namespace parascope::detail
