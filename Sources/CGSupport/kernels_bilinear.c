#include "kernels.h"
#include "cgsupport.h"
#include "kernels_pixel.h"

// Bilinear sampling's two lerps (BilinearRows.swift). Each byte channel is lerped in its own
// 16-bit lane: t·(256 − w) + b·w + 128 ≤ 255·256 + 128 < 2¹⁶, the bound `Raster.lerpWord`
// relies on for its two channels per 32-bit lane, so the bytes are the same.

// The row lerp: one multiply per byte in 16-bit lanes (x86: bytes unpacked against zero, then
// packed back, the two inverse per 128-bit lane so the order is kept).
static uint32_t lerp_rows_scalar(uint32_t *out, const uint32_t *top, const uint32_t *bottom, long n, uint32_t w, uint32_t all) {
    for (long i = 0; i < n; i++) { out[i] = lerp_word(top[i], bottom[i], w); all &= out[i]; }
    return all >> 24;
}

#if defined(__x86_64__)
#include <immintrin.h>

__attribute__((target("avx2")))
static uint32_t lerp_rows_avx2(uint32_t *out, const uint32_t *top, const uint32_t *bottom, long n, uint32_t w) {
    const __m256i wt = _mm256_set1_epi16((short)(256 - w)), wb = _mm256_set1_epi16((short)w);
    const __m256i half = _mm256_set1_epi16(128), zero = _mm256_setzero_si256();
    __m256i all = _mm256_set1_epi32(-1);
    long i = 0;
    for (; i + 8 <= n; i += 8) {
        __m256i t = _mm256_loadu_si256((const __m256i *)(top + i)), b = _mm256_loadu_si256((const __m256i *)(bottom + i));
        __m256i lo = _mm256_add_epi16(_mm256_add_epi16(_mm256_mullo_epi16(_mm256_unpacklo_epi8(t, zero), wt),
                                                       _mm256_mullo_epi16(_mm256_unpacklo_epi8(b, zero), wb)), half);
        __m256i hi = _mm256_add_epi16(_mm256_add_epi16(_mm256_mullo_epi16(_mm256_unpackhi_epi8(t, zero), wt),
                                                       _mm256_mullo_epi16(_mm256_unpackhi_epi8(b, zero), wb)), half);
        __m256i o = _mm256_packus_epi16(_mm256_srli_epi16(lo, 8), _mm256_srli_epi16(hi, 8));
        _mm256_storeu_si256((__m256i *)(out + i), o);
        all = _mm256_and_si256(all, o);
    }
    uint32_t lanes[8];
    _mm256_storeu_si256((__m256i *)lanes, all);
    uint32_t a = lanes[0] & lanes[1] & lanes[2] & lanes[3] & lanes[4] & lanes[5] & lanes[6] & lanes[7];
    return lerp_rows_scalar(out + i, top + i, bottom + i, n - i, w, a);
}

static uint32_t lerp_rows_sse2(uint32_t *out, const uint32_t *top, const uint32_t *bottom, long n, uint32_t w) {
    const __m128i wt = _mm_set1_epi16((short)(256 - w)), wb = _mm_set1_epi16((short)w);
    const __m128i half = _mm_set1_epi16(128), zero = _mm_setzero_si128();
    __m128i all = _mm_set1_epi32(-1);
    long i = 0;
    for (; i + 4 <= n; i += 4) {
        __m128i t = _mm_loadu_si128((const __m128i *)(top + i)), b = _mm_loadu_si128((const __m128i *)(bottom + i));
        __m128i lo = _mm_add_epi16(_mm_add_epi16(_mm_mullo_epi16(_mm_unpacklo_epi8(t, zero), wt),
                                                 _mm_mullo_epi16(_mm_unpacklo_epi8(b, zero), wb)), half);
        __m128i hi = _mm_add_epi16(_mm_add_epi16(_mm_mullo_epi16(_mm_unpackhi_epi8(t, zero), wt),
                                                 _mm_mullo_epi16(_mm_unpackhi_epi8(b, zero), wb)), half);
        __m128i o = _mm_packus_epi16(_mm_srli_epi16(lo, 8), _mm_srli_epi16(hi, 8));
        _mm_storeu_si128((__m128i *)(out + i), o);
        all = _mm_and_si128(all, o);
    }
    uint32_t lanes[4];
    _mm_storeu_si128((__m128i *)lanes, all);
    return lerp_rows_scalar(out + i, top + i, bottom + i, n - i, w, lanes[0] & lanes[1] & lanes[2] & lanes[3]);
}
#endif

