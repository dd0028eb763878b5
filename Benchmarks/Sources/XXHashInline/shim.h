#ifndef TONEARM_BENCH_XXHASH_INLINE_H
#define TONEARM_BENCH_XXHASH_INLINE_H

// The configuration the core ships (Sources/CXXHash/shim.h): xxHash's implementation compiled into the
// caller. Kept as a copy because the root package's CXXHash is not a product other packages can import.
#define XXH_INLINE_ALL
#include <xxhash.h>

#include <stddef.h>
#include <stdint.h>

/// XXH3-64, seed 0, inlined into the caller.
static inline uint64_t bench_xxh3_inline(const void *data, size_t length) {
    return XXH3_64bits(data, length);
}

#endif
