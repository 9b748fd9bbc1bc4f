// The wasm's snprintf formats integers only (musl's vsniprintf); native builds keep their libc's.
// Its callers in the wasm are nlohmann's two escapes ("\\u%04x" in dump, "<U+%.4X>" in a parse error's token): the
// engine's own numbers are written by number_text.cpp. libc's snprintf would keep musl's floating-point formatting
// (fmt_fp and its long-double arithmetic, ~4 KB) in every module for formats nobody asks for.
#ifdef __EMSCRIPTEN__
#include <cstdarg>
#include <cstddef>

extern "C" int vsniprintf(char* out, std::size_t size, const char* format, va_list args);  // Emscripten's musl

extern "C" int snprintf(char* out, std::size_t size, const char* format, ...) {
  va_list args;
  va_start(args, format);
  const int written = vsniprintf(out, size, format, args);
  va_end(args);
  return written;
}
#endif