uint32_t cgs_lerp_rows_using(int variant, uint32_t *out, const uint32_t *top, const uint32_t *bottom, long n, uint32_t w) {
#if defined(__x86_64__)
    if (variant >= 2 && cgs_avx2) return lerp_rows_avx2(out, top, bottom, n, w);
    if (variant >= 1) return lerp_rows_sse2(out, top, bottom, n, w);
#endif
    return lerp_rows_scalar(out, top, bottom, n, w, 0xFFFFFFFFu);
}

uint32_t cgs_lerp_rows(uint32_t *out, const uint32_t *top, const uint32_t *bottom, long n, uint32_t w) {
    return cgs_lerp_rows_using(2, out, top, bottom, n, w);
}

// The column lerp: as Swift wrote it, vectorised by the compiler (gathered texels, two channels
// per 32-bit lane); the AND of the results' alpha bytes comes with it, as the row lerp's does.
#define LERP_COLUMNS_BODY \
    uint32_t all = 0xFFFFFFFFu; \
    for (long i = 0; i < n; i++) { out[i] = lerp_word(texels[left[i]], texels[right[i]], weight[i]); all &= out[i]; } \
    return all >> 24;

#if defined(__x86_64__)
__attribute__((target("avx2")))
static uint32_t lerp_columns_avx2(uint32_t *restrict out, const uint32_t *restrict texels, const int32_t *restrict left,
                                  const int32_t *restrict right, const uint32_t *restrict weight, long n) { LERP_COLUMNS_BODY }
#endif

#if defined(__x86_64__)
// Sixteen columns a step. Magnified or slightly shrunk, sixteen neighbouring columns read fewer
// than 32 neighbouring texels: those are loaded as two vectors (masked to the texels the columns
// read, so nothing past them is touched) and each column's pair picked by a permute, in place of
// 32 loads of single texels. Columns spread wider (or an index out of order by more) go one at a
// time. The lerp is `lerp_word`'s in 16-bit lanes (`CGS_DEFINE_LERP_LANES`): the same bytes.
CGS_DEFINE_LERP_LANES(lerp16, 512, "avx512f,avx512bw,avx512vl")

