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

static inline void blur_columns_from(long x0, uint8_t *out, const float *const *rows, long at, const float *weights,
                                     long count, long n) {
    for (long x = x0; x < n; x++) {
        float acc = 0;
        for (long j = 0; j < count; j++) acc = acc + weights[j] * rows[j][at + x];
        float v = acc + 0.5f;
        out[x] = (uint8_t)(int)(v < 255.0f ? v : 255.0f);
    }
}

#if defined(__x86_64__)
#include <immintrin.h>

// An output group is eight outputs in one register; its sum is a chain of dependent adds (one
// per tap), so the vector loops interleave up to eight groups for the processor to overlap their
// chains. A run whose length is not a multiple of eight ends with a group laid over its last
// eight outputs: the outputs it recomputes get the same bits again (each depends only on its
// inputs and the weights). `GROUPS` is the most groups a step holds.
enum { GROUPS = 8 };

// The first columns of the groups of the step at `x` (run length n ≥ 8) into g; returns how many.
static inline int groups_at(long x, long n, long g[GROUPS]) {
    long last = n - 8;
    int c = 0;
    for (long p = x; c < GROUPS && p < last; p += 8) g[c++] = p;
    if (c < GROUPS && (c == 0 || g[c - 1] < last)) g[c++] = last;
    return c;
}

// One step of `c` groups (a constant where it is called, so the groups stay in registers).
__attribute__((target("avx2"), always_inline))
static inline void row_step(float *out, const float *line, const float *k, long taps, const long *g, int c) {
    __m256 a[GROUPS];
    for (int i = 0; i < c; i++) a[i] = _mm256_setzero_ps();
    for (long j = 0; j < taps; j++) {
        __m256 w = _mm256_set1_ps(k[j]);
        for (int i = 0; i < c; i++) a[i] = _mm256_add_ps(a[i], _mm256_mul_ps(w, _mm256_loadu_ps(line + g[i] + j)));
    }
    for (int i = 0; i < c; i++) _mm256_storeu_ps(out + g[i], a[i]);
}

