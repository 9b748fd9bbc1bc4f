// Request text to a JSON value with our own reader: the values, exceptions and messages of nlohmann's json::parse.
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <string>
#include <utility>
#include <vector>

#include "parse_json.hpp"

namespace parascope::detail {

namespace {

using json = nlohmann::json;

/// What one scan of the text found. `error`: a malformed token, whose reason is Reader::reason_.
enum class Token {
  none,
  t,
  f,
  null,
  string,
  unsigned_int,
  signed_int,
  real,
  open_array,
  open_object,
  close_array,
  close_object,
  colon,
  comma,
  error,
  end,
  any_value
};

/// A token's name in a message, as json::parse writes it.
const char* token_name(Token t) {
  switch (t) {
    case Token::t:
      return "true literal";
    case Token::f:
      return "false literal";
    case Token::null:
      return "null literal";
    case Token::string:
      return "string literal";
    case Token::unsigned_int:
    case Token::signed_int:
    case Token::real:
      return "number literal";
    case Token::open_array:
      return "'['";
    case Token::open_object:
      return "'{'";
    case Token::close_array:
      return "']'";
    case Token::close_object:
      return "'}'";
    case Token::colon:
      return "':'";
    case Token::comma:
      return "','";
    case Token::error:
      return "<parse error>";
    case Token::end:
      return "end of input";
    case Token::any_value:
      return "'[', '{', or a literal";
    case Token::none:
      break;
  }
  return "<uninitialized>";
}

/// The names of the 32 control characters, U+0000 to U+001F, as the refusal of a raw one in a string spells them.
constexpr const char* kControlNames[32] = {"NUL", "SOH", "STX", "ETX", "EOT", "ENQ", "ACK", "BEL", "BS",  "HT",  "LF",
                                           "VT",  "FF",  "CR",  "SO",  "SI",  "DLE", "DC1", "DC2", "DC3", "DC4", "NAK",
                                           "SYN", "ETB", "CAN", "EM",  "SUB", "ESC", "FS",  "GS",  "RS",  "US"};

/// Four upper-case hex digits of `v` (v < 0x10000).
std::string hex4(unsigned v) {
  const char* digits = "0123456789ABCDEF";
  return {digits[(v >> 12) & 15], digits[(v >> 8) & 15], digits[(v >> 4) & 15], digits[v & 15]};
}

/// One pass over the text. Its position and "last read" text follow json::parse's lexer to the byte (a step back
/// at the start of a line leaves the column at 0; the last-read text restarts only at a string or a number), so
/// that every message agrees with json::parse's (tests/engine/json_read_test.cpp compares them on generated text).
class Reader {
 public:
  explicit Reader(std::string_view text) : text_(text) {}
  json read();

 private:
  int next();
  void back();
  Token scan();
  Token literal(const char* word, Token found);
  Token string();
  bool escape();
  int hex_digits();
  bool utf8_tail(int lead);
  Token number();
  Token number_value(Token kind);
  void expect_key();
  Token fail_token(std::string why);
  [[noreturn]] void fail(Token expected, const char* context) const;
  std::string last_read() const;
  json* place(json value, std::vector<json*>& open, json& root);
  json scalar() const;
  bool close_or_continue(std::vector<json*>& open);