// Columns i … i + last (last < 16, lanes in `m`) into out; their AND folded into *all.
__attribute__((target("avx512f,avx512bw,avx512vl")))
static inline __attribute__((always_inline)) void lerp_columns_group(uint32_t *restrict out, const uint32_t *restrict texels,
        const int32_t *restrict left, const int32_t *restrict right, const uint32_t *restrict weight, long i, long last,
        __mmask16 m, const int increasing, __m512i *all) {
    __m512i l = _mm512_maskz_loadu_epi32(m, left + i), r = _mm512_maskz_loadu_epi32(m, right + i);
    // The group's texels lie between its ends' when the columns increase (the caller says so);
    // otherwise between the ends' extremes if the columns are monotonic — checked: every index
    // of the group within them, else one column at a time.
    int lo = left[i], hi = right[i + last], inside = 1;
    if (!increasing) {
        lo = left[i] < left[i + last] ? left[i] : left[i + last];
        hi = right[i] > right[i + last] ? right[i] : right[i + last];
        hi = left[i] > hi ? left[i] : hi;
        hi = left[i + last] > hi ? left[i + last] : hi;
        lo = right[i] < lo ? right[i] : lo;
        lo = right[i + last] < lo ? right[i + last] : lo;
    }
    __m512i base = _mm512_set1_epi32(lo), il = _mm512_sub_epi32(l, base), ir = _mm512_sub_epi32(r, base);
    if (!increasing) {
        __m512i range = _mm512_set1_epi32(hi - lo);
        inside = !(_mm512_mask_cmpgt_epu32_mask(m, il, range) | _mm512_mask_cmpgt_epu32_mask(m, ir, range));
    }
    __m512i s;
    if (hi >= lo && (long)hi - lo < 32 && inside) {
        // Texels lo … hi as two vectors of sixteen (each masked to what is read).
        unsigned span = (unsigned)(hi - lo) + 1;
        __mmask16 first = span >= 16 ? 0xFFFF : (__mmask16)((1u << span) - 1);
        __mmask16 second = span > 16 ? (__mmask16)((1u << (span - 16)) - 1) : 0;
        __m512i t0 = _mm512_maskz_loadu_epi32(first, texels + lo);
        __m512i t1 = second ? _mm512_maskz_loadu_epi32(second, texels + lo + 16) : _mm512_setzero_si512();
        __m512i p = _mm512_permutex2var_epi32(t0, il, t1), q = _mm512_permutex2var_epi32(t0, ir, t1);
        s = lerp16(p, q, _mm512_maskz_loadu_epi32(m, weight + i));
    } else {
        uint32_t lanes[16];
        for (long k = 0; k <= last; k++) lanes[k] = lerp_word(texels[left[i + k]], texels[right[i + k]], weight[i + k]);
        s = _mm512_maskz_loadu_epi32(m, lanes);
    }
    _mm512_mask_storeu_epi32(out + i, m, s);
    *all = _mm512_mask_and_epi32(*all, m, *all, s);
}

// Whole groups, then the rest as one masked group; the increasing case compiled on its own.
__attribute__((target("avx512f,avx512bw,avx512vl")))
static inline __attribute__((always_inline)) uint32_t lerp_columns_groups(uint32_t *restrict out, const uint32_t *restrict texels,
        const int32_t *restrict left, const int32_t *restrict right, const uint32_t *restrict weight, long n, const int increasing) {
    __m512i all = _mm512_set1_epi32(-1);
    long i = 0;
    for (; i + 16 <= n; i += 16) lerp_columns_group(out, texels, left, right, weight, i, 15, 0xFFFF, increasing, &all);
    if (i < n) lerp_columns_group(out, texels, left, right, weight, i, n - i - 1, (__mmask16)((1u << (n - i)) - 1), increasing, &all);
    return (uint32_t)_mm512_reduce_and_epi32(all) >> 24;
}

__attribute__((target("avx512f,avx512bw,avx512vl")))
static uint32_t lerp_columns_avx512(uint32_t *restrict out, const uint32_t *restrict texels, const int32_t *restrict left,
                                    const int32_t *restrict right, const uint32_t *restrict weight, long n, int increasing) {
    if (increasing) return lerp_columns_groups(out, texels, left, right, weight, n, 1);
    return lerp_columns_groups(out, texels, left, right, weight, n, 0);
}
#endif

static uint32_t lerp_columns_portable(uint32_t *restrict out, const uint32_t *restrict texels, const int32_t *restrict left,
                                      const int32_t *restrict right, const uint32_t *restrict weight, long n) { LERP_COLUMNS_BODY }

uint32_t cgs_lerp_columns_using(int variant, uint32_t *out, const uint32_t *texels, const int32_t *left, const int32_t *right,
                                const uint32_t *weight, long n, int increasing) {
#if defined(__x86_64__)
    if (variant >= 3 && cgs_avx512) return lerp_columns_avx512(out, texels, left, right, weight, n, increasing);
    if (variant >= 2 && cgs_avx2) return lerp_columns_avx2(out, texels, left, right, weight, n);
#endif
    return lerp_columns_portable(out, texels, left, right, weight, n);
}

uint32_t cgs_lerp_columns(uint32_t *out, const uint32_t *texels, const int32_t *left, const int32_t *right,
                          const uint32_t *weight, long n, int increasing) {
    return cgs_lerp_columns_using(3, out, texels, left, right, weight, n, increasing);
}
