#include "kernels.h"
#include "cgsupport.h"
#include "kernels_pixel.h"

// An image's fully covered pixels through a projective map (`Raster.imageRow`, ProjectiveRow.swift):
// per pixel the projection of its centre, the texel coordinates, both axes of the bilinear
// sample and the store or blend, in double and float operations in the Swift order, so the
// bytes are those of the Swift loop. One level, bilinear: the other cases stay in Swift.

/// `Raster.bilinearAxis(u, limits)`: the two texels and the second one's weight in 0…256.
static inline void axis(double u, double lo, double top, long last, long *i0, long *i1, uint32_t *w) {
    double u0 = u - 0.5;
    double f = u0 >= lo ? (u0 <= top ? u0 : top) : lo;
    long a = (long)cgs_truncate_f64(f);
    *i0 = a;
    *i1 = a < last ? a + 1 : (last > a ? last : a);
    *w = (uint32_t)cgs_truncate_f64((f - (double)a) * 256 + 0.5);
}

static void image_row_from(long i, uint32_t *out, long x0, long n, double y, const cgs_image_map *p, int stores, float alpha) {
    const double *m = p->m;
    const float cov = 1.0f * alpha;
    for (; i < n; i++) {
        double x = (double)(x0 + i) + 0.5;
        double r0 = x * m[0] + y * m[3] + m[6], r1 = x * m[1] + y * m[4] + m[7], r2 = x * m[2] + y * m[5] + m[8];
        double qx = r0, qy = r1;
        if (r2 != 1) {
            if (r2 == 0) continue;
            qx = r0 / r2; qy = r1 / r2;
        }
        double ly = p->flipped ? p->destMaxY - (qy - p->destMinY) : qy;
        double u = (p->sourceMinX + (qx - p->destMinX) * p->sx) * p->scaleX;
        double v = (p->sourceMinY + (ly - p->destMinY) * p->sy) * p->scaleY;
        long ux0, ux1, vy0, vy1;
        uint32_t wx, wy;
        axis(u, p->loU, p->topU, p->lastU, &ux0, &ux1, &wx);
        axis(v, p->loV, p->topV, p->lastV, &vy0, &vy1, &wy);
        const uint32_t *top = p->pixels + vy0 * p->stride, *bottom = p->pixels + vy1 * p->stride;
        uint32_t s = lerp_word(lerp_word(top[ux0], top[ux1], wx), lerp_word(bottom[ux0], bottom[ux1], wx), wy);
        if (stores && s >> 24 == 255) { out[i] = s; continue; }
        f4 c = channels(s);
        out[i] = over(out[i], c * cov, 1.0f - c.w * cov / 255.0f);
    }
}

#if defined(__x86_64__)
#include <immintrin.h>

// Four pixels a step: the same double operations lane by lane (a division by a w of exactly 1
// returns its dividend, as skipping it does), texel indices and weights converted four at a
// time (coordinates are clamped into the image, so 32 bits hold them), texels gathered, the
// lerps in 32-bit lanes as `lerp_word` computes them. A group with a centre at infinity (w = 0),
// and pixels that are blended rather than stored, go one at a time.
__attribute__((target("avx2")))
static inline void axis4(__m256d u, __m256d lo, __m256d top, __m128i last, __m128i *i0, __m128i *i1, __m128i *w) {
    __m256d u0 = _mm256_sub_pd(u, _mm256_set1_pd(0.5));
    __m256d t = _mm256_blendv_pd(top, u0, _mm256_cmp_pd(u0, top, _CMP_LE_OQ));
    __m256d f = _mm256_blendv_pd(lo, t, _mm256_cmp_pd(u0, lo, _CMP_GE_OQ));
    __m128i a = _mm256_cvttpd_epi32(f);
    *i0 = a;
    *i1 = _mm_sub_epi32(a, _mm_cmplt_epi32(a, last));   // a + 1 where a < last, else a
    *w = _mm256_cvttpd_epi32(_mm256_add_pd(_mm256_mul_pd(_mm256_sub_pd(f, _mm256_cvtepi32_pd(a)), _mm256_set1_pd(256)),
                                           _mm256_set1_pd(0.5)));
}

