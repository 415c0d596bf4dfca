#include "kernels.h"
#include "cgsupport.h"
#include "kernels_pixel.h"

// Source-over blends that reproduce `Raster.blend` (d = s·cov + d·(1 − sₐ·cov/255), rounded
// to bytes in Float): a colour over a run at full coverage (translucent interiors), a shadow's
// colour through its coverage bytes, and groups composited at an alpha. Each keeps `blend`'s
// operations in their order — the colour term, plus the destination times its factor, plus
// one half, at most 255, truncated — with no fused multiply-adds.
#pragma STDC FP_CONTRACT OFF

// One colour at full coverage: its term s·1 is s and its factor 1 − a·1/255.
static void blend_from(long i, uint32_t *p, long n, f4 s, float inv) {
    for (; i < n; i++) p[i] = over(p[i], s, inv);
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

// Source-over of premultiplied pixels times alpha (Raster.compositeRun): `blend(d, s, alpha)`
// per pixel, whose factor 1 − sₐ·alpha/255 differs per pixel. Transparent sources leave d as it
// is and opaque ones at alpha 1 give s exactly, so computing every pixel is the same as the Swift
// loop's shortcuts; the vector loop still skips all-transparent and copies all-opaque groups.
static void composite_from(long i, uint32_t *d, const uint32_t *s, long n, float alpha) {
    for (; i < n; i++) {
        uint32_t p = s[i];
        if (p == 0) continue;
        if (alpha == 1.0f && p >> 24 == 255) { d[i] = p; continue; }
        f4 c = channels(p);
        d[i] = over(d[i], c * alpha, 1.0f - c.w * alpha / 255.0f);
    }
}

#if defined(__x86_64__)
__attribute__((target("avx2")))
static inline __m256i composite_pair(__m256i sq, __m256i dq, __m256 alpha, __m256 half, __m256 top) {
    __m256 c = _mm256_cvtepi32_ps(sq);
    // Each pixel's alpha channel in its four lanes.
    __m256 a = _mm256_permute_ps(c, 0xFF);
    __m256 inv = _mm256_sub_ps(_mm256_set1_ps(1.0f), _mm256_div_ps(_mm256_mul_ps(a, alpha), _mm256_set1_ps(255.0f)));
    __m256 o = _mm256_add_ps(_mm256_add_ps(_mm256_mul_ps(c, alpha), _mm256_mul_ps(_mm256_cvtepi32_ps(dq), inv)), half);
    return _mm256_cvttps_epi32(_mm256_min_ps(o, top));
}

__attribute__((target("avx2")))
static void composite_span_avx2(uint32_t *d, const uint32_t *s, long n, float alpha) {
    const __m256 al = _mm256_set1_ps(alpha), half = _mm256_set1_ps(0.5f), top = _mm256_set1_ps(255.0f);
    const __m256i zero = _mm256_setzero_si256(), opaque = _mm256_set1_epi32((int)0xFF000000u);
    long i = 0;
    for (; i + 8 <= n; i += 8) {
        __m256i sv = _mm256_loadu_si256((const __m256i *)(s + i));
        if (_mm256_testz_si256(sv, sv)) continue;
        if (alpha == 1.0f && _mm256_movemask_epi8(_mm256_cmpeq_epi32(_mm256_and_si256(sv, opaque), opaque)) == -1) {
            _mm256_storeu_si256((__m256i *)(d + i), sv);
            continue;
        }
        __m256i dv = _mm256_loadu_si256((const __m256i *)(d + i));
        __m256i slo = _mm256_unpacklo_epi8(sv, zero), shi = _mm256_unpackhi_epi8(sv, zero);
        __m256i dlo = _mm256_unpacklo_epi8(dv, zero), dhi = _mm256_unpackhi_epi8(dv, zero);
        __m256i q0 = composite_pair(_mm256_unpacklo_epi16(slo, zero), _mm256_unpacklo_epi16(dlo, zero), al, half, top);
        __m256i q1 = composite_pair(_mm256_unpackhi_epi16(slo, zero), _mm256_unpackhi_epi16(dlo, zero), al, half, top);
        __m256i q2 = composite_pair(_mm256_unpacklo_epi16(shi, zero), _mm256_unpacklo_epi16(dhi, zero), al, half, top);
        __m256i q3 = composite_pair(_mm256_unpackhi_epi16(shi, zero), _mm256_unpackhi_epi16(dhi, zero), al, half, top);
        _mm256_storeu_si256((__m256i *)(d + i), _mm256_packus_epi16(_mm256_packs_epi32(q0, q1), _mm256_packs_epi32(q2, q3)));
    }
    composite_from(i, d, s, n, alpha);
}
#endif

void cgs_composite_span_using(int variant, uint32_t *d, const uint32_t *s, long n, float alpha) {
#if defined(__x86_64__)
    if (variant >= 2 && cgs_avx2) { composite_span_avx2(d, s, n, alpha); return; }
#endif
    composite_from(0, d, s, n, alpha);
}

void cgs_composite_span(uint32_t *d, const uint32_t *s, long n, float alpha) { cgs_composite_span_using(2, d, s, n, alpha); }

#if defined(__x86_64__)
// Four pixels a step, one channel per float of a 512-bit register: the bytes widened and the
// results narrowed by one instruction each, where AVX2 unpacks and packs in four steps; the same
// operations as `blend_pair` in its order.
__attribute__((target("avx512f")))
static void blend_span_avx512(uint32_t *p, long n, f4 s4, float inv) {
    const __m512 s = _mm512_setr_ps(s4.x, s4.y, s4.z, s4.w, s4.x, s4.y, s4.z, s4.w, s4.x, s4.y, s4.z, s4.w, s4.x, s4.y, s4.z, s4.w);
    const __m512 v = _mm512_set1_ps(inv), half = _mm512_set1_ps(0.5f), top = _mm512_set1_ps(255.0f);
    long i = 0;
    for (; i + 4 <= n; i += 4) {
        __m512 d = _mm512_cvtepi32_ps(_mm512_cvtepu8_epi32(_mm_loadu_si128((const __m128i *)(p + i))));
        __m512 o = _mm512_add_ps(_mm512_add_ps(s, _mm512_mul_ps(d, v)), half);
        _mm_storeu_si128((__m128i *)(p + i), _mm512_cvtepi32_epi8(_mm512_cvttps_epi32(_mm512_min_ps(o, top))));
    }
    blend_from(i, p, n, s4, inv);
}
#endif

void cgs_blend_span_using(int variant, uint32_t *p, long n, float r, float g, float b, float a) {
    float inv;
    const f4 s = full_term(r, g, b, a, &inv);
#if defined(__x86_64__)
    if (variant >= 3 && cgs_avx512) { blend_span_avx512(p, n, s, inv); return; }
    if (variant >= 2 && cgs_avx2) { blend_span_avx2(p, n, s, inv); return; }
#endif
    blend_from(0, p, n, s, inv);
}

void cgs_blend_span(uint32_t *p, long n, float r, float g, float b, float a) { cgs_blend_span_using(3, p, n, r, g, b, a); }

// One colour through per-pixel coverage (the edge pixels of a shape's row): each pixel's
// colour term s·cov and factor 1 − a·cov/255 worked out as `blend` does, zero coverage skipped.
static void blend_coverage_from(long i, uint32_t *p, const float *cov, long n, f4 s, float a) {
    for (; i < n; i++) {
        const float c = cov[i];
        if (!(c > 0.0f)) continue;
        p[i] = over(p[i], s * c, 1.0f - a * c / 255.0f);
    }
}

#if defined(__SSE2__)
// Four pixels a step, one pixel's channels per vector. A coverage that is not above 0 is taken
// as 0, which leaves the pixel as it was: its term is 0 and its factor exactly 1, so each
// channel is ⌊d + 0.5⌋ = d.
static void blend_coverage_sse2(uint32_t *p, const float *cov, long n, f4 s4, float a) {
    const __m128 s = _mm_setr_ps(s4.x, s4.y, s4.z, s4.w), av = _mm_set1_ps(a);
    const __m128 one = _mm_set1_ps(1.0f), k255 = _mm_set1_ps(255.0f), half = _mm_set1_ps(0.5f);
    const __m128i zero = _mm_setzero_si128();
    long i = 0;
    for (; i + 4 <= n; i += 4) {
        __m128 c = _mm_loadu_ps(cov + i);
        c = _mm_and_ps(c, _mm_cmpgt_ps(c, _mm_setzero_ps()));
        if (_mm_movemask_ps(_mm_cmpgt_ps(c, _mm_setzero_ps())) == 0) continue;
        const __m128 inv = _mm_sub_ps(one, _mm_div_ps(_mm_mul_ps(av, c), k255));
        __m128i d = _mm_loadu_si128((const __m128i *)(p + i));
        __m128i lo = _mm_unpacklo_epi8(d, zero), hi = _mm_unpackhi_epi8(d, zero);
        __m128 d0 = _mm_cvtepi32_ps(_mm_unpacklo_epi16(lo, zero)), d1 = _mm_cvtepi32_ps(_mm_unpackhi_epi16(lo, zero));
        __m128 d2 = _mm_cvtepi32_ps(_mm_unpacklo_epi16(hi, zero)), d3 = _mm_cvtepi32_ps(_mm_unpackhi_epi16(hi, zero));
#define CGS_LANE(dk, k) _mm_cvttps_epi32(_mm_min_ps(_mm_add_ps(_mm_add_ps(_mm_mul_ps(s, _mm_shuffle_ps(c, c, (k) * 0x55)), \
                            _mm_mul_ps(dk, _mm_shuffle_ps(inv, inv, (k) * 0x55))), half), k255))
        __m128i q0 = CGS_LANE(d0, 0), q1 = CGS_LANE(d1, 1), q2 = CGS_LANE(d2, 2), q3 = CGS_LANE(d3, 3);
