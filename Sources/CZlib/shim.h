#ifndef CLOUDMUSIC_CZLIB_SHIM_H
#define CLOUDMUSIC_CZLIB_SHIM_H
#include <zlib.h>

/// deflateInit2 is a macro (it passes the library version and the stream's size): a function Swift can call.
/// windowBits 15 + 16 writes a gzip wrapper (RFC 1952) instead of a zlib one.
static inline int cz_deflate_init_gzip(z_streamp stream, int level) {
    return deflateInit2(stream, level, Z_DEFLATED, 15 + 16, 9, Z_DEFAULT_STRATEGY);
}
#endif
