#include "kernels.h"
#include "cgsupport.h"

// The sampled Gaussian's two passes (ShadowBlur.swift). Each output keeps the Swift loop's
// operations and their order — starting from zero, then for each tap in turn one multiply and
// one add — so the floats are the same bits; the vector loops only hold eight outputs in a
// register across the taps instead of storing them after each tap. Contraction into fused
// multiply-adds would change the rounding, so it is off.
#pragma STDC FP_CONTRACT OFF

// Outputs x0 ..< n one at a time (the portable loop, and the vector loops' remainders).
static inline void blur_row_from(long x0, float *out, const float *line, const float *k, long taps, long n) {
    for (long x = x0; x < n; x++) {
        float acc = 0;
        for (long j = 0; j < taps; j++) acc = acc + k[j] * line[x + j];
        out[x] = acc;
    }
}

static inline void blur_columns_from(long x0, uint8_t *out, const float *const *rows, const float *weights, long count, long n) {
    for (long x = x0; x < n; x++) {
        float acc = 0;
        for (long j = 0; j < count; j++) acc = acc + weights[j] * rows[j][x];
        float v = acc + 0.5f;
        out[x] = (uint8_t)(int)(v < 255.0f ? v : 255.0f);
    }
}

#if defined(__x86_64__)
#include <immintrin.h>

__attribute__((target("avx2")))
static void blur_row_avx2(float *out, const float *line, const float *k, long taps, long n) {
    long x = 0;
    for (; x + 8 <= n; x += 8) {
        __m256 acc = _mm256_setzero_ps();
        for (long j = 0; j < taps; j++)
            acc = _mm256_add_ps(acc, _mm256_mul_ps(_mm256_set1_ps(k[j]), _mm256_loadu_ps(line + x + j)));
        _mm256_storeu_ps(out + x, acc);
    }
    blur_row_from(x, out, line, k, taps, n);
}

static void blur_row_sse2(float *out, const float *line, const float *k, long taps, long n) {
    long x = 0;
    for (; x + 4 <= n; x += 4) {
        __m128 acc = _mm_setzero_ps();
        for (long j = 0; j < taps; j++)
            acc = _mm_add_ps(acc, _mm_mul_ps(_mm_set1_ps(k[j]), _mm_loadu_ps(line + x + j)));
        _mm_storeu_ps(out + x, acc);
    }
    blur_row_from(x, out, line, k, taps, n);
}

__attribute__((target("avx2")))
static void blur_columns_avx2(uint8_t *out, const float *const *rows, const float *weights, long count, long n) {
    long x = 0;
    const __m256 half = _mm256_set1_ps(0.5f), top = _mm256_set1_ps(255.0f);
    for (; x + 8 <= n; x += 8) {
        __m256 acc = _mm256_setzero_ps();
        for (long j = 0; j < count; j++)
            acc = _mm256_add_ps(acc, _mm256_mul_ps(_mm256_set1_ps(weights[j]), _mm256_loadu_ps(rows[j] + x)));
        __m256i v = _mm256_cvttps_epi32(_mm256_min_ps(_mm256_add_ps(acc, half), top));
        __m128i w = _mm_packs_epi32(_mm256_castsi256_si128(v), _mm256_extracti128_si256(v, 1));
        _mm_storel_epi64((__m128i *)(out + x), _mm_packus_epi16(w, w));
    }
    blur_columns_from(x, out, rows, weights, count, n);
}

static void blur_columns_sse2(uint8_t *out, const float *const *rows, const float *weights, long count, long n) {
    long x = 0;
    const __m128 half = _mm_set1_ps(0.5f), top = _mm_set1_ps(255.0f);
    for (; x + 4 <= n; x += 4) {
        __m128 acc = _mm_setzero_ps();
        for (long j = 0; j < count; j++)
            acc = _mm_add_ps(acc, _mm_mul_ps(_mm_set1_ps(weights[j]), _mm_loadu_ps(rows[j] + x)));
        __m128i v = _mm_cvttps_epi32(_mm_min_ps(_mm_add_ps(acc, half), top));
        __m128i w = _mm_packs_epi32(v, v);
        uint32_t four = (uint32_t)_mm_cvtsi128_si32(_mm_packus_epi16(w, w));
        __builtin_memcpy(out + x, &four, 4);
    }
    blur_columns_from(x, out, rows, weights, count, n);
}
#endif

static void blur_row_portable(float *out, const float *line, const float *k, long taps, long n) { blur_row_from(0, out, line, k, taps, n); }

static void blur_columns_portable(uint8_t *out, const float *const *rows, const float *weights, long count, long n) {
    blur_columns_from(0, out, rows, weights, count, n);
}

void cgs_blur_row_using(int variant, float *out, const float *line, const float *k, long taps, long n) {
#if defined(__x86_64__)
    if (variant == 2 && cgs_avx2) { blur_row_avx2(out, line, k, taps, n); return; }
    if (variant >= 1) { blur_row_sse2(out, line, k, taps, n); return; }
#endif
    blur_row_portable(out, line, k, taps, n);
}

void cgs_blur_columns_using(int variant, uint8_t *out, const float *const *rows, const float *weights, long count, long n) {
#if defined(__x86_64__)
    if (variant == 2 && cgs_avx2) { blur_columns_avx2(out, rows, weights, count, n); return; }
    if (variant >= 1) { blur_columns_sse2(out, rows, weights, count, n); return; }
#endif
    blur_columns_portable(out, rows, weights, count, n);
}

void cgs_blur_row(float *out, const float *line, const float *k, long taps, long n) { cgs_blur_row_using(2, out, line, k, taps, n); }

void cgs_blur_columns(uint8_t *out, const float *const *rows, const float *weights, long count, long n) {
    cgs_blur_columns_using(2, out, rows, weights, count, n);
}
