#ifndef CGSUPPORT_H
#define CGSUPPORT_H
// Dumb C helpers for the CoreGraphics and LayerRender modules. Policy (size limits, formats,
// what to prefetch) lives in Swift.
#include <stddef.h>
#include <stdint.h>

/// Reads a JPEG's dimensions without decoding pixels. Returns 0 on success, -1 on a corrupt stream.
int cgs_jpeg_info(const uint8_t *data, size_t length, int *width, int *height);

/// Decodes a JPEG into `out` as 8-bit BGRA with alpha 255 (little-endian 0xFFRRGGBB words), rows of `stride` bytes.
/// `out` must hold height × stride bytes for the dimensions cgs_jpeg_info returned.
/// Returns 0 on success, -1 on a corrupt or truncated stream (libjpeg's errors are caught with setjmp).
int cgs_jpeg_decode(const uint8_t *data, size_t length, uint8_t *out, size_t stride, int width, int height);

/// Asks for the cache line holding `p`, to be written (a hint: never faults, changes no result).
static inline void cgs_prefetch(const void *p) { __builtin_prefetch(p, 1, 3); }

/// Four 32-bit lanes, as Swift's SIMD4<UInt32>.
typedef uint32_t cgs_u32x4 __attribute__((ext_vector_type(4)));

/// Stores `v` at `p` (any 4-byte alignment): one unaligned 16-byte store. Swift's generic
/// `storeBytes(of:as:)` for SIMD types is sometimes left as a call by the optimiser.
static inline void cgs_store_u32x4(uint32_t *p, cgs_u32x4 v) { __builtin_memcpy(p, &v, 16); }

#endif
