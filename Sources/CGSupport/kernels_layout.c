#include "kernels.h"
#include "cgsupport.h"

// A bitmap context's 32-bit pixels in the user's layout, to and from cairo's native words
// (`PixelLayout.convertToNative` / `convertFromNative` in CoreGraphics/CGBitmapInfo.swift, whose
// loops these reproduce byte for byte): each pixel's four bytes moved by one byte shuffle, and,
// into native words, each colour byte clamped to the alpha byte (premultiplied data whose colour
// exceeds its alpha is not trusted) or the alpha byte set to 255 (no alpha). A context converts
// its whole buffer around every drawing call, so these run over every pixel of it each time.

// The user's byte offsets of red, green, blue and alpha (0 … 3, a permutation); native words are
// little-endian bytes b, g, r, a.
static inline void layout_from_native_at(long x, uint8_t *dst, const uint32_t *src, long n, const int o[4], int opaque) {
    for (; x < n; x++) {
        const uint32_t v = src[x];
        uint8_t *p = dst + 4 * x;
        p[o[0]] = (uint8_t)(v >> 16); p[o[1]] = (uint8_t)(v >> 8); p[o[2]] = (uint8_t)v;
        p[o[3]] = opaque ? 255 : (uint8_t)(v >> 24);
    }
}

static inline void layout_to_native_at(long x, uint32_t *dst, const uint8_t *src, long n, const int o[4], int opaque) {
    for (; x < n; x++) {
        const uint8_t *p = src + 4 * x;
        const uint32_t a = opaque ? 255 : p[o[3]];
        uint32_t r = p[o[0]], g = p[o[1]], b = p[o[2]];
        if (!opaque) { r = r < a ? r : a; g = g < a ? g : a; b = b < a ? b : a; }
        dst[x] = a << 24 | r << 16 | g << 8 | b;
    }
}

#if defined(__x86_64__)
#include <immintrin.h>

// Eight pixels a step: one in-lane byte shuffle (each 16-byte half holds four whole pixels).
__attribute__((target("avx2")))
static void layout_from_native_avx2(uint8_t *dst, const uint32_t *src, long n, const int o[4], int opaque) {
    // Byte k of a user pixel comes from native byte m[k]: native b g r a at 0 1 2 3.
    char m[4];
    m[o[0]] = 2; m[o[1]] = 1; m[o[2]] = 0; m[o[3]] = 3;
    char mask[32], fill[32];
    for (int i = 0; i < 32; i++) { mask[i] = (char)(m[i & 3] + (i & 12)); fill[i] = opaque && (i & 3) == o[3] ? (char)0xFF : 0; }
    const __m256i shuffle = _mm256_loadu_si256((const __m256i *)mask), set = _mm256_loadu_si256((const __m256i *)fill);
    long x = 0;
    for (; x + 8 <= n; x += 8) {
        __m256i v = _mm256_shuffle_epi8(_mm256_loadu_si256((const __m256i *)(src + x)), shuffle);
        _mm256_storeu_si256((__m256i *)(dst + 4 * x), _mm256_or_si256(v, set));
    }
    layout_from_native_at(x, dst, src, n, o, opaque);
}

// Eight pixels a step: the shuffle into native order, then each byte held to its pixel's alpha
// (the alpha byte broadcast over the pixel by a second shuffle; min(a, a) leaves alpha as it is).
__attribute__((target("avx2")))
static void layout_to_native_avx2(uint32_t *dst, const uint8_t *src, long n, const int o[4], int opaque) {
    char mask[32], alpha[32];
    const int from[4] = {o[2], o[1], o[0], o[3]};   // native b g r a from the user's offsets
    for (int i = 0; i < 32; i++) { mask[i] = (char)(from[i & 3] + (i & 12)); alpha[i] = (char)(o[3] + (i & 12)); }
    const __m256i shuffle = _mm256_loadu_si256((const __m256i *)mask), spread = _mm256_loadu_si256((const __m256i *)alpha);
    const __m256i top = _mm256_set1_epi32((int32_t)0xFF000000);
    long x = 0;
    for (; x + 8 <= n; x += 8) {
        const __m256i p = _mm256_loadu_si256((const __m256i *)(src + 4 * x));
        __m256i v = _mm256_shuffle_epi8(p, shuffle);
        v = opaque ? _mm256_or_si256(v, top) : _mm256_min_epu8(v, _mm256_shuffle_epi8(p, spread));
        _mm256_storeu_si256((__m256i *)(dst + x), v);
    }
    layout_to_native_at(x, dst, src, n, o, opaque);
}
#endif

void cgs_layout_from_native_using(int variant, uint8_t *dst, const uint32_t *src, long n, const int order[4], int opaque) {
#if defined(__x86_64__)
    if (variant >= 2 && cgs_avx2) { layout_from_native_avx2(dst, src, n, order, opaque); return; }
#endif
    layout_from_native_at(0, dst, src, n, order, opaque);
}

void cgs_layout_to_native_using(int variant, uint32_t *dst, const uint8_t *src, long n, const int order[4], int opaque) {
#if defined(__x86_64__)
    if (variant >= 2 && cgs_avx2) { layout_to_native_avx2(dst, src, n, order, opaque); return; }
#endif
    layout_to_native_at(0, dst, src, n, order, opaque);
}

void cgs_layout_from_native(uint8_t *dst, const uint32_t *src, long n, const int order[4], int opaque) {
    cgs_layout_from_native_using(2, dst, src, n, order, opaque);
}

void cgs_layout_to_native(uint32_t *dst, const uint8_t *src, long n, const int order[4], int opaque) {
    cgs_layout_to_native_using(2, dst, src, n, order, opaque);
}
