// Decimal text to the nearest double in double and integer arithmetic (decimal_to_double.hpp), and the wasm's strtod.
// Its only caller there is nlohmann's lexer (JSON numbers with a fraction or an exponent, or too big for 64 bits).
// musl's strtod scans in long double: its soft-float routines (__divtf3, __multf3, __addtf3, fmodl, ...) cost every
// module ~4 KB gzip. Native builds keep their libc's strtod; tests/engine/decimal_to_double_test.cpp checks this one
// against it.
#include "decimal_to_double.hpp"

#include <cstdint>
#include <cstring>
#include <limits>
#include <vector>

namespace parascope::detail {
namespace {

/// Significant digits kept: a double's midpoints have at most 767, so text cut to 800 digits plus a nonzero "sticky"
/// digit for what was cut rounds as the whole text does (the method of Clinger 1990 / David Gay's strtod).
constexpr int kMaxDigits = 800;

constexpr std::uint32_t kPow10[] = {1, 10, 100, 1000, 10000, 100000, 1000000, 10000000, 100000000, 1000000000};

/// A natural number: 32-bit limbs, least significant first, no zero limb on top (zero is empty).
using Big = std::vector<std::uint32_t>;

void mul_add(Big& a, std::uint32_t m, std::uint32_t add) {
  std::uint64_t carry = add;
  for (std::uint32_t& limb : a) {
    const std::uint64_t t = std::uint64_t(limb) * m + carry;
    limb = std::uint32_t(t);
    carry = t >> 32;
  }
  if (carry) a.push_back(std::uint32_t(carry));
}

void mul_pow10(Big& a, std::int64_t k) {
  for (; k >= 9; k -= 9) mul_add(a, kPow10[9], 0);
  if (k > 0) mul_add(a, kPow10[k], 0);
}

void shift_left(Big& a, std::int64_t bits) {
  if (a.empty() || bits == 0) return;
  const int rest = int(bits % 32);
  if (rest) {
    std::uint32_t carry = 0;
    for (std::uint32_t& limb : a) {
      const std::uint32_t next = limb >> (32 - rest);
      limb = (limb << rest) | carry;
      carry = next;
    }
    if (carry) a.push_back(carry);
  }
  a.insert(a.begin(), std::size_t(bits / 32), 0u);
}

void halve(Big& a) {
  std::uint32_t carry = 0;
  for (std::size_t i = a.size(); i-- > 0;) {
    const std::uint32_t low = a[i] & 1u;
    a[i] = (a[i] >> 1) | (carry << 31);
    carry = low;
  }
  if (!a.empty() && a.back() == 0) a.pop_back();
}

std::int64_t bit_length(const Big& a) {
  if (a.empty()) return 0;
  std::int64_t n = 32 * std::int64_t(a.size() - 1);
  for (std::uint32_t top = a.back(); top; top >>= 1) ++n;
  return n;
}

int compare(const Big& a, const Big& b) {
  if (a.size() != b.size()) return a.size() < b.size() ? -1 : 1;
  for (std::size_t i = a.size(); i-- > 0;) {
    if (a[i] != b[i]) return a[i] < b[i] ? -1 : 1;
  }
  return 0;
}

void subtract(Big& a, const Big& b) {  // a -= b, where a >= b
  std::uint64_t borrow = 0;
  for (std::size_t i = 0; i < a.size(); ++i) {
    const std::uint64_t t = std::uint64_t(a[i]) - (i < b.size() ? b[i] : 0u) - borrow;
    a[i] = std::uint32_t(t);
    borrow = (t >> 63) & 1u;
  }
  while (!a.empty() && a.back() == 0) a.pop_back();
}

/// floor(n / d), n becoming the remainder (binary long division; the quotient must be below 2^63).
std::uint64_t divide(Big& n, const Big& d) {
  const std::int64_t top = bit_length(n) - bit_length(d);
  if (top < 0) return 0;
  Big shifted = d;
  shift_left(shifted, top);
  std::uint64_t q = 0;
  for (std::int64_t i = top; i >= 0; --i, halve(shifted)) {
    if (compare(n, shifted) >= 0) {
      subtract(n, shifted);
      q |= std::uint64_t(1) << i;
    }
  }
  return q;
}

/// A binary floating-point format: `precision` significand bits (the leading one included), normal exponents from
/// `min_exponent` to `max_exponent` (IEEE 754 binary64: 53, -1022, 1023; binary32: 24, -126, 127).
struct Format {
  int precision, min_exponent, max_exponent;
};
constexpr Format kDouble{53, -1022, 1023};
constexpr Format kFloat{24, -126, 127};

/// The bits of digits[0..count) (no leading zero) × 10^exp10 in format f, correctly rounded, for a value below
/// 10^(max decimal exponent + 1): the quotient q = floor(n / (d·2^b)) with 2^(p-1) <= q < 2^p (or b at its least, the
/// subnormals), rounded half to even on the remainder; infinity's bits above the largest finite value.
std::uint64_t exact(const char* digits, int count, std::int64_t exp10, Format f) {
  Big n;
  for (int i = 0; i < count;) {
    const int take = count - i < 9 ? count - i : 9;
    std::uint32_t chunk = 0;
    for (int j = 0; j < take; ++j) chunk = chunk * 10 + std::uint32_t(digits[i + j] - '0');
    mul_add(n, kPow10[take], chunk);
    i += take;
  }
  Big d{1};
  if (exp10 >= 0)
    mul_pow10(n, exp10);
  else
    mul_pow10(d, -exp10);
  const int p = f.precision;
  const std::uint64_t one = std::uint64_t(1) << (p - 1);  // q's leading bit in a normal number
  const std::int64_t least = f.min_exponent - (p - 1);    // b of the subnormals
  const std::int64_t most = f.max_exponent - (p - 1);     // the largest b of a finite number
  const std::uint64_t infinity = std::uint64_t(2 * f.max_exponent + 1) << (p - 1);
  std::int64_t b = bit_length(n) - bit_length(d) - p;  // n / d / 2^b lies in [2^(p-1), 2^(p+1))
  for (;;) {
    if (b < least) b = least;
    Big num = n;
    Big den = d;
    if (b >= 0)
      shift_left(den, b);
    else
      shift_left(num, -b);
    std::uint64_t q = divide(num, den);
    if (q >= 2 * one) {
      ++b;
      continue;
    }
    shift_left(num, 1);  // twice the remainder against the divisor: above half, or exactly half and q odd, rounds up
    const int half = compare(num, den);
    if (half > 0 || (half == 0 && (q & 1u))) ++q;
    if (q == 2 * one) {
      q = one;
      ++b;
    }
    if (b > most) return infinity;
    if (q < one) return q;  // subnormal (b = least): exponent field 0
    return (std::uint64_t(b - least + 1) << (p - 1)) | (q - one);
  }
}

bool is_digit(char c) { return c >= '0' && c <= '9'; }

/// Decimal text read as strtod reads it: the value is (-1 if negative) × digits[0..count) × 10^exp10, digits without
/// leading or (unless `cut` added a sticky digit) trailing zeros; end: just past the text read (text when no digit).
struct Decimal {
  bool negative = false;
  char digits[kMaxDigits + 1];
  int count = 0;
  std::int64_t exp10 = 0;
  const char* end;

