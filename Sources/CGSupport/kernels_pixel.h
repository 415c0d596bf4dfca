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

/// `blend`'s colour term (b, g, r, a) of a premultiplied colour at coverage 1, and its
/// destination factor 1 − a·1/255 into *inv.
static inline f4 full_term(float r, float g, float b, float a, float *inv) {
    f4 s = {b, g, r, a};
    *inv = 1.0f - a * 1.0f / 255.0f;
    return s * 1.0f;
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


/// Defines `name(p, q, w)`: `lerp_word` for the pixels of W-bit vectors (W 256 or 512, compiled
/// for `features`), each byte channel in its own 16-bit lane: p·(256 − w) + q·w + 128 is below
/// 2¹⁶, so the halves of `lerp_word`'s 32-bit sums never carry into each other (the same bits).
/// `w` holds each pixel's weight (0…256) in its 32-bit lane. For files that include immintrin.h.
#define CGS_DEFINE_LERP_LANES(name, W, features) \
    __attribute__((target(features))) \
    static inline __m##W##i name(__m##W##i p, __m##W##i q, __m##W##i w) { \
        const __m##W##i mask = _mm##W##_set1_epi32(0x00FF00FF), half = _mm##W##_set1_epi32(0x00800080); \
        __m##W##i w2 = _mm##W##_or_si##W(w, _mm##W##_slli_epi32(w, 16)); \
        __m##W##i v2 = _mm##W##_sub_epi16(_mm##W##_set1_epi16(256), w2); \
        __m##W##i rb = _mm##W##_add_epi16(_mm##W##_add_epi16(_mm##W##_mullo_epi16(_mm##W##_and_si##W(p, mask), v2), \
                                                             _mm##W##_mullo_epi16(_mm##W##_and_si##W(q, mask), w2)), half); \
        __m##W##i ag = _mm##W##_add_epi16( \
            _mm##W##_add_epi16(_mm##W##_mullo_epi16(_mm##W##_and_si##W(_mm##W##_srli_epi32(p, 8), mask), v2), \
                               _mm##W##_mullo_epi16(_mm##W##_and_si##W(_mm##W##_srli_epi32(q, 8), mask), w2)), half); \
        return _mm##W##_or_si##W(_mm##W##_srli_epi16(rb, 8), _mm##W##_and_si##W(ag, _mm##W##_set1_epi32((int)0xFF00FF00u))); \
    }

#endif