#undef CGS_LANE
        _mm_storeu_si128((__m128i *)(p + i), _mm_packus_epi16(_mm_packs_epi32(q0, q1), _mm_packs_epi32(q2, q3)));
    }
    blend_coverage_from(i, p, cov, n, s4, a);
}
#endif

#if defined(__x86_64__)
// Eight pixels a step, two per 256-bit vector (one pixel's channels in each half), with the SSE2
// variant's operations in its order; packed back as `shadow_span_avx2` does.
__attribute__((target("avx2")))
static void blend_coverage_avx2(uint32_t *p, const float *cov, long n, f4 s4, float a) {
    const __m256 s = _mm256_setr_ps(s4.x, s4.y, s4.z, s4.w, s4.x, s4.y, s4.z, s4.w), av = _mm256_set1_ps(a);
    const __m256 one = _mm256_set1_ps(1.0f), k255 = _mm256_set1_ps(255.0f), half = _mm256_set1_ps(0.5f);
    const __m256 zero = _mm256_setzero_ps();
    const __m256i order = _mm256_setr_epi32(0, 4, 1, 5, 2, 6, 3, 7);
    const __m256i pick0 = _mm256_setr_epi32(0, 0, 0, 0, 1, 1, 1, 1), pick2 = _mm256_setr_epi32(2, 2, 2, 2, 3, 3, 3, 3);
    const __m256i pick4 = _mm256_setr_epi32(4, 4, 4, 4, 5, 5, 5, 5), pick6 = _mm256_setr_epi32(6, 6, 6, 6, 7, 7, 7, 7);
    long i = 0;
    for (; i + 8 <= n; i += 8) {
        __m256 c = _mm256_loadu_ps(cov + i);
        const __m256 above = _mm256_cmp_ps(c, zero, _CMP_GT_OQ);
        if (_mm256_movemask_ps(above) == 0) continue;
        c = _mm256_and_ps(c, above);
        const __m256 inv = _mm256_sub_ps(one, _mm256_div_ps(_mm256_mul_ps(av, c), k255));
#define CGS_PAIR(k, pick) _mm256_cvttps_epi32(_mm256_min_ps(_mm256_add_ps(_mm256_add_ps( \
            _mm256_mul_ps(s, _mm256_permutevar8x32_ps(c, pick)), \
            _mm256_mul_ps(_mm256_cvtepi32_ps(_mm256_cvtepu8_epi32(_mm_loadl_epi64((const __m128i *)(p + i + k)))), \
                          _mm256_permutevar8x32_ps(inv, pick))), half), k255))
        __m256i q01 = CGS_PAIR(0, pick0), q23 = CGS_PAIR(2, pick2), q45 = CGS_PAIR(4, pick4), q67 = CGS_PAIR(6, pick6);