__attribute__((target("avx2")))
static inline __m128i lerp4(__m128i p, __m128i q, __m128i w) {
    const __m128i mask = _mm_set1_epi32(0x00FF00FF), half = _mm_set1_epi32(0x00800080);
    __m128i v = _mm_sub_epi32(_mm_set1_epi32(256), w);
    __m128i rb = _mm_add_epi32(_mm_add_epi32(_mm_mullo_epi32(_mm_and_si128(p, mask), v), _mm_mullo_epi32(_mm_and_si128(q, mask), w)), half);
    __m128i ag = _mm_add_epi32(_mm_add_epi32(_mm_mullo_epi32(_mm_and_si128(_mm_srli_epi32(p, 8), mask), v),
                                             _mm_mullo_epi32(_mm_and_si128(_mm_srli_epi32(q, 8), mask), w)), half);
    return _mm_or_si128(_mm_and_si128(_mm_srli_epi32(rb, 8), mask), _mm_and_si128(ag, _mm_set1_epi32((int)0xFF00FF00u)));
}

__attribute__((target("avx2")))
static inline __m128i gather4(const uint32_t *pixels, __m256i rows, __m128i columns) {
    return _mm256_i64gather_epi32((const int *)pixels, _mm256_add_epi64(rows, _mm256_cvtepi32_epi64(columns)), 4);
}

// A texel row's two neighbours for four lanes whose second texel follows the first (not clamped
// at the image's last column): one 64-bit load per lane instead of two gathered texels, split
// into the first texels (returned) and the second ones (*q).
__attribute__((target("avx2")))
static inline __m128i pairs4(const uint32_t *pixels, __m256i offsets, __m128i *q) {
    __m128i lo = _mm256_castsi256_si128(offsets), hi = _mm256_extracti128_si256(offsets, 1);
    __m128i a = _mm_unpacklo_epi64(_mm_loadl_epi64((const __m128i *)(pixels + _mm_cvtsi128_si64(lo))),
                                   _mm_loadl_epi64((const __m128i *)(pixels + _mm_extract_epi64(lo, 1))));
    __m128i b = _mm_unpacklo_epi64(_mm_loadl_epi64((const __m128i *)(pixels + _mm_cvtsi128_si64(hi))),
                                   _mm_loadl_epi64((const __m128i *)(pixels + _mm_extract_epi64(hi, 1))));
    *q = _mm_castps_si128(_mm_shuffle_ps(_mm_castsi128_ps(a), _mm_castsi128_ps(b), _MM_SHUFFLE(3, 1, 3, 1)));
    return _mm_castps_si128(_mm_shuffle_ps(_mm_castsi128_ps(a), _mm_castsi128_ps(b), _MM_SHUFFLE(2, 0, 2, 0)));
}

