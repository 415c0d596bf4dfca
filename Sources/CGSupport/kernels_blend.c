#include "kernels.h"
#include "cgsupport.h"

// One premultiplied colour blended over a run of pixels at full coverage (Raster.fill's
// translucent interiors): `Raster.blend` at cov = 1, whose colour term s·1 is s and whose
// factor is 1 − a·1/255, so each channel is ⌊min((s + d·inv) + 0.5, 255)⌋ in Float — the same
// operations in the same order (no fused multiply-adds), eight pixels a step with AVX2.
#pragma STDC FP_CONTRACT OFF

typedef float f4 __attribute__((ext_vector_type(4)));
typedef int32_t i4 __attribute__((ext_vector_type(4)));
typedef uint32_t u4 __attribute__((ext_vector_type(4)));

static void blend_from(long i, uint32_t *p, long n, f4 s, float inv) {
    const u4 shifts = {0, 8, 16, 24};
    for (; i < n; i++) {
        f4 d = __builtin_convertvector((i4)(((u4)p[i] >> shifts) & 255u), f4);
        f4 o = s + d * inv + 0.5f;
        o = o < 255.0f ? o : 255.0f;
        u4 c = (u4)__builtin_convertvector(o, i4);
        p[i] = c.x | c.y << 8 | c.z << 16 | c.w << 24;
    }
}

#if defined(__x86_64__)
#include <immintrin.h>

__attribute__((target("avx2")))
static inline __m256i blend_pair(__m256i q, __m256 s, __m256 inv, __m256 half, __m256 top) {
    __m256 o = _mm256_add_ps(_mm256_add_ps(s, _mm256_mul_ps(_mm256_cvtepi32_ps(q), inv)), half);
    return _mm256_cvttps_epi32(_mm256_min_ps(o, top));
}

__attribute__((target("avx2")))
static void blend_span_avx2(uint32_t *p, long n, f4 s4, float inv) {
    const __m256 s = _mm256_setr_ps(s4.x, s4.y, s4.z, s4.w, s4.x, s4.y, s4.z, s4.w);
    const __m256 v = _mm256_set1_ps(inv), half = _mm256_set1_ps(0.5f), top = _mm256_set1_ps(255.0f);
    const __m256i zero = _mm256_setzero_si256();
    long i = 0;
    for (; i + 8 <= n; i += 8) {
        // Per 128-bit lane: four pixels, spread to one pixel's four channels per 32-bit group
        // and packed back in the same order.
        __m256i d = _mm256_loadu_si256((const __m256i *)(p + i));
        __m256i lo = _mm256_unpacklo_epi8(d, zero), hi = _mm256_unpackhi_epi8(d, zero);
        __m256i q0 = blend_pair(_mm256_unpacklo_epi16(lo, zero), s, v, half, top);
        __m256i q1 = blend_pair(_mm256_unpackhi_epi16(lo, zero), s, v, half, top);
        __m256i q2 = blend_pair(_mm256_unpacklo_epi16(hi, zero), s, v, half, top);
        __m256i q3 = blend_pair(_mm256_unpackhi_epi16(hi, zero), s, v, half, top);
        __m256i w = _mm256_packus_epi16(_mm256_packs_epi32(q0, q1), _mm256_packs_epi32(q2, q3));
        _mm256_storeu_si256((__m256i *)(p + i), w);
    }
    blend_from(i, p, n, s4, inv);
}
#endif

void cgs_blend_span_using(int variant, uint32_t *p, long n, float r, float g, float b, float a) {
    f4 s = {b, g, r, a};
    s = s * 1.0f;
    float inv = 1.0f - a * 1.0f / 255.0f;
#if defined(__x86_64__)
    if (variant == 2 && cgs_avx2) { blend_span_avx2(p, n, s, inv); return; }
#endif
    blend_from(0, p, n, s, inv);
}

void cgs_blend_span(uint32_t *p, long n, float r, float g, float b, float a) { cgs_blend_span_using(2, p, n, r, g, b, a); }