#undef CGS_PAIR
        __m256i o = _mm256_packus_epi16(_mm256_packs_epi32(q01, q23), _mm256_packs_epi32(q45, q67));
        _mm256_storeu_si256((__m256i *)(p + i), _mm256_permutevar8x32_epi32(o, order));
    }
    blend_coverage_sse2(p + i, cov + i, n - i, s4, a);
}
#endif

void cgs_blend_coverage_using(int variant, uint32_t *p, const float *cov, long n, float r, float g, float b, float a) {
    const f4 s = {b, g, r, a};
#if defined(__x86_64__)
    if (variant >= 2 && cgs_avx2) { blend_coverage_avx2(p, cov, n, s, a); return; }
#endif
#if defined(__SSE2__)
    if (variant >= 1) { blend_coverage_sse2(p, cov, n, s, a); return; }
#endif
    blend_coverage_from(0, p, cov, n, s, a);
}

void cgs_blend_coverage(uint32_t *p, const float *cov, long n, float r, float g, float b, float a) {
    cgs_blend_coverage_using(2, p, cov, n, r, g, b, a);
}

// A shadow's colour through its blurred coverage (Raster.blendShadow): the colour term and the
// destination factor looked up by coverage byte (`Raster.shadowTables` fills them with
// `blend`'s own expressions); zero coverage leaves the pixel.
static void shadow_span_from(long i, uint32_t *dst, const uint8_t *alpha, long n, const float *src, const float *inv) {
    for (; i < n; i++) {
        uint32_t a = alpha[i];
        if (a == 0) continue;
        f4 s;
        __builtin_memcpy(&s, src + 4 * a, sizeof s);
        dst[i] = over(dst[i], s, inv[a]);
    }
}

