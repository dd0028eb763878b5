#ifndef TONEARM_CXXHASH_SHIM_H
#define TONEARM_CXXHASH_SHIM_H

// Tonearm hashes short canonical requests (50-500 bytes) on every match, where a call into the shared
// library costs a visible share of the time. XXH_INLINE_ALL compiles xxHash's implementation into the
// caller instead; docs/benchmarks-history.md ("XXH3: inlined against the shared library") records the
// measurement that chose it. The library is still linked (module.modulemap) so the pkg-config
// dependency stays honest and XXH_INLINE_ALL can be switched off.
#define XXH_INLINE_ALL
#include <xxhash.h>

#include <stddef.h>
#include <stdint.h>

/// XXH3-64 of `length` bytes at `data`, seed 0: the request key.
static inline uint64_t tonearm_xxh3_64(const void *data, size_t length) {
    return XXH3_64bits(data, length);
}

/// XXH3-64 with an explicit seed: the independent check hash that confirms a key hit.
static inline uint64_t tonearm_xxh3_64_seeded(const void *data, size_t length, uint64_t seed) {
    return XXH3_64bits_withSeed(data, length, seed);
}

#endif
