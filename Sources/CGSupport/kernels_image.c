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

__attribute__((target("avx2")))
static void image_row_avx2(uint32_t *out, long x0, long n, double y, const cgs_image_map *p, int stores, float alpha) {
    const double *m = p->m;
    const float cov = 1.0f * alpha;
    const double ym3 = y * m[3], ym4 = y * m[4], ym5 = y * m[5];
    const __m256d steps = _mm256_setr_pd(0, 1, 2, 3), half = _mm256_set1_pd(0.5);
    const __m256d loU = _mm256_set1_pd(p->loU), topU = _mm256_set1_pd(p->topU);
    const __m256d loV = _mm256_set1_pd(p->loV), topV = _mm256_set1_pd(p->topV);
    const __m128i lastU = _mm_set1_epi32((int)p->lastU), lastV = _mm_set1_epi32((int)p->lastV);
    const __m256i stride = _mm256_set1_epi64x(p->stride);
    long i = 0;
    for (; i + 4 <= n; i += 4) {
        __m256d x = _mm256_add_pd(_mm256_add_pd(_mm256_set1_pd((double)(x0 + i)), steps), half);
        __m256d r0 = _mm256_add_pd(_mm256_add_pd(_mm256_mul_pd(x, _mm256_set1_pd(m[0])), _mm256_set1_pd(ym3)), _mm256_set1_pd(m[6]));
        __m256d r1 = _mm256_add_pd(_mm256_add_pd(_mm256_mul_pd(x, _mm256_set1_pd(m[1])), _mm256_set1_pd(ym4)), _mm256_set1_pd(m[7]));
        __m256d r2 = _mm256_add_pd(_mm256_add_pd(_mm256_mul_pd(x, _mm256_set1_pd(m[2])), _mm256_set1_pd(ym5)), _mm256_set1_pd(m[8]));
        if (_mm256_movemask_pd(_mm256_cmp_pd(r2, _mm256_setzero_pd(), _CMP_EQ_OQ))) {
            image_row_from(i, out, x0, i + 4, y, p, stores, alpha);
            continue;
        }
        __m256d qx = _mm256_div_pd(r0, r2), qy = _mm256_div_pd(r1, r2);
        __m256d ly = p->flipped ? _mm256_sub_pd(_mm256_set1_pd(p->destMaxY), _mm256_sub_pd(qy, _mm256_set1_pd(p->destMinY))) : qy;
        __m256d u = _mm256_mul_pd(_mm256_add_pd(_mm256_set1_pd(p->sourceMinX),
                                                _mm256_mul_pd(_mm256_sub_pd(qx, _mm256_set1_pd(p->destMinX)), _mm256_set1_pd(p->sx))),
                                  _mm256_set1_pd(p->scaleX));
        __m256d v = _mm256_mul_pd(_mm256_add_pd(_mm256_set1_pd(p->sourceMinY),
                                                _mm256_mul_pd(_mm256_sub_pd(ly, _mm256_set1_pd(p->destMinY)), _mm256_set1_pd(p->sy))),
                                  _mm256_set1_pd(p->scaleY));
        __m128i ux0, ux1, wx, vy0, vy1, wy;
        axis4(u, loU, topU, lastU, &ux0, &ux1, &wx);
        axis4(v, loV, topV, lastV, &vy0, &vy1, &wy);
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
        if (stores && opaque == 15) { _mm_storeu_si128((__m128i *)(out + i), s); continue; }
        uint32_t lanes[4];
        _mm_storeu_si128((__m128i *)lanes, s);
        for (int k = 0; k < 4; k++) {
            if (stores && (opaque >> k & 1)) { out[i + k] = lanes[k]; continue; }
            f4 c = channels(lanes[k]);
            out[i + k] = over(out[i + k], c * cov, 1.0f - c.w * cov / 255.0f);
        }
    }
    image_row_from(i, out, x0, n, y, p, stores, alpha);
}
#endif

void cgs_image_row_using(int variant, uint32_t *out, long x0, long n, double y, const cgs_image_map *map, int stores, float alpha) {
#if defined(__x86_64__)
    if (variant == 2 && cgs_avx2) { image_row_avx2(out, x0, n, y, map, stores, alpha); return; }
#endif
    image_row_from(0, out, x0, n, y, map, stores, alpha);
}

void cgs_image_row(uint32_t *out, long x0, long n, double y, const cgs_image_map *map, int stores, float alpha) {
    cgs_image_row_using(2, out, x0, n, y, map, stores, alpha);
}