  std::string_view text_;
  std::size_t at_ = 0;  // next byte of text_ to read
  int current_ = -1;    // the byte read last (-1: the end)
  bool again_ = false;  // the next next() hands current_ back
  std::size_t total_ = 0, column_ = 0, lines_ = 0;
  std::string seen_;   // "last read": the bytes since the last string or number began
  std::string value_;  // the string's or number's text
  std::string reason_;
  Token token_ = Token::none;
  std::string key_;  // the key the next value of the innermost object takes
  std::int64_t signed_ = 0;
  std::uint64_t unsigned_ = 0;
  double real_ = 0;
};

int Reader::next() {
  ++total_;
  ++column_;
  if (again_) {
    again_ = false;
  } else {
    current_ = at_ < text_.size() ? static_cast<unsigned char>(text_[at_++]) : -1;
  }
  if (current_ >= 0) seen_.push_back(static_cast<char>(current_));
  if (current_ == '\n') {
    ++lines_;
    column_ = 0;
  }
  return current_;
}

void Reader::back() {
  again_ = true;
  --total_;
  if (column_ == 0) {
    if (lines_ > 0) --lines_;
  } else {
    --column_;
  }
  if (current_ >= 0) seen_.pop_back();
}

Token Reader::fail_token(std::string why) {
  reason_ = std::move(why);
  return Token::error;
}

Token Reader::scan() {
  if (total_ == 0) {  // a byte-order mark, whole or not at all
    if (next() == 0xEF) {
      if (!(next() == 0xBB && next() == 0xBF)) return fail_token("invalid BOM; must be 0xEF 0xBB 0xBF if given");
    } else {
      back();
    }
  }
  do next();
  while (current_ == ' ' || current_ == '\t' || current_ == '\n' || current_ == '\r');
  switch (current_) {
    case '[':
      return Token::open_array;
    case ']':
      return Token::close_array;
    case '{':
      return Token::open_object;
    case '}':
      return Token::close_object;
    case ':':
      return Token::colon;
    case ',':
      return Token::comma;
    case 't':
      return literal("true", Token::t);
    case 'f':
      return literal("false", Token::f);
    case 'n':
      return literal("null", Token::null);
    case '"':
      return string();
    case 0:
    case -1:
      return Token::end;  // a NUL byte ends the text as its end does
    default:
      break;
  }
  if (current_ == '-' || (current_ >= '0' && current_ <= '9')) return number();
  return fail_token("invalid literal");
}

Token Reader::literal(const char* word, Token found) {
  for (const char* c = word + 1; *c != 0; ++c) {
    if (next() != *c) return fail_token("invalid literal");
  }
  return found;
}

/// A string token, its text decoded into value_ (JSON's escapes, UTF-8 checked byte by byte).
Token Reader::string() {
  value_.clear();
  seen_.assign(1, '"');
  while (true) {
    const int c = next();
    if (c == '"') return Token::string;
    if (c == -1) return fail_token("invalid string: missing closing quote");
    if (c == '\\') {
      if (!escape()) return Token::error;
    } else if (c < 0x20) {
      const char* names[] = {"\\b", "\\t", "\\n", nullptr, "\\f", "\\r"};  // U+0008..U+000D's short escapes
      const char* also = c >= 8 && c <= 13 ? names[c - 8] : nullptr;
      return fail_token("invalid string: control character U+" + hex4(unsigned(c)) + " (" + kControlNames[c] +
                        ") must be escaped to \\u" + hex4(unsigned(c)) + (also ? std::string(" or ") + also : ""));
    } else if (c < 0x80) {
      value_.push_back(static_cast<char>(c));
    } else if (!utf8_tail(c)) {
      return fail_token("invalid string: ill-formed UTF-8 byte");
    }
  }
}

/// The four hex digits after \u as a code point, or -1 at the first byte that is not one.
int Reader::hex_digits() {
  int code = 0;
  for (int i = 0; i < 4; ++i) {
    const int c = next();
    const int digit = c >= '0' && c <= '9'   ? c - '0'
                      : c >= 'A' && c <= 'F' ? c - 'A' + 10
                      : c >= 'a' && c <= 'f' ? c - 'a' + 10
                                             : -1;
    if (digit < 0) return -1;
    code = code * 16 + digit;
  }
  return code;
}

/// One escape after a backslash, appended to value_ (a \u pair of surrogates as one code point, in UTF-8).
bool Reader::escape() {
  const int c = next();
  const char* plain = "\"\"\\\\//b\bf\fn\nr\rt\t";  // pairs: the letter, what it stands for
  for (const char* p = plain; *p != 0; p += 2) {
    if (c == *p) {
      value_.push_back(p[1]);
      return true;
    }
  }
  if (c != 'u') return fail_token("invalid string: forbidden character after backslash"), false;
  const char* need_hex = "invalid string: '\\u' must be followed by 4 hex digits";
  long code = hex_digits();
  if (code < 0) return fail_token(need_hex), false;
  if (code >= 0xDC00 && code <= 0xDFFF) {
    return fail_token("invalid string: surrogate U+DC00..U+DFFF must follow U+D800..U+DBFF"), false;
  }
  if (code >= 0xD800 && code <= 0xDBFF) {
    const char* unpaired = "invalid string: surrogate U+D800..U+DBFF must be followed by U+DC00..U+DFFF";
    if (!(next() == '\\' && next() == 'u')) return fail_token(unpaired), false;
    const long low = hex_digits();
    if (low < 0) return fail_token(need_hex), false;
    if (low < 0xDC00 || low > 0xDFFF) return fail_token(unpaired), false;
    code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00);  // Unicode 15, Sec. 3.9, D91 (UTF-16)
  }
  // UTF-8 (Unicode 15, Sec. 3.9, Table 3-6): 1 to 4 bytes by the code point's size.
  if (code < 0x80) {
    value_.push_back(static_cast<char>(code));
  } else if (code < 0x800) {
    value_ += {static_cast<char>(0xC0 | (code >> 6)), static_cast<char>(0x80 | (code & 0x3F))};
  } else if (code < 0x10000) {
    value_ += {static_cast<char>(0xE0 | (code >> 12)), static_cast<char>(0x80 | ((code >> 6) & 0x3F)),
               static_cast<char>(0x80 | (code & 0x3F))};
  } else {
    value_ += {static_cast<char>(0xF0 | (code >> 18)), static_cast<char>(0x80 | ((code >> 12) & 0x3F)),
               static_cast<char>(0x80 | ((code >> 6) & 0x3F)), static_cast<char>(0x80 | (code & 0x3F))};
  }
  return true;
}

/// The bytes after a UTF-8 lead byte `lead`, each checked against the range Unicode 15 Table 3-7 (well-formed UTF-8
/// byte sequences) allows it; all appended to value_. False at the first byte out of range or a lead byte no
/// sequence starts with (0x80..0xC1, 0xF5..0xFF).
bool Reader::utf8_tail(int lead) {
  int lo = 0x80, hi = 0xBF, tail = 0;  // the first continuation byte's range; the bytes after it are 0x80..0xBF
  if (lead >= 0xC2 && lead <= 0xDF)
    tail = 1;
  else if (lead == 0xE0)
    tail = 2, lo = 0xA0;
  else if (lead == 0xED)
    tail = 2, hi = 0x9F;
  else if (lead >= 0xE1 && lead <= 0xEF)
    tail = 2;
  else if (lead == 0xF0)
    tail = 3, lo = 0x90;
  else if (lead == 0xF4)
    tail = 3, hi = 0x8F;
  else if (lead >= 0xF1 && lead <= 0xF3)
    tail = 3;
  else
    return false;
  value_.push_back(static_cast<char>(lead));
  for (int i = 0; i < tail; ++i, lo = 0x80, hi = 0xBF) {
    const int c = next();
    if (c < lo || c > hi) return false;
    value_.push_back(static_cast<char>(c));
  }
  return true;
}

bool is_digit(int c) { return c >= '0' && c <= '9'; }

/// A number token (RFC 8259 Sec. 6: minus, int, frac, exp), its text kept in value_ and converted by number_value.
Token Reader::number() {
  value_.assign(1, static_cast<char>(current_));
  seen_.assign(1, static_cast<char>(current_));
  Token kind = Token::unsigned_int;
  int c = current_;
  if (c == '-') {
    kind = Token::signed_int;
    if (!is_digit(c = next())) return fail_token("invalid number; expected digit after '-'");
    value_.push_back(static_cast<char>(c));
  }
  if (c == '0') {
    c = next();  // a leading zero is the whole integer part
  } else {
    while (is_digit(c = next())) value_.push_back(static_cast<char>(c));
  }
  if (c == '.') {
    kind = Token::real;
    value_.push_back('.');
    if (!is_digit(c = next())) return fail_token("invalid number; expected digit after '.'");
    do value_.push_back(static_cast<char>(c));
    while (is_digit(c = next()));
  }
  if (c == 'e' || c == 'E') {
    kind = Token::real;
    value_.push_back(static_cast<char>(c));
    c = next();
    if (c == '+' || c == '-') {
      value_.push_back(static_cast<char>(c));
      if (!is_digit(c = next())) return fail_token("invalid number; expected digit after exponent sign");
    } else if (!is_digit(c)) {
      return fail_token("invalid number; expected '+', '-', or digit after exponent");
    }
    do value_.push_back(static_cast<char>(c));
    while (is_digit(c = next()));
  }
  back();  // the byte after the number belongs to the next token
  return number_value(kind);
}

/// An integer as an unsigned (no sign) or signed 64-bit value when it fits, else, like a fraction or an exponent,
/// the nearest double (strtod; infinite when too large, refused by scalar()).
Token Reader::number_value(Token kind) {
  char* end = nullptr;
  errno = 0;
  if (kind == Token::unsigned_int) {
    const unsigned long long x = std::strtoull(value_.c_str(), &end, 10);
    if (errno == 0) return unsigned_ = x, kind;
  } else if (kind == Token::signed_int) {
    const long long x = std::strtoll(value_.c_str(), &end, 10);
    if (errno == 0) return signed_ = x, kind;
  }
  real_ = std::strtod(value_.c_str(), &end);
  return Token::real;
}

/// The bytes read since the last string or number began, control characters written <U+00XX>.
std::string Reader::last_read() const {
  std::string out;
  for (const char c : seen_) {
    const auto byte = static_cast<unsigned char>(c);
    if (byte <= 0x1F) {
      out += "<U+" + hex4(byte) + ">";
    } else {
      out.push_back(c);
    }
  }
  return out;
}

/// Throws json::parse's parse_error 101 for the token at hand where `expected` (or any value) should have been.
void Reader::fail(Token expected, const char* context) const {
  std::string message = std::string("syntax error while parsing ") + context + " - ";
  if (token_ == Token::error) {
    message += reason_ + "; last read: '" + last_read() + "'";
  } else {
    message += std::string("unexpected ") + token_name(token_);
  }
  if (expected != Token::none) message += std::string("; expected ") + token_name(expected);
  throw json::parse_error::create(101, nlohmann::detail::position_t{total_, column_, lines_}, message, nullptr);
}

/// At an object's key: keeps it in key_, reads the colon and the value's first token.
void Reader::expect_key() {
  if (token_ != Token::string) fail(Token::string, "object key");
  key_ = value_;
  token_ = scan();
  if (token_ != Token::colon) fail(Token::colon, "object separator");
  token_ = scan();
}

/// The scalar value token_ names (true, false, null, a string or a number).
json Reader::scalar() const {
  switch (token_) {
    case Token::t:
      return true;
    case Token::f:
      return false;
    case Token::string:
      return value_;
    case Token::unsigned_int:
      return unsigned_;
    case Token::signed_int:
      return signed_;
    case Token::real:
      if (!std::isfinite(real_)) {
        throw json::out_of_range::create(406, "number overflow parsing '" + last_read() + "'", nullptr);
      }
      return real_;
    default:
      return nullptr;
  }
}

/// Puts a value where the text puts it: the root, the end of the innermost array, or the innermost object's key (a
/// key seen twice keeps its last value). Returns where it now lives.
json* Reader::place(json value, std::vector<json*>& open, json& root) {
  if (open.empty()) {
    root = std::move(value);
    return &root;
  }
  json& in = *open.back();
  if (in.is_array()) {
    in.push_back(std::move(value));
    return &in.back();
  }
  json& slot = in[key_];
  slot = std::move(value);
  return &slot;
}

/// After a value: closes the containers the text closes; true when a comma starts another value (token_ is its
/// first token), false when the outermost value is complete.
bool Reader::close_or_continue(std::vector<json*>& open) {
  while (!open.empty()) {
    const bool array = open.back()->is_array();
    token_ = scan();
    if (token_ == Token::comma) {
      token_ = scan();
      if (!array) expect_key();
      return true;
    }
    if (token_ != (array ? Token::close_array : Token::close_object)) {
      fail(array ? Token::close_array : Token::close_object, array ? "array" : "object");
    }
    open.pop_back();
  }
  return false;
}

/// The text's one value; nothing but white space (or a NUL byte and anything after it) may follow it.
json Reader::read() {
  json root;
  std::vector<json*> open;  // the arrays and objects being filled, innermost last (no recursion: any depth)
  token_ = scan();
  do {
    const bool array = token_ == Token::open_array;
    if (array || token_ == Token::open_object) {
      json* container = place(array ? json::array() : json::object(), open, root);
      token_ = scan();
      if (token_ != (array ? Token::close_array : Token::close_object)) {
        open.push_back(container);
        if (!array) expect_key();
        continue;
      }
    } else if (token_ == Token::error) {
      fail(Token::none, "value");
    } else if (token_ == Token::t || token_ == Token::f || token_ == Token::null || token_ == Token::string ||
               token_ == Token::unsigned_int || token_ == Token::signed_int || token_ == Token::real) {
      place(scalar(), open, root);
    } else {
      fail(Token::any_value, "value");
    }
    if (!close_or_continue(open)) break;
  } while (true);
  token_ = scan();
  if (token_ != Token::end) fail(Token::end, "value");
  return root;
}

}  // namespace

json parse_json(std::string_view text) { return Reader(text).read(); }

}  // namespace parascope::detail
