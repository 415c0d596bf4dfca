#include "kernels.h"
#include "cgsupport.h"
#include "kernels_pixel.h"

// One colour blended at full coverage over runs of pixels (a translucent shape's interior) in
// 16-bit integers, with the float blend's bits.
//
// At coverage 1 a channel's result is a function of its destination byte d alone,
// f(d) = ⌊min(s + d·inv + ½, 255)⌋ in floats (`over`), non-decreasing in d with a slope below 1.
// For nearly every colour it is also g(d) = ⌊(⌊d·m/2⁸⌋ + c)/2⁸⌋ for some 16-bit m and c: one
// multiply-high of d·2⁸ by m, an add and a shift per 16-bit lane, eight pixels per 512 bits
// where floats hold four. `cgs_span_blend_init` tries m = inv·2¹⁶ rounded and its neighbours,
// each checked against f at all 256 values of d in every channel (for a given m, the c that fit
// are an interval: f(d)·2⁸ − ⌊d·m/2⁸⌋ ≤ c ≤ f(d)·2⁸ + 255 − ⌊d·m/2⁸⌋ for every d); a channel
// that none fits leaves the plan to the float blend. The check is the proof: a planned run
// writes f's bits because g equals f at every byte.
#pragma STDC FP_CONTRACT OFF

typedef float f16 __attribute__((ext_vector_type(16)));
typedef int32_t i16 __attribute__((ext_vector_type(16)));

/// The neighbours of the rounded m that are tried, in order (the first fits almost always).
static const int trials[] = {0, -1, 1, -2, 2, -3, 3};

// Checks m (per channel: lanes hold destinations d0 … d0 + 3 times channels b, g, r, a) against
// the float blend at every d; `fits` gets each channel's verdict and `c` its smallest fitting c.
__attribute__((always_inline))
static inline void check(const f16 *sp, float inv, const i16 *mp, int fits[4], int32_t c[4]) {
    const f16 s = *sp;
    const i16 m = *mp;
    const i16 step = {0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3};
    i16 lo = -(1 << 30), hi = 1 << 30;
    for (int d0 = 0; d0 < 256; d0 += 4) {
        i16 d = d0 + step;
        // `over`'s operations in its order: s + d·inv, plus one half, at most 255, truncated.
        f16 o = s + __builtin_convertvector(d, f16) * inv + 0.5f;
        o = o < 255.0f ? o : 255.0f;
        i16 f = __builtin_convertvector(o, i16) << 8, p = (d * m) >> 8;
        i16 below = f - p, above = f + 255 - p;
        lo = below > lo ? below : lo;
        hi = above < hi ? above : hi;
    }
    for (int k = 0; k < 4; k++) {
        int32_t l = lo[k], h = hi[k];
        for (int j = k + 4; j < 16; j += 4) { l = lo[j] > l ? lo[j] : l; h = hi[j] < h ? hi[j] : h; }
        fits[k] = l <= h && l >= 0 && l <= 65535;
        c[k] = l;
    }
}

__attribute__((always_inline))
static inline void plan(cgs_span_blend *b, f4 s4, float inv) {
    const f16 s = {s4.x, s4.y, s4.z, s4.w, s4.x, s4.y, s4.z, s4.w, s4.x, s4.y, s4.z, s4.w, s4.x, s4.y, s4.z, s4.w};
    const int32_t m0 = (int32_t)(inv * 65536.0f + 0.5f);
    int found[4] = {0, 0, 0, 0};
    for (unsigned t = 0; t < sizeof trials / sizeof trials[0]; t++) {
        i16 m;
        int32_t tried[4];
        for (int k = 0; k < 4; k++) {
            int32_t v = m0 + trials[t];
            tried[k] = found[k] ? b->m[k] : v < 0 ? 0 : v > 65535 ? 65535 : v;
        }
        for (int j = 0; j < 16; j++) m[j] = tried[j & 3];
        int fits[4];
        int32_t c[4];
        check(&s, inv, &m, fits, c);
        int all = 1;
        for (int k = 0; k < 4; k++) {
            if (!found[k] && fits[k]) { found[k] = 1; b->m[k] = (uint16_t)tried[k]; b->c[k] = (uint16_t)c[k]; }
            all &= found[k];
        }
        if (all) { b->exact = 1; return; }
    }
}

#if defined(__x86_64__)
#include <immintrin.h>

__attribute__((target("avx512f,avx512bw,avx512vl")))
static void plan_avx512(cgs_span_blend *b, f4 s, float inv) { plan(b, s, inv); }
#endif