#if defined(__SSE2__)
// Four pixels a step, one pixel's channels per vector, its term and factor looked up by its
// coverage byte; pixels of coverage 0 keep their word (selected back after the sums).
static void shadow_span_sse2(uint32_t *dst, const uint8_t *alpha, long n, const float *src, const float *inv) {
    const __m128 k255 = _mm_set1_ps(255.0f), half = _mm_set1_ps(0.5f);
    const __m128i zero = _mm_setzero_si128();
    long i = 0;
    for (; i + 4 <= n; i += 4) {
        uint32_t a0 = alpha[i], a1 = alpha[i + 1], a2 = alpha[i + 2], a3 = alpha[i + 3];
        if ((a0 | a1 | a2 | a3) == 0) continue;
        __m128i d = _mm_loadu_si128((const __m128i *)(dst + i));
        __m128i lo = _mm_unpacklo_epi8(d, zero), hi = _mm_unpackhi_epi8(d, zero);
#define CGS_LANE(half16, unpack, a) _mm_cvttps_epi32(_mm_min_ps(_mm_add_ps(_mm_add_ps(_mm_loadu_ps(src + 4 * (a)), \
                    _mm_mul_ps(_mm_cvtepi32_ps(unpack(half16, zero)), _mm_set1_ps(inv[a]))), half), k255))
        __m128i q0 = CGS_LANE(lo, _mm_unpacklo_epi16, a0), q1 = CGS_LANE(lo, _mm_unpackhi_epi16, a1);
        __m128i q2 = CGS_LANE(hi, _mm_unpacklo_epi16, a2), q3 = CGS_LANE(hi, _mm_unpackhi_epi16, a3);
#undef CGS_LANE
        __m128i o = _mm_packus_epi16(_mm_packs_epi32(q0, q1), _mm_packs_epi32(q2, q3));
        __m128i keep = _mm_cmpeq_epi32(_mm_setr_epi32((int)a0, (int)a1, (int)a2, (int)a3), zero);
        _mm_storeu_si128((__m128i *)(dst + i), _mm_or_si128(_mm_and_si128(keep, d), _mm_andnot_si128(keep, o)));
    }
    shadow_span_from(i, dst, alpha, n, src, inv);
}
#endif

#if defined(__x86_64__)
// Eight pixels a step, two per 256-bit vector (one pixel's channels in each half), with the SSE2
// variant's operations in its order; the 32-bit results are packed back in a lane-crossing
// order and put right by one permute.
__attribute__((target("avx2")))
static void shadow_span_avx2(uint32_t *dst, const uint8_t *alpha, long n, const float *src, const float *inv) {
    const __m256 k255 = _mm256_set1_ps(255.0f), half = _mm256_set1_ps(0.5f);
    const __m256i order = _mm256_setr_epi32(0, 4, 1, 5, 2, 6, 3, 7);
    long i = 0;
    for (; i + 8 <= n; i += 8) {
        uint64_t a8;
        __builtin_memcpy(&a8, alpha + i, 8);
        if (a8 == 0) continue;
        const uint8_t *a = alpha + i;
#define CGS_PAIR(k) _mm256_cvttps_epi32(_mm256_min_ps(_mm256_add_ps(_mm256_add_ps( \
            _mm256_set_m128(_mm_loadu_ps(src + 4 * a[k + 1]), _mm_loadu_ps(src + 4 * a[k])), \
            _mm256_mul_ps(_mm256_cvtepi32_ps(_mm256_cvtepu8_epi32(_mm_loadl_epi64((const __m128i *)(dst + i + k)))), \
                          _mm256_set_m128(_mm_set1_ps(inv[a[k + 1]]), _mm_set1_ps(inv[a[k]])))), half), k255))
        __m256i q01 = CGS_PAIR(0), q23 = CGS_PAIR(2), q45 = CGS_PAIR(4), q67 = CGS_PAIR(6);
