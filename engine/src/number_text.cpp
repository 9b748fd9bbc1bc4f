// Numbers in messages (number_text.hpp), written without printf: snprintf's "%.6g" kept musl's floating-point printf
// (fmt_fp, with its long-double arithmetic) in the wasm for the one formatting rule here.
#include "number_text.hpp"

#include <cmath>
#include <cstdint>

namespace parascope::detail {
namespace {

/// Writes `whole`'s digits ending just before `end`; returns where they start.
char* whole_digits(char* end, std::uint64_t whole) {
  do *--end = char('0' + whole % 10);
  while (whole /= 10);
  return end;
}

/// A finite value > 0 as decimal digits, exactly: value = 0.d1d2d3… * 10^(exponent + 1), d1 non-zero.
struct ExactDecimal {
  char text[828];  // at most 804 digits (5e-324 = 2^52 * 5^1126 * 10^-1126), written 9 at a time
  const char* first;
  int count;
  int exponent;  // X of printf's %e: value = d1.d2d3… * 10^X
};

void exact_decimal(double value, ExactDecimal& out) {
  // value = mantissa * 2^shift exactly; for shift < 0 that is (mantissa * 5^-shift) * 10^shift. The whole number
  // (mantissa * 2^shift or mantissa * 5^-shift, at most 2,670 bits) in base-2^32 words, least significant first.
  int binary_exponent = 0;
  const double fraction = std::frexp(value, &binary_exponent);
  int shift = binary_exponent - 53;
  const std::uint64_t mantissa = std::uint64_t(std::ldexp(fraction, 53));
  std::uint32_t words[88] = {std::uint32_t(mantissa), std::uint32_t(mantissa >> 32)};
  int used = 2;
  const int ten_power = shift < 0 ? shift : 0;  // value = whole * 10^ten_power
  while (shift != 0) {
    const int step = shift > 0 ? (shift < 31 ? shift : 31) : (-shift < 13 ? -shift : 13);
    std::uint32_t factor = 1;
    for (int i = 0; i < step; ++i) factor *= shift > 0 ? 2 : 5;
    shift += shift > 0 ? -step : step;
    std::uint64_t carry = 0;
    for (int i = 0; i < used; ++i) {
      carry += std::uint64_t(words[i]) * factor;
      words[i] = std::uint32_t(carry);
      carry >>= 32;
    }
    if (carry) words[used++] = std::uint32_t(carry);
  }
  // Its decimal digits, by repeated division by 1e9 (each remainder is 9 digits, written right to left).
  char* first = out.text + sizeof out.text;
  while (used > 0) {
    std::uint64_t rest = 0;
    for (int i = used - 1; i >= 0; --i) {
      rest = (rest << 32) | words[i];
      words[i] = std::uint32_t(rest / 1000000000u);
      rest %= 1000000000u;
    }
    while (used > 0 && words[used - 1] == 0) --used;
    for (int i = 0; i < 9; ++i, rest /= 10) *--first = char('0' + rest % 10);
  }
  while (*first == '0') ++first;
  out.first = first;
  out.count = int(out.text + sizeof out.text - first);
  out.exponent = out.count - 1 + ten_power;
}

/// The first `keep` digits of `exact` (0 <= keep <= 330) rounded half to even on the exact value, as printf rounds,
/// into `digits`; returns the exponent X of the rounded value (one more when 99…9 rounded up to 100…0).
int round_digits(const ExactDecimal& exact, int keep, char* digits) {
  for (int i = 0; i < keep; ++i) digits[i] = i < exact.count ? exact.first[i] : '0';
  if (exact.count <= keep) return exact.exponent;
  bool beyond = false;
  for (int i = keep + 1; i < exact.count; ++i) beyond |= exact.first[i] != '0';
  const char next = exact.first[keep];
  const bool odd = keep > 0 && (digits[keep - 1] - '0') % 2 == 1;
  if (next > '5' || (next == '5' && (beyond || odd))) {
    int i = keep - 1;
    while (i >= 0 && digits[i] == '9') digits[i--] = '0';
    if (i >= 0) {
      ++digits[i];
    } else {  // 99…9 -> 100…0: the same digits after a leading 1, one place up
      for (int j = keep - 1; j > 0; --j) digits[j] = digits[j - 1];
      if (keep > 0) digits[0] = '1';
      return exact.exponent + 1;
    }
  }
  return exact.exponent;
}

/// printf's "%.6g" of a finite value > 0 (C11 7.21.6.1: 6 significant digits, rounded half to even on the exact
/// value; the %e form when the decimal exponent X is below -4 or at least 6, else %f; trailing zeros removed).
void append_six_digits(std::string& out, double value) {
  ExactDecimal exact;
  exact_decimal(value, exact);
  constexpr int kDigits = 6;
  char digits[kDigits];
  const int exponent = round_digits(exact, kDigits, digits);
  int last = kDigits - 1;  // the last digit kept: trailing zeros are not written
  const bool scientific = exponent < -4 || exponent >= kDigits;
  const int point = scientific ? 0 : exponent;  // the digit the decimal point follows
  while (last > (point > 0 ? point : 0) && digits[last] == '0') --last;
  if (!scientific && exponent < 0) out.append("0.").append(std::size_t(-exponent - 1), '0');
  for (int i = 0; i <= last; ++i) {
    out += digits[i];
    if (i == point && i < last) out += '.';
  }
  if (scientific) {
    char buf[8];
    char* end = buf + sizeof buf;
    char* start = whole_digits(end, std::uint64_t(exponent < 0 ? -exponent : exponent));
    if (end - start < 2) *--start = '0';
    *--start = exponent < 0 ? '-' : '+';
    *--start = 'e';
    out.append(start, end);
  }
}

}  // namespace

std::string format_fixed(double value, int decimals) {
  std::string out;
  if (std::signbit(value)) out += '-';
  const double size = std::fabs(value);
  if (!std::isfinite(value)) return out + (std::isnan(value) ? "nan" : "inf");
  int top = 0;       // the highest power of ten written
  char digits[330];  // up to 10^308 down to 10^-20
  int keep = 0;      // digits[i] is the digit of 10^(top - i)
  if (size > 0) {
    ExactDecimal exact;
    exact_decimal(size, exact);
    keep = exact.exponent + 1 + decimals;  // the digits from the first down to 10^-decimals
    if (keep >= 0) {
      top = round_digits(exact, keep, digits);
      if (keep == 0 && top > exact.exponent) digits[0] = '1', keep = 1;  // below 10^-decimals, rounded up to it
    }
    if (keep <= 0) top = 0, keep = 0;  // rounded to 0
  }
  for (int power = top > 0 ? top : 0; power >= -decimals; --power) {
    const int i = top - power;
    out += i >= 0 && i < keep ? digits[i] : '0';
    if (power == 0 && decimals > 0) out += '.';
  }
  return out;
}

std::string format_number(double value) {
  std::string out;
  if (std::signbit(value)) out += '-';
  const double size = std::fabs(value);
  if (std::isnan(value)) {
    out += "nan";
  } else if (std::isinf(value)) {
    out += "inf";
  } else if (size == std::floor(size) && size < 1e15) {  // "%.0f": the whole number
    char buf[24];
    out.append(whole_digits(buf + sizeof buf, std::uint64_t(size)), buf + sizeof buf);
  } else {
    append_six_digits(out, size);
  }
  return out;
}

void Piece::append_to(std::string& out) const {
  switch (kind_) {
    case Kind::text:
      out += text_;
      break;
    case Kind::whole:
      out += std::to_string(whole_);
      break;
    case Kind::number:
      out += format_number(number_);
      break;
  }
}

std::string join_pieces(std::initializer_list<Piece> pieces) {
  std::string out;
  for (const Piece& p : pieces) p.append_to(out);
  return out;
}

}  // namespace parascope::detail
