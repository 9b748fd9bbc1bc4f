// The wasm's snprintf: whole numbers and text only (%d %u %x %X %c %s %%, with the 0 flag, a width and a precision),
// written here; native builds keep their libc's. Its callers in the wasm are nlohmann's two escapes ("\\u%04x" in
// dump, "<U+%.4X>" in a parse error's token); the engine's own numbers are written by number_text.cpp. musl's
// snprintf would keep its whole printf machinery in every module (printf_core and its helpers: ~4.5 KB, ~2 KB gzip;
// with floating point, fmt_fp and its long-double arithmetic, ~4 KB more) for formats nobody asks for. Any other
// conversion is written as it stands in the format (tests/fixtures/api/json-parse.txt holds both escapes: the wasm's
// answers are compared with the native ones, byte for byte, by tests/js).
#ifdef __EMSCRIPTEN__
#include <cstdarg>
#include <cstddef>

namespace {

/// Writes into out[0 .. size − 1] and counts what the whole text needs (snprintf's return value).
struct Sink {
  char* out;
  std::size_t size;
  std::size_t n = 0;
  void put(char c) {
    if (n + 1 < size) out[n] = c;
    ++n;
  }
};

/// `value` in `base`, at least `digits` digits (zeros in front), right-aligned in `width` with `pad`.
void put_whole(Sink& sink, bool negative, unsigned long long value, unsigned base, bool upper, int digits, int width,
               char pad) {
  char buffer[24];
  int length = 0;
  do {
    const unsigned d = unsigned(value % base);
    buffer[length++] = char(d < 10 ? '0' + d : (upper ? 'A' : 'a') + d - 10);
    value /= base;
  } while (value != 0);
  while (length < digits && length < int(sizeof buffer)) buffer[length++] = '0';
  for (int i = length + (negative ? 1 : 0); i < width; ++i) sink.put(pad);
  if (negative) sink.put('-');
  while (length > 0) sink.put(buffer[--length]);
}

}  // namespace

extern "C" int snprintf(char* out, std::size_t size, const char* format, ...) {
  va_list args;
  va_start(args, format);
  Sink sink{out, size};
  for (const char* f = format; *f != '\0'; ++f) {
    if (*f != '%') {
      sink.put(*f);
      continue;
    }
    const char* start = f++;
    const bool zero = *f == '0';
    if (zero) ++f;
    int width = 0;
    while (*f >= '0' && *f <= '9') width = width * 10 + (*f++ - '0');
    int precision = -1;
    if (*f == '.') {
      precision = 0;
      for (++f; *f >= '0' && *f <= '9'; ++f) precision = precision * 10 + (*f - '0');
    }
    // printf's rules: a precision sets the least digits and turns the 0 flag off; without one, 0 pads the width.
    const char pad = zero && precision < 0 ? '0' : ' ';
    const int digits = precision < 0 ? 1 : precision;
    switch (*f) {
      case 'd': {
        const long long v = va_arg(args, int);
        put_whole(sink, v < 0, v < 0 ? 0ULL - (unsigned long long)v : (unsigned long long)v, 10, false, digits, width,
                  pad);
        break;
      }
      case 'u':
        put_whole(sink, false, va_arg(args, unsigned), 10, false, digits, width, pad);
        break;
      case 'x':
        put_whole(sink, false, va_arg(args, unsigned), 16, false, digits, width, pad);
        break;
      case 'X':
        put_whole(sink, false, va_arg(args, unsigned), 16, true, digits, width, pad);
        break;
      case 'c':
        sink.put(char(va_arg(args, int)));
        break;
      case 's':
        for (const char* s = va_arg(args, const char*); *s != '\0'; ++s) sink.put(*s);
        break;
      case '%':
        sink.put('%');
        break;
      default:  // not one of ours: the conversion as written
        for (const char* c = start; c <= f && *c != '\0'; ++c) sink.put(*c);
        if (*f == '\0') --f;
        break;
    }
  }
  if (size > 0) out[sink.n < size ? sink.n : size - 1] = '\0';
  va_end(args);
  return int(sink.n);
}
#endif
