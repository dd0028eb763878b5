#ifndef TONEARM_BENCH_XXHASH_LIBRARY_H
#define TONEARM_BENCH_XXHASH_LIBRARY_H

// The alternative the core rejected: no XXH_INLINE_ALL, so every hash is a call into libxxhash.so
// through the PLT, as any pkg-config user of the library gets by default.
#include <xxhash.h>

#include <stddef.h>
#include <stdint.h>

/// XXH3-64, seed 0, called in the shared library.
static inline uint64_t bench_xxh3_library(const void *data, size_t length) {
    return XXH3_64bits(data, length);
}

#endif