// One group of four pixels starting at column `i`; only the lanes in `lanes` (bit k: pixel
// i + k) are written, so that a row's last group can lie over pixels already painted, or reach
// past its end, instead of leaving its remainder to the one-pixel loop. The other lanes are
// computed and dropped: their coordinates are clamped into the image like any other. Returns
// 0, or 1 when a lane's centre is at infinity (w = 0) and the caller must go pixel by pixel.
__attribute__((target("avx2")))
static inline __attribute__((always_inline)) int image_group4(uint32_t *out, long x0, long i, const __m256d ym,
                                                              const cgs_image_map *p, int stores, float cov, int lanes) {
    const double *m = p->m;
    const __m256d steps = _mm256_setr_pd(0, 1, 2, 3), half = _mm256_set1_pd(0.5);
    __m256d x = _mm256_add_pd(_mm256_add_pd(_mm256_set1_pd((double)(x0 + i)), steps), half);
    __m256d r0 = _mm256_add_pd(_mm256_add_pd(_mm256_mul_pd(x, _mm256_set1_pd(m[0])), _mm256_permute4x64_pd(ym, 0x00)), _mm256_set1_pd(m[6]));
    __m256d r1 = _mm256_add_pd(_mm256_add_pd(_mm256_mul_pd(x, _mm256_set1_pd(m[1])), _mm256_permute4x64_pd(ym, 0x55)), _mm256_set1_pd(m[7]));
    __m256d r2 = _mm256_add_pd(_mm256_add_pd(_mm256_mul_pd(x, _mm256_set1_pd(m[2])), _mm256_permute4x64_pd(ym, 0xAA)), _mm256_set1_pd(m[8]));
    if (_mm256_movemask_pd(_mm256_cmp_pd(r2, _mm256_setzero_pd(), _CMP_EQ_OQ)) & lanes) return 1;
    __m256d qx = _mm256_div_pd(r0, r2), qy = _mm256_div_pd(r1, r2);
    __m256d ly = p->flipped ? _mm256_sub_pd(_mm256_set1_pd(p->destMaxY), _mm256_sub_pd(qy, _mm256_set1_pd(p->destMinY))) : qy;
    __m256d u = _mm256_mul_pd(_mm256_add_pd(_mm256_set1_pd(p->sourceMinX),
                                            _mm256_mul_pd(_mm256_sub_pd(qx, _mm256_set1_pd(p->destMinX)), _mm256_set1_pd(p->sx))),
                              _mm256_set1_pd(p->scaleX));
    __m256d v = _mm256_mul_pd(_mm256_add_pd(_mm256_set1_pd(p->sourceMinY),
                                            _mm256_mul_pd(_mm256_sub_pd(ly, _mm256_set1_pd(p->destMinY)), _mm256_set1_pd(p->sy))),
                              _mm256_set1_pd(p->scaleY));
    __m128i ux0, ux1, wx, vy0, vy1, wy;
    axis4(u, _mm256_set1_pd(p->loU), _mm256_set1_pd(p->topU), _mm_set1_epi32((int)p->lastU), &ux0, &ux1, &wx);
    axis4(v, _mm256_set1_pd(p->loV), _mm256_set1_pd(p->topV), _mm_set1_epi32((int)p->lastV), &vy0, &vy1, &wy);
    const __m256i stride = _mm256_set1_epi64x(p->stride);
    __m256i top = _mm256_mul_epi32(_mm256_cvtepi32_epi64(vy0), stride);
    __m256i bottom = _mm256_mul_epi32(_mm256_cvtepi32_epi64(vy1), stride);
    __m128i s;
    if (_mm_movemask_ps(_mm_castsi128_ps(_mm_cmpeq_epi32(ux1, _mm_add_epi32(ux0, _mm_set1_epi32(1))))) == 15) {
        __m256i columns = _mm256_cvtepi32_epi64(ux0);
        __m128i tr, br;
        __m128i tl = pairs4(p->pixels, _mm256_add_epi64(top, columns), &tr);
        __m128i bl = pairs4(p->pixels, _mm256_add_epi64(bottom, columns), &br);
        s = lerp4(lerp4(tl, tr, wx), lerp4(bl, br, wx), wy);
    } else {
        s = lerp4(lerp4(gather4(p->pixels, top, ux0), gather4(p->pixels, top, ux1), wx),
                  lerp4(gather4(p->pixels, bottom, ux0), gather4(p->pixels, bottom, ux1), wx), wy);
    }
    int opaque = _mm_movemask_ps(_mm_castsi128_ps(_mm_cmpeq_epi32(_mm_srli_epi32(s, 24), _mm_set1_epi32(255))));
    if (stores && opaque == 15 && lanes == 15) { _mm_storeu_si128((__m128i *)(out + i), s); return 0; }
    uint32_t texels[4];
    _mm_storeu_si128((__m128i *)texels, s);
    for (int k = 0; k < 4; k++) {
        if (!(lanes >> k & 1)) continue;
        if (stores && (opaque >> k & 1)) { out[i + k] = texels[k]; continue; }
        f4 c = channels(texels[k]);
        out[i + k] = over(out[i + k], c * cov, 1.0f - c.w * cov / 255.0f);
    }
    return 0;
}

__attribute__((target("avx2")))
static void image_row_avx2(uint32_t *out, long x0, long n, double y, const cgs_image_map *p, int stores, float alpha) {
    const double *m = p->m;
    const float cov = 1.0f * alpha;
    // y·m3, y·m4, y·m5 (lanes 0–2), each added to its column's x term as `image_row_from` does.
    const __m256d ym = _mm256_setr_pd(y * m[3], y * m[4], y * m[5], 0);
    long i = 0;
    for (; i + 4 <= n; i += 4) {
        if (image_group4(out, x0, i, ym, p, stores, cov, 15)) image_row_from(i, out, x0, i + 4, y, p, stores, alpha);
    }
    if (i == n) return;
    // The remainder as one group: laid over the row's last four pixels (those already painted
    // dropped), or, in a row shorter than four, reaching past its end (those lanes dropped).
    long g = n >= 4 ? n - 4 : 0;
    int lanes = (15 << (i - g)) & (15 >> (g + 4 - n > 0 ? g + 4 - n : 0)) & 15;
    if (image_group4(out, x0, g, ym, p, stores, cov, lanes)) image_row_from(i, out, x0, n, y, p, stores, alpha);
}