__attribute__((target("avx2")))
static void blur_row_avx2(float *out, const float *line, const float *k, long taps, long n) {
    if (n < 8) { blur_row_from(0, out, line, k, taps, n); return; }
    for (long x = 0;; x += 8 * GROUPS) {
        long g[GROUPS];
        int c = groups_at(x, n, g);
        switch (c) {
        case 1: row_step(out, line, k, taps, g, 1); break;
        case 2: row_step(out, line, k, taps, g, 2); break;
        case 3: row_step(out, line, k, taps, g, 3); break;
        case 4: row_step(out, line, k, taps, g, 4); break;
        case 5: row_step(out, line, k, taps, g, 5); break;
        case 6: row_step(out, line, k, taps, g, 6); break;
        case 7: row_step(out, line, k, taps, g, 7); break;
        default: row_step(out, line, k, taps, g, 8); break;
        }
        if (g[c - 1] == n - 8) return;
    }
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

// Eight summed outputs as bytes: ⌊min(acc + 0.5, 255)⌋.
__attribute__((target("avx2")))
static inline void store_bytes8(uint8_t *out, __m256 acc) {
    __m256i v = _mm256_cvttps_epi32(_mm256_min_ps(_mm256_add_ps(acc, _mm256_set1_ps(0.5f)), _mm256_set1_ps(255.0f)));
    __m128i w = _mm_packs_epi32(_mm256_castsi256_si128(v), _mm256_extracti128_si256(v, 1));
    _mm_storel_epi64((__m128i *)out, _mm_packus_epi16(w, w));
}

// One step of `c` groups of the column pass, stored as bytes.
__attribute__((target("avx2"), always_inline))
static inline void columns_step(uint8_t *out, const float *const *rows, long at, const float *weights, long count,
                                const long *g, int c) {
    __m256 a[GROUPS];
    for (int i = 0; i < c; i++) a[i] = _mm256_setzero_ps();
    for (long j = 0; j < count; j++) {
        __m256 w = _mm256_set1_ps(weights[j]);
        const float *r = rows[j] + at;
        for (int i = 0; i < c; i++) a[i] = _mm256_add_ps(a[i], _mm256_mul_ps(w, _mm256_loadu_ps(r + g[i])));
    }
    for (int i = 0; i < c; i++) store_bytes8(out + g[i], a[i]);
}

__attribute__((target("avx2")))
static void blur_columns_avx2(uint8_t *out, const float *const *rows, long at, const float *weights, long count, long n) {
    if (n < 8) { blur_columns_from(0, out, rows, at, weights, count, n); return; }
    for (long x = 0;; x += 8 * GROUPS) {
        long g[GROUPS];
        int c = groups_at(x, n, g);
        switch (c) {
        case 1: columns_step(out, rows, at, weights, count, g, 1); break;
        case 2: columns_step(out, rows, at, weights, count, g, 2); break;
        case 3: columns_step(out, rows, at, weights, count, g, 3); break;
        case 4: columns_step(out, rows, at, weights, count, g, 4); break;
        case 5: columns_step(out, rows, at, weights, count, g, 5); break;
        case 6: columns_step(out, rows, at, weights, count, g, 6); break;
        case 7: columns_step(out, rows, at, weights, count, g, 7); break;
        default: columns_step(out, rows, at, weights, count, g, 8); break;
        }
        if (g[c - 1] == n - 8) return;
    }
}

static void blur_columns_sse2(uint8_t *out, const float *const *rows, long at, const float *weights, long count, long n) {
    long x = 0;
    const __m128 half = _mm_set1_ps(0.5f), top = _mm_set1_ps(255.0f);
    for (; x + 4 <= n; x += 4) {
        __m128 acc = _mm_setzero_ps();
        for (long j = 0; j < count; j++)
            acc = _mm_add_ps(acc, _mm_mul_ps(_mm_set1_ps(weights[j]), _mm_loadu_ps(rows[j] + at + x)));
        __m128i v = _mm_cvttps_epi32(_mm_min_ps(_mm_add_ps(acc, half), top));
        __m128i w = _mm_packs_epi32(v, v);
        uint32_t four = (uint32_t)_mm_cvtsi128_si32(_mm_packus_epi16(w, w));
        __builtin_memcpy(out + x, &four, 4);
    }
    blur_columns_from(x, out, rows, at, weights, count, n);
}
#endif

static void blur_row_portable(float *out, const float *line, const float *k, long taps, long n) { blur_row_from(0, out, line, k, taps, n); }

static void blur_columns_portable(uint8_t *out, const float *const *rows, long at, const float *weights, long count, long n) {
    blur_columns_from(0, out, rows, at, weights, count, n);
}

void cgs_blur_row_using(int variant, float *out, const float *line, const float *k, long taps, long n) {
#if defined(__x86_64__)
    if (variant >= 2 && cgs_avx2) { blur_row_avx2(out, line, k, taps, n); return; }
    if (variant >= 1) { blur_row_sse2(out, line, k, taps, n); return; }
#endif
    blur_row_portable(out, line, k, taps, n);
}

void cgs_blur_columns_using(int variant, uint8_t *out, const float *const *rows, const float *k, long count, long x0,
                            long n) {
#if defined(__x86_64__)
    if (variant >= 2 && cgs_avx2) { blur_columns_avx2(out, rows, x0, k, count, n); return; }
    if (variant >= 1) { blur_columns_sse2(out, rows, x0, k, count, n); return; }
#endif
    blur_columns_portable(out, rows, x0, k, count, n);
}

void cgs_blur_row(float *out, const float *line, const float *k, long taps, long n) { cgs_blur_row_using(2, out, line, k, taps, n); }

void cgs_blur_columns(uint8_t *out, const float *const *rows, const float *k, long count, long x0, long n) {
    cgs_blur_columns_using(2, out, rows, k, count, x0, n);
}

static uint32_t alpha_bytes_from(long i, uint8_t *out, const uint32_t *row, long n) {
    uint32_t any = 0;
    for (; i < n; i++) {
        const uint32_t a = row[i] >> 24;
        out[i] = (uint8_t)a;
        any |= a;
    }
    return any;
}

#if defined(__x86_64__)
// 32 words a step: their top bytes shifted down, packed to 16 then 8 bits. The packs work per
// 128-bit half, so the step's four loads come out as their first fours, then their second
// fours; one permute of the 32-bit groups puts them back in order. A row of 32 or more ends
// with a step laid over its last 32 words (the bytes it writes again are the same).
__attribute__((target("avx2")))
static inline __m256i alpha_bytes_step(uint8_t *out, const uint32_t *row) {
    const __m256i a = _mm256_srli_epi32(_mm256_loadu_si256((const __m256i *)row), 24);
    const __m256i b = _mm256_srli_epi32(_mm256_loadu_si256((const __m256i *)(row + 8)), 24);
    const __m256i c = _mm256_srli_epi32(_mm256_loadu_si256((const __m256i *)(row + 16)), 24);
    const __m256i d = _mm256_srli_epi32(_mm256_loadu_si256((const __m256i *)(row + 24)), 24);
    const __m256i bytes = _mm256_packus_epi16(_mm256_packus_epi32(a, b), _mm256_packus_epi32(c, d));
    _mm256_storeu_si256((__m256i *)out, _mm256_permutevar8x32_epi32(bytes, _mm256_setr_epi32(0, 4, 1, 5, 2, 6, 3, 7)));
    return bytes;
}

__attribute__((target("avx2")))
static uint32_t alpha_bytes_avx2(uint8_t *out, const uint32_t *row, long n) {
    if (n < 32) return alpha_bytes_from(0, out, row, n);
    __m256i any = _mm256_setzero_si256();
    for (long i = 0; i < n; i += 32) {
        const long at = i + 32 <= n ? i : n - 32;
        any = _mm256_or_si256(any, alpha_bytes_step(out + at, row + at));
    }
    // The OR of the alphas (callers read more than whether one is set): the vector's bytes folded.
    __m128i h = _mm_or_si128(_mm256_castsi256_si128(any), _mm256_extracti128_si256(any, 1));
    h = _mm_or_si128(h, _mm_srli_si128(h, 8));
    h = _mm_or_si128(h, _mm_srli_si128(h, 4));
    h = _mm_or_si128(h, _mm_srli_si128(h, 2));
    h = _mm_or_si128(h, _mm_srli_si128(h, 1));
    return (uint32_t)_mm_cvtsi128_si32(h) & 255;
}

__attribute__((target("avx2")))
static int bytes_any_avx2(const uint8_t *p, long n) {
    if (n < 32) {
        for (long i = 0; i < n; i++) if (p[i]) return 1;
        return 0;
    }
    __m256i any = _mm256_loadu_si256((const __m256i *)(p + n - 32));
    for (long i = 0; i + 32 <= n; i += 32) any = _mm256_or_si256(any, _mm256_loadu_si256((const __m256i *)(p + i)));
    return !_mm256_testz_si256(any, any);
}
#endif

uint32_t cgs_alpha_bytes_using(int variant, uint8_t *out, const uint32_t *row, long n) {
#if defined(__x86_64__)
    if (variant >= 2 && cgs_avx2) return alpha_bytes_avx2(out, row, n);
#endif
    return alpha_bytes_from(0, out, row, n);
}

uint32_t cgs_alpha_bytes(uint8_t *out, const uint32_t *row, long n) { return cgs_alpha_bytes_using(2, out, row, n); }

int cgs_bytes_any_using(int variant, const uint8_t *p, long n) {
#if defined(__x86_64__)
    if (variant >= 2 && cgs_avx2) return bytes_any_avx2(p, n);
#endif
    for (long i = 0; i < n; i++) if (p[i]) return 1;
    return 0;
}

int cgs_bytes_any(const uint8_t *p, long n) { return cgs_bytes_any_using(2, p, n); }

void cgs_bytes_to_floats(float *out, const uint8_t *in, long n) {
    for (long i = 0; i < n; i++) out[i] = (float)in[i];
}

long cgs_equal_run(const uint8_t *p, long n, long at, long *end) {
    if (at < 0 || at >= n) { *end = at; return at; }
    const uint8_t v = p[at];
    const uint64_t all = 0x0101010101010101ULL * v;
    // Eight bytes a step while all equal, then byte by byte.
    long b = at + 1;
    while (b + 8 <= n) {
        uint64_t w;
        __builtin_memcpy(&w, p + b, 8);
        if (w != all) break;
        b += 8;
    }
    while (b < n && p[b] == v) b++;
    long a = at;
    while (a >= 8) {
        uint64_t w;
        __builtin_memcpy(&w, p + a - 8, 8);
        if (w != all) break;
        a -= 8;
    }
    while (a > 0 && p[a - 1] == v) a--;
    *end = b;
    return a;
}
