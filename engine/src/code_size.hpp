/// Size over speed, function by function, in the wasm: for request reading and answer writing that share a file with
/// a hot loop (the top CMakeLists.txt compiles whole files of such code at -Oz, PARASCOPE_SIZE_SOURCES).
#pragma once

#if defined(__EMSCRIPTEN__)
/// Optimised for size, as -Oz would (the wasm only; natively nothing changes).
#define PARASCOPE_SMALL __attribute__((minsize))
#else
#define PARASCOPE_SMALL
#endif

/// Never inlined: a hot loop called by a PARASCOPE_SMALL function, which inlined would be optimised for size too.
#define PARASCOPE_NOT_INLINED __attribute__((noinline))