static void plan_portable(cgs_span_blend *b, f4 s, float inv) { plan(b, s, inv); }

void cgs_span_blend_init(cgs_span_blend *b, float r, float g, float bl, float a) {
    float inv;
    const f4 s = full_term(r, g, bl, a, &inv);
    b->s[0] = s.x; b->s[1] = s.y; b->s[2] = s.z; b->s[3] = s.w;
    b->exact = 0;
    // Outside a colour's range (not finite, or a beyond 0…255) the float blend stays.
    if (!(a >= 0 && a <= 255 && inv >= 0 && inv <= 1)) return;
    for (int k = 0; k < 4; k++) if (!(b->s[k] >= 0 && b->s[k] <= 255)) return;
#if defined(__x86_64__)
    if (cgs_avx512) { plan_avx512(b, s, inv); return; }
#endif
    plan_portable(b, s, inv);
}

// The float blend itself (`cgs_blend_span` of the plan's colour, in `variant`).
static void run_float(int variant, const cgs_span_blend *b, uint32_t *p, long n) {
    cgs_blend_span_using(variant, p, n, b->s[2], b->s[1], b->s[0], b->s[3]);
}

#if defined(__x86_64__)
// Sixteen pixels a step: each byte unpacked beside a zero byte below it (d·2⁸ in a 16-bit lane,
// no shift), and packed back from the two halves; the last pixels as one masked step.
__attribute__((target("avx512f,avx512bw,avx512vl")))
static void run_avx512(const cgs_span_blend *b, uint32_t *p, long n) {
    long long mq, cq;
    __builtin_memcpy(&mq, b->m, 8);
    __builtin_memcpy(&cq, b->c, 8);
    const __m512i m = _mm512_set1_epi64(mq), c = _mm512_set1_epi64(cq), zero = _mm512_setzero_si512();
#define CGS_BLEND16(d) _mm512_packus_epi16( \
        _mm512_srli_epi16(_mm512_add_epi16(_mm512_mulhi_epu16(_mm512_unpacklo_epi8(zero, d), m), c), 8), \
        _mm512_srli_epi16(_mm512_add_epi16(_mm512_mulhi_epu16(_mm512_unpackhi_epi8(zero, d), m), c), 8))
    long i = 0;
    for (; i + 16 <= n; i += 16) {
        __m512i d = _mm512_loadu_si512((const void *)(p + i));
        _mm512_storeu_si512((void *)(p + i), CGS_BLEND16(d));
    }
    if (i < n) {
        __mmask64 k = (__mmask64)((1ull << ((n - i) * 4)) - 1);   // fewer than sixteen pixels
        __m512i d = _mm512_maskz_loadu_epi8(k, p + i);
        _mm512_mask_storeu_epi8(p + i, k, CGS_BLEND16(d));
    }
#undef CGS_BLEND16
}

// Four pixels a step in 16-bit lanes; the last pixels through the float blend (the same bits).
__attribute__((target("avx2")))
static void run_avx2(const cgs_span_blend *b, uint32_t *p, long n) {
    long long mq, cq;
    __builtin_memcpy(&mq, b->m, 8);
    __builtin_memcpy(&cq, b->c, 8);
    const __m256i m = _mm256_set1_epi64x(mq), c = _mm256_set1_epi64x(cq);
    long i = 0;
    for (; i + 4 <= n; i += 4) {
        __m256i d = _mm256_cvtepu8_epi16(_mm_loadu_si128((const __m128i *)(p + i)));
        __m256i q = _mm256_srli_epi16(_mm256_add_epi16(_mm256_mulhi_epu16(_mm256_slli_epi16(d, 8), m), c), 8);
        _mm_storeu_si128((__m128i *)(p + i),
                         _mm_packus_epi16(_mm256_castsi256_si128(q), _mm256_extracti128_si256(q, 1)));
    }
    run_float(0, b, p + i, n - i);
}
#endif

void cgs_span_blend_run_using(int variant, const cgs_span_blend *b, uint32_t *p, long n) {
    if (n <= 0) return;
#if defined(__x86_64__)
    if (b->exact && variant >= 3 && cgs_avx512) { run_avx512(b, p, n); return; }
    if (b->exact && variant >= 2 && cgs_avx2) { run_avx2(b, p, n); return; }
#endif
    run_float(variant, b, p, n);
}

void cgs_span_blend_run(const cgs_span_blend *b, uint32_t *p, long n) { cgs_span_blend_run_using(3, b, p, n); }