  explicit Decimal(const char* text) : end(text) {
    const char* p = text;
    while (*p == ' ' || (*p >= '\t' && *p <= '\r')) ++p;
    if (*p == '+' || *p == '-') negative = *p++ == '-';
    bool any = false;  // a digit was read
    bool cut = false;  // a nonzero digit beyond kMaxDigits was dropped
    for (; is_digit(*p); ++p) {
      any = true;
      if (count == 0 && *p == '0') continue;
      if (count < kMaxDigits) {
        digits[count++] = *p;
      } else {
        ++exp10;
        cut |= *p != '0';
      }
    }
    if (*p == '.' && (any || is_digit(p[1]))) {
      for (++p; is_digit(*p); ++p) {
        any = true;
        if (count == 0 && *p == '0') {
          --exp10;
        } else if (count < kMaxDigits) {
          digits[count++] = *p;
          --exp10;
        } else {
          cut |= *p != '0';
        }
      }
    }
    if (!any) {
      negative = false;
      return;
    }
    if (*p == 'e' || *p == 'E') {
      const char* q = p + 1;
      bool down = false;
      if (*q == '+' || *q == '-') down = *q++ == '-';
      if (is_digit(*q)) {
        std::int64_t e = 0;
        for (; is_digit(*q); ++q) e = e < 100000000 ? e * 10 + (*q - '0') : e;  // far beyond any double either way
        exp10 += down ? -e : e;
        p = q;
      }
    }
    end = p;
    if (cut) {
      digits[count++] = '1';
      --exp10;
    } else {
      while (count > 0 && digits[count - 1] == '0') --count, ++exp10;
    }
  }
};

}  // namespace

double decimal_to_double(const char* text, char** end) {
  const Decimal x(text);
  if (end) *end = const_cast<char*>(x.end);
  double value;
  if (x.count == 0 || x.count + x.exp10 < -324) {  // below 10^-325: under half the smallest subnormal (4.9e-324)
    value = 0.0;
  } else if (x.count + x.exp10 > 310) {
    value = std::numeric_limits<double>::infinity();
  } else if (x.count <= 15 && x.exp10 >= -22 && x.exp10 <= 22) {
    // Clinger's fast path: the digits (< 10^15 < 2^53) and 10^|exp10| (<= 10^22 < 5^23) are exact doubles, so one
    // IEEE multiplication or division rounds the exact value once, as required.
    static constexpr double kPow10Double[] = {1e0,  1e1,  1e2,  1e3,  1e4,  1e5,  1e6,  1e7,  1e8,  1e9,  1e10, 1e11,
                                              1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22};
    std::uint64_t m = 0;
    for (int i = 0; i < x.count; ++i) m = m * 10 + std::uint64_t(x.digits[i] - '0');
    value = x.exp10 >= 0 ? double(m) * kPow10Double[x.exp10] : double(m) / kPow10Double[-x.exp10];
  } else {
    const std::uint64_t bits = exact(x.digits, x.count, x.exp10, kDouble);
    std::memcpy(&value, &bits, sizeof value);
  }
  return x.negative ? -value : value;
}

float decimal_to_float(const char* text, char** end) {
  const Decimal x(text);
  if (end) *end = const_cast<char*>(x.end);
  float value;
  if (x.count == 0 || x.count + x.exp10 < -46) {  // below 10^-47: under half the smallest subnormal (1.4e-45)
    value = 0.0f;
  } else if (x.count + x.exp10 > 40) {
    value = std::numeric_limits<float>::infinity();
  } else {
    const std::uint32_t bits = std::uint32_t(exact(x.digits, x.count, x.exp10, kFloat));
    std::memcpy(&value, &bits, sizeof value);
  }
  return x.negative ? -value : value;
}

}  // namespace parascope::detail

#ifdef __EMSCRIPTEN__
// All three of musl's strtod.o: libc++'s string.o (std::to_string's, also std::stof/stod/stold's) names strtof and
// strtold, which would link musl's strtod.o and its strtod beside this one. Nothing in the engine calls std::stold,
// so LTO drops strtold: it traps rather than answer a long double with a double's precision.
extern "C" double strtod(const char* text, char** end) { return parascope::detail::decimal_to_double(text, end); }
extern "C" float strtof(const char* text, char** end) { return parascope::detail::decimal_to_float(text, end); }
extern "C" long double strtold(const char*, char**) { __builtin_trap(); }
#endif