// Eight pixels a step in 512-bit lanes: the same double operations as `image_group4` (a group's
// chain of dependent operations, from the division to the stored texel, is long, and the
// processor keeps only about two groups in flight: eight pixels a group make twice as many
// pixels overlap), the lerps in 16-bit lanes (each channel's p·(256 − w) + q·w + 128 is below
// 2¹⁶, so the halves of `lerp_word`'s 32-bit sums never carry into each other: the same bits).
__attribute__((target("avx512f,avx512bw,avx512vl")))
static inline void axis8(__m512d u, __m512d lo, __m512d top, __m256i last, __m256i *i0, __m256i *i1, __m256i *w) {
    __m512d u0 = _mm512_sub_pd(u, _mm512_set1_pd(0.5));
    __m512d t = _mm512_mask_blend_pd(_mm512_cmp_pd_mask(u0, top, _CMP_LE_OQ), top, u0);
    __m512d f = _mm512_mask_blend_pd(_mm512_cmp_pd_mask(u0, lo, _CMP_GE_OQ), lo, t);
    __m256i a = _mm512_cvttpd_epi32(f);
    *i0 = a;
    *i1 = _mm256_sub_epi32(a, _mm256_cmpgt_epi32(last, a));   // a + 1 where a < last, else a
    *w = _mm512_cvttpd_epi32(_mm512_add_pd(_mm512_mul_pd(_mm512_sub_pd(f, _mm512_cvtepi32_pd(a)), _mm512_set1_pd(256)),
                                           _mm512_set1_pd(0.5)));
}

CGS_DEFINE_LERP_LANES(lerp8, 256, "avx512f,avx512bw,avx512vl")

/// A texel row's neighbour pairs for eight lanes (`pairs4` on each half).
__attribute__((target("avx512f,avx512bw,avx512vl")))
static inline __m256i pairs8(const uint32_t *pixels, __m512i offsets, __m256i *q) {
    __m128i qlo, qhi;
    __m128i lo = pairs4(pixels, _mm512_castsi512_si256(offsets), &qlo);
    __m128i hi = pairs4(pixels, _mm512_extracti64x4_epi64(offsets, 1), &qhi);
    *q = _mm256_inserti128_si256(_mm256_castsi128_si256(qlo), qhi, 1);
    return _mm256_inserti128_si256(_mm256_castsi128_si256(lo), hi, 1);
}

