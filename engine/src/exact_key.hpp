// Keys of the engine's memo tables, by the exact bits of what a cached answer read: a double's bits and a word hash.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>

namespace parascope::detail {

/// The bits of `x`: equal keys mean the very same double, so a memo's hit returns what a fresh computation would.
inline std::uint64_t double_bits(double x) {
  std::uint64_t out;
  std::memcpy(&out, &x, sizeof out);
  return out;
}

/// A 64-bit hash of `n` key words (multiply-xorshift per word; callers fold it to their table's size).
inline std::uint64_t hash_words(const std::uint64_t* words, std::size_t n) {
  std::uint64_t h = 0x9e3779b97f4a7c15ull;
  for (std::size_t i = 0; i < n; ++i) {
    h = (h ^ words[i]) * 0xff51afd7ed558ccdull;
    h ^= h >> 32;
  }
  return h;
}

}  // namespace parascope::detail