#undef CGS_PAIR
        // Per 128-bit half: pixels 0, 2, 4, 6 in the low one, 1, 3, 5, 7 in the high one.
        __m256i o = _mm256_packus_epi16(_mm256_packs_epi32(q01, q23), _mm256_packs_epi32(q45, q67));
        o = _mm256_permutevar8x32_epi32(o, order);
        __m256i d = _mm256_loadu_si256((const __m256i *)(dst + i));
        __m256i keep = _mm256_cmpeq_epi32(_mm256_cvtepu8_epi32(_mm_loadl_epi64((const __m128i *)a)), _mm256_setzero_si256());
        _mm256_storeu_si256((__m256i *)(dst + i), _mm256_blendv_epi8(o, d, keep));
    }
    shadow_span_sse2(dst + i, alpha + i, n - i, src, inv);
}
#endif

void cgs_shadow_span_using(int variant, uint32_t *dst, const uint8_t *alpha, long n, const float *src, const float *inv) {
#if defined(__x86_64__)
    if (variant >= 2 && cgs_avx2) { shadow_span_avx2(dst, alpha, n, src, inv); return; }
#endif
#if defined(__SSE2__)
    if (variant >= 1) { shadow_span_sse2(dst, alpha, n, src, inv); return; }
#endif
    shadow_span_from(0, dst, alpha, n, src, inv);
}

void cgs_shadow_span(uint32_t *dst, const uint8_t *alpha, long n, const float *src, const float *inv) {
    cgs_shadow_span_using(2, dst, alpha, n, src, inv);
}

// The opaque picture above a shadow: where its first opaque run on a row lies (the shadow's
// pixels under it are not drawn). Eight pixels a test in AVX2 (the run is most of a layer's row).
static long opaque_run_from(const uint32_t *row, long x, long to, long *start) {
    while (x < to && row[x] >> 24 != 255) x++;
    *start = x;
    while (x < to && row[x] >> 24 == 255) x++;
    return x;
}

#if defined(__x86_64__)
__attribute__((target("avx2")))
static long opaque_run_avx2(const uint32_t *row, long from, long to, long *start) {
    const __m256i full = _mm256_set1_epi32(255);
    long x = from;
    for (; x + 8 <= to; x += 8) {
        __m256i a = _mm256_srli_epi32(_mm256_loadu_si256((const __m256i *)(row + x)), 24);
        if (_mm256_movemask_ps(_mm256_castsi256_ps(_mm256_cmpeq_epi32(a, full)))) break;
    }
    while (x < to && row[x] >> 24 != 255) x++;
    *start = x;
    // 32 pixels a test while all are opaque (their words and-ed keep 255 alphas only then), then 8.
    const __m256i top = _mm256_set1_epi32((int32_t)0xFF000000);
    for (; x + 32 <= to; x += 32) {
        const __m256i *q = (const __m256i *)(row + x);
        __m256i a = _mm256_and_si256(_mm256_and_si256(_mm256_loadu_si256(q), _mm256_loadu_si256(q + 1)),
                                     _mm256_and_si256(_mm256_loadu_si256(q + 2), _mm256_loadu_si256(q + 3)));
        if (_mm256_movemask_ps(_mm256_castsi256_ps(_mm256_cmpeq_epi32(_mm256_and_si256(a, top), top))) != 255) break;
    }
    for (; x + 8 <= to; x += 8) {
        __m256i a = _mm256_srli_epi32(_mm256_loadu_si256((const __m256i *)(row + x)), 24);
        if (_mm256_movemask_ps(_mm256_castsi256_ps(_mm256_cmpeq_epi32(a, full))) != 255) break;
    }
    while (x < to && row[x] >> 24 == 255) x++;
    return x;
}
#endif

long cgs_opaque_run_using(int variant, const uint32_t *row, long from, long to, long *start) {
#if defined(__x86_64__)
    if (variant >= 2 && cgs_avx2) return opaque_run_avx2(row, from, to, start);
#endif
    return opaque_run_from(row, from, to, start);
}

long cgs_opaque_run(const uint32_t *row, long from, long to, long *start) { return cgs_opaque_run_using(2, row, from, to, start); }
