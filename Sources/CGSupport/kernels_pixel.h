#ifndef CGS_KERNELS_PIXEL_H
#define CGS_KERNELS_PIXEL_H
// One pixel's arithmetic, shared by the kernels (not part of the module's interface): a word's
// channels as floats, `Raster.blend`'s source-over, `Raster.lerpWord`'s 8.8 lerp. Each is the
// Swift definition's operations in its order, with contraction off (no fused multiply-adds)
// from here to the end of the including file, so the bits are the Swift ones.
#include <stdint.h>
#pragma STDC FP_CONTRACT OFF

typedef float f4 __attribute__((ext_vector_type(4)));
typedef int32_t i4 __attribute__((ext_vector_type(4)));
typedef uint32_t u4 __attribute__((ext_vector_type(4)));

/// A pixel word's channels b, g, r, a as floats.
static inline f4 channels(uint32_t p) {
    const u4 shifts = {0, 8, 16, 24};
    return __builtin_convertvector((i4)(((u4)p >> shifts) & 255u), f4);
}

/// `blend`'s result over d for colour term `s` (the colour times its coverage, b, g, r, a) and
/// destination factor `inv`.
static inline uint32_t over(uint32_t d, f4 s, float inv) {
    f4 o = s + channels(d) * inv + 0.5f;
    o = o < 255.0f ? o : 255.0f;
    u4 c = (u4)__builtin_convertvector(o, i4);
    return c.x | c.y << 8 | c.z << 16 | c.w << 24;
}

/// `Raster.lerpWord`: p·(256 − w) + q·w per byte channel in 8.8 fixed point, rounded (w in 0…256).
static inline uint32_t lerp_word(uint32_t p, uint32_t q, uint32_t w) {
    uint32_t v = 256 - w;
    uint32_t rb = (((p & 0x00FF00FFu) * v + (q & 0x00FF00FFu) * w + 0x00800080u) >> 8) & 0x00FF00FFu;
    uint32_t ag = (((p >> 8) & 0x00FF00FFu) * v + ((q >> 8) & 0x00FF00FFu) * w + 0x00800080u) & 0xFF00FF00u;
    return rb | ag;
}

#endif