// `image_group4` eight lanes wide; `lanes` has a bit per pixel.
__attribute__((target("avx512f,avx512bw,avx512vl")))
static inline __attribute__((always_inline)) int image_group8(uint32_t *out, long x0, long i, const __m256d ym,
                                                              const cgs_image_map *p, int stores, float cov, int lanes) {
    const double *m = p->m;
    const __m512d steps = _mm512_setr_pd(0, 1, 2, 3, 4, 5, 6, 7), half = _mm512_set1_pd(0.5);
    __m512d x = _mm512_add_pd(_mm512_add_pd(_mm512_set1_pd((double)(x0 + i)), steps), half);
    __m512d r0 = _mm512_add_pd(_mm512_add_pd(_mm512_mul_pd(x, _mm512_set1_pd(m[0])), _mm512_broadcastsd_pd(_mm256_castpd256_pd128(ym))),
                               _mm512_set1_pd(m[6]));
    __m512d r1 = _mm512_add_pd(_mm512_add_pd(_mm512_mul_pd(x, _mm512_set1_pd(m[1])), _mm512_broadcastsd_pd(_mm_permute_pd(_mm256_castpd256_pd128(ym), 1))),
                               _mm512_set1_pd(m[7]));
    __m512d r2 = _mm512_add_pd(_mm512_add_pd(_mm512_mul_pd(x, _mm512_set1_pd(m[2])), _mm512_broadcastsd_pd(_mm256_extractf128_pd(ym, 1))),
                               _mm512_set1_pd(m[8]));
    if (_mm512_cmp_pd_mask(r2, _mm512_setzero_pd(), _CMP_EQ_OQ) & lanes) return 1;
    __m512d qx = _mm512_div_pd(r0, r2), qy = _mm512_div_pd(r1, r2);
    __m512d ly = p->flipped ? _mm512_sub_pd(_mm512_set1_pd(p->destMaxY), _mm512_sub_pd(qy, _mm512_set1_pd(p->destMinY))) : qy;
    __m512d u = _mm512_mul_pd(_mm512_add_pd(_mm512_set1_pd(p->sourceMinX),
                                            _mm512_mul_pd(_mm512_sub_pd(qx, _mm512_set1_pd(p->destMinX)), _mm512_set1_pd(p->sx))),
                              _mm512_set1_pd(p->scaleX));
    __m512d v = _mm512_mul_pd(_mm512_add_pd(_mm512_set1_pd(p->sourceMinY),
                                            _mm512_mul_pd(_mm512_sub_pd(ly, _mm512_set1_pd(p->destMinY)), _mm512_set1_pd(p->sy))),
                              _mm512_set1_pd(p->scaleY));
    __m256i ux0, ux1, wx, vy0, vy1, wy;
    axis8(u, _mm512_set1_pd(p->loU), _mm512_set1_pd(p->topU), _mm256_set1_epi32((int)p->lastU), &ux0, &ux1, &wx);
    axis8(v, _mm512_set1_pd(p->loV), _mm512_set1_pd(p->topV), _mm256_set1_epi32((int)p->lastV), &vy0, &vy1, &wy);
    const __m512i stride = _mm512_set1_epi64(p->stride);
    __m512i top = _mm512_mul_epi32(_mm512_cvtepi32_epi64(vy0), stride);
    __m512i bottom = _mm512_mul_epi32(_mm512_cvtepi32_epi64(vy1), stride);
    __m256i s;
    if (_mm256_movemask_epi8(_mm256_cmpeq_epi32(ux1, _mm256_add_epi32(ux0, _mm256_set1_epi32(1)))) == -1) {
        __m512i columns = _mm512_cvtepi32_epi64(ux0);
        __m256i tr, br;
        __m256i tl = pairs8(p->pixels, _mm512_add_epi64(top, columns), &tr);
        __m256i bl = pairs8(p->pixels, _mm512_add_epi64(bottom, columns), &br);
        s = lerp8(lerp8(tl, tr, wx), lerp8(bl, br, wx), wy);
    } else {
        const int *base = (const int *)p->pixels;
        __m512i c0 = _mm512_cvtepi32_epi64(ux0), c1 = _mm512_cvtepi32_epi64(ux1);
        s = lerp8(lerp8(_mm512_i64gather_epi32(_mm512_add_epi64(top, c0), base, 4), _mm512_i64gather_epi32(_mm512_add_epi64(top, c1), base, 4), wx),
                  lerp8(_mm512_i64gather_epi32(_mm512_add_epi64(bottom, c0), base, 4), _mm512_i64gather_epi32(_mm512_add_epi64(bottom, c1), base, 4), wx),
                  wy);
    }
    int opaque = _mm256_movemask_ps(_mm256_castsi256_ps(_mm256_cmpeq_epi32(_mm256_srli_epi32(s, 24), _mm256_set1_epi32(255))));
    if (stores && opaque == 255 && lanes == 255) { _mm256_storeu_si256((__m256i *)(out + i), s); return 0; }
    uint32_t texels[8];
    _mm256_storeu_si256((__m256i *)texels, s);
    for (int k = 0; k < 8; k++) {
        if (!(lanes >> k & 1)) continue;
        if (stores && (opaque >> k & 1)) { out[i + k] = texels[k]; continue; }
        f4 c = channels(texels[k]);
        out[i + k] = over(out[i + k], c * cov, 1.0f - c.w * cov / 255.0f);
    }
    return 0;
}

__attribute__((target("avx512f,avx512bw,avx512vl")))
static void image_row_avx512(uint32_t *out, long x0, long n, double y, const cgs_image_map *p, int stores, float alpha) {
    const double *m = p->m;
    const float cov = 1.0f * alpha;
    const __m256d ym = _mm256_setr_pd(y * m[3], y * m[4], y * m[5], 0);
    long i = 0;
    for (; i + 8 <= n; i += 8) {
        if (image_group8(out, x0, i, ym, p, stores, cov, 255)) image_row_from(i, out, x0, i + 8, y, p, stores, alpha);
    }
    if (i == n) return;
    long g = n >= 8 ? n - 8 : 0;
    int lanes = (255 << (i - g)) & (255 >> (g + 8 - n > 0 ? g + 8 - n : 0)) & 255;
    if (image_group8(out, x0, g, ym, p, stores, cov, lanes)) image_row_from(i, out, x0, n, y, p, stores, alpha);
}
#endif

void cgs_image_row_using(int variant, uint32_t *out, long x0, long n, double y, const cgs_image_map *map, int stores, float alpha) {
    if (n <= 0) return;
#if defined(__x86_64__)
    if (variant >= 3 && cgs_avx512) { image_row_avx512(out, x0, n, y, map, stores, alpha); return; }
    if (variant >= 2 && cgs_avx2) { image_row_avx2(out, x0, n, y, map, stores, alpha); return; }
#endif
    image_row_from(0, out, x0, n, y, map, stores, alpha);
}

void cgs_image_row(uint32_t *out, long x0, long n, double y, const cgs_image_map *map, int stores, float alpha) {
    cgs_image_row_using(3, out, x0, n, y, map, stores, alpha);
}
