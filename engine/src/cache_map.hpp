/// The engine's lookup tables (caches by shape, states seen): hashed where they are built for speed, trees where for
/// bytes (the size-built engine of the widgets' wasm modules, CMakeLists.txt: PARASCOPE_SIZE_BUILD), which then carry
/// none of libc++'s hash table code (its rehashing, __next_prime) beside the trees they hold anyway. Only what a lookup
/// costs differs: the same keys find the same values, so every answer is the same.
#pragma once

#include <map>
#include <unordered_map>

namespace parascope::detail {

#ifdef PARASCOPE_SIZE_BUILD
template <class Key, class Value, class Hash>
using CacheMap = std::map<Key, Value>;
template <class Key, class Value>
using CacheMultimap = std::multimap<Key, Value>;
#else
template <class Key, class Value, class Hash>
using CacheMap = std::unordered_map<Key, Value, Hash>;
template <class Key, class Value>
using CacheMultimap = std::unordered_multimap<Key, Value>;
#endif

}  // namespace parascope::detail
