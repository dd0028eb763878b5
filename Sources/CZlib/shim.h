#ifndef TONEARM_CZLIB_SHIM_H
#define TONEARM_CZLIB_SHIM_H
#include <zlib.h>

// inflateInit2 is a macro in zlib.h, which Swift cannot call: wrap it.
static inline int tonearm_inflate_init(z_stream *stream, int window_bits) {
    return inflateInit2(stream, window_bits);
}

// deflateInit2 likewise: gzip output is window bits 15 + 16.
static inline int tonearm_deflate_init(z_stream *stream, int level, int window_bits) {
    return deflateInit2(stream, level, Z_DEFLATED, window_bits, 8, Z_DEFAULT_STRATEGY);
}
#endif
