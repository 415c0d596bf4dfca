#ifndef CGSUPPORT_H
#define CGSUPPORT_H
// C entry points for the CoreGraphics, LayerRender and QuartzCore modules: the JPEG decoder's,
// the Swift runtime hooks of presentation copies, and one-instruction vector helpers Swift's
// SIMD types do not give. Policy (size limits, formats, what to prefetch) lives in Swift. The
// compositor's kernels and their rules are in kernels.h.
#include <stddef.h>
#include <stdint.h>
#include <wchar.h>
#include "kernels.h"
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

/// Reads a JPEG's dimensions without decoding pixels. Returns 0 on success, -1 on a corrupt stream.
int cgs_jpeg_info(const uint8_t *data, size_t length, int *width, int *height);

/// Decodes a JPEG into `out` as 8-bit BGRA with alpha 255 (little-endian 0xFFRRGGBB words), rows of `stride` bytes.
/// `out` must hold height × stride bytes for the dimensions cgs_jpeg_info returned.
/// Returns 0 on success, -1 on a corrupt or truncated stream (libjpeg's errors are caught with setjmp).
/// libjpeg may use at most `max_memory` bytes of working memory (progressive images keep their
/// coefficients); past it decoding fails (-1) instead of allocating more.
int cgs_jpeg_decode(const uint8_t *data, size_t length, uint8_t *out, size_t stride, int width, int height,
                    long max_memory);

/// A new, uninitialised instance of the Swift class `metadata` (retain count one): the runtime's
/// swift_allocObject, for ClassLayout.swift's presentation copies.
void *cgs_alloc_object(const void *metadata, size_t size, size_t align_mask);

/// Initialises the weak reference at `dest` as a copy of the one at `src` (swift_weakCopyInit).
void cgs_weak_copy_init(void *dest, void *src);

/// Asks for the cache line holding `p`, to be written (a hint: never faults, changes no result).
static inline void cgs_prefetch(const void *p) { __builtin_prefetch(p, 1, 3); }

/// Stores `word` into the `count` pixels at `p` through glibc's `wmemset` (wchar_t is 32 bits
/// on Linux): the widest stores the processor has, with no scalar tail, where Swift's
/// `update(repeating:)` compiled to a 16-byte loop and a word-at-a-time tail (0.9 M fewer
/// instructions a frame on S5; a frame-wide row 20–35 % faster in a microbenchmark, the
/// frame's background no faster: it waits on memory either way).
static inline void cgs_fill_u32(uint32_t *p, uint32_t word, size_t count) {
    _Static_assert(sizeof(wchar_t) == 4, "wmemset fills 32-bit pixels only where wchar_t is 32 bits");
    wmemset((wchar_t *)p, (wchar_t)word, count);
}

/// Four 32-bit lanes, as Swift's SIMD4<UInt32>.
typedef uint32_t cgs_u32x4 __attribute__((ext_vector_type(4)));

/// Stores `v` at `p` (any 4-byte alignment): one unaligned 16-byte store. Swift's generic
/// `storeBytes(of:as:)` for SIMD types is sometimes left as a call by the optimiser.
static inline void cgs_store_u32x4(uint32_t *p, cgs_u32x4 v) { __builtin_memcpy(p, &v, 16); }

/// Four 32-bit float lanes, as Swift's SIMD4<Float>.
typedef float cgs_f32x4 __attribute__((ext_vector_type(4)));

/// Lane-wise min(a, b) for lanes that are not NaN: one `minps`. Swift's `pointwiseMin` and
/// `replace(with:where:)` went lane by lane or through a compare and three logic operations.
static inline cgs_f32x4 cgs_min_f32x4(cgs_f32x4 a, cgs_f32x4 b) {
#if defined(__SSE2__)
    return (cgs_f32x4)_mm_min_ps((__m128)a, (__m128)b);
#else
    cgs_f32x4 r;
    for (int i = 0; i < 4; i++) r[i] = a[i] < b[i] ? a[i] : b[i];
    return r;
#endif
}

/// Lane-wise coverage of running sums: min(|v|, 1), and 1 where that is above `full` (andps,
/// minps, cmpltps, andps, maxps: the coverage is never below 0, so the max only raises the lanes
/// past `full`).
static inline cgs_f32x4 cgs_coverage_f32x4(cgs_f32x4 v, float full) {
#if defined(__SSE2__)
    __m128 a = _mm_and_ps((__m128)v, _mm_castsi128_ps(_mm_set1_epi32(0x7fffffff)));
    __m128 c = _mm_min_ps(a, _mm_set1_ps(1.0f));
    __m128 up = _mm_and_ps(_mm_cmplt_ps(_mm_set1_ps(full), c), _mm_set1_ps(1.0f));
    return (cgs_f32x4)_mm_max_ps(c, up);
#else
    cgs_f32x4 r;
    for (int i = 0; i < 4; i++) { float a = v[i] < 0 ? -v[i] : v[i]; a = a < 1 ? a : 1; r[i] = a > full ? 1 : a; }
    return r;
#endif
}

/// Truncation toward zero of a float in [0, 2³¹): one `cvttss2si`. Swift's `Int(_:)` checks
/// the range first (two compares and branches) where the caller already knows it.
static inline int32_t cgs_truncate_f32(float v) { return (int32_t)v; }

/// Truncation toward zero of a double in [0, 2⁶³): one `cvttsd2si`. Swift's `Int(_:)` and
/// `UInt32(_:)` check the range first where the caller has already clamped the value.
static inline int64_t cgs_truncate_f64(double v) { return (int64_t)v; }

/// Lane-wise conversion of integers below 2³¹ to floats (exact below 2²⁴): one `cvtdq2ps`.
static inline cgs_f32x4 cgs_float_u32x4(cgs_u32x4 v) {
    typedef int32_t cgs_i32x4 __attribute__((ext_vector_type(4)));
    return __builtin_convertvector((cgs_i32x4)v, cgs_f32x4);
}

/// Lane-wise truncation toward zero of floats in [0, 2³¹): one `cvttps2dq` (C's conversion).
static inline cgs_u32x4 cgs_truncate_f32x4(cgs_f32x4 v) {
    typedef int32_t cgs_i32x4 __attribute__((ext_vector_type(4)));
    return (cgs_u32x4)__builtin_convertvector(v, cgs_i32x4);
}

/// One channel of `scale`: round(c · k / 255) for c, k ≤ 255, exact ((t + (t >> 8)) >> 8 with
/// t = c · k + 128).
static inline uint32_t cgs_div255(uint32_t ck) {
    uint32_t t = ck + 128;
    return (t + (t >> 8)) >> 8;
}

/* The blend both span steps share, on 16-bit channels (two pixels a 128-bit lane): per
   channel round(s·k/255) + round(d·(255 − k)/255), each rounding exact as cgs_div255. W is the
   intrinsics' width infix: empty for SSE2 (_mm_…), 256 for AVX2 (_mm256_…). */
#define CGS_DIV255_LANES(W, t, c128) \
    _mm##W##_srli_epi16(_mm##W##_add_epi16(_mm##W##_add_epi16(t, c128), _mm##W##_srli_epi16(_mm##W##_add_epi16(t, c128), 8)), 8)
#define CGS_COVER_LANES(W, src, k, dest, c255, c128) \
    _mm##W##_add_epi16(CGS_DIV255_LANES(W, _mm##W##_mullo_epi16(src, k), c128), \
                       CGS_DIV255_LANES(W, _mm##W##_mullo_epi16(dest, _mm##W##_sub_epi16(c255, k)), c128))

/// An opaque premultiplied word `word` scaled by the alpha byte of each of four coverages in
/// [0, 1] (⌊255·c + 0.5⌋), then composited source-over onto the four pixels at `p`: per channel
/// round(s·k/255) + round(d·(255 − k)/255) — LayerRender's `Raster.scale` followed by
/// `Raster.over4`, whose sum cannot pass 255 here (the scaled word's channels are at most its
/// alpha k), so without their clamp. Channels in 16-bit lanes, two pixels per register.
static inline void cgs_cover_opaque_u32x4(uint32_t *p, cgs_f32x4 coverage, uint32_t word) {
#if defined(__SSE2__)
    const __m128i zero = _mm_setzero_si128(), c255 = _mm_set1_epi16(255), c128 = _mm_set1_epi16(128);
    __m128i k = _mm_cvttps_epi32(_mm_add_ps(_mm_mul_ps((__m128)coverage, _mm_set1_ps(255.0f)), _mm_set1_ps(0.5f)));
    k = _mm_packs_epi32(k, k);                                    /* k0 k1 k2 k3 k0 k1 k2 k3 */
    k = _mm_unpacklo_epi16(k, k);                                 /* k0 k0 k1 k1 k2 k2 k3 k3 */
    const __m128i klo = _mm_unpacklo_epi32(k, k), khi = _mm_unpackhi_epi32(k, k);
    const __m128i src = _mm_unpacklo_epi8(_mm_set1_epi32((int32_t)word), zero);
    const __m128i d = _mm_loadu_si128((const __m128i *)p);
    const __m128i lo = CGS_COVER_LANES(, src, klo, _mm_unpacklo_epi8(d, zero), c255, c128);
    const __m128i hi = CGS_COVER_LANES(, src, khi, _mm_unpackhi_epi8(d, zero), c255, c128);
    _mm_storeu_si128((__m128i *)p, _mm_packus_epi16(lo, hi));
#else
    for (int i = 0; i < 4; i++) {
        uint32_t k = (uint32_t)(int32_t)(coverage[i] * 255.0f + 0.5f), out = 0;
        for (int shift = 0; shift < 32; shift += 8) {
            uint32_t s = (word >> shift) & 255, d = (p[i] >> shift) & 255;
            out |= (cgs_div255(s * k) + cgs_div255(d * (255 - k))) << shift;
        }
        p[i] = out;
    }
#endif
}


/// Nonzero when the processor runs AVX2 (set before main; 0 elsewhere than x86-64).
extern int cgs_avx2;
/// Nonzero when the processor runs AVX-512 F, BW and VL (set before main; 0 elsewhere than x86-64).
extern int cgs_avx512;

/// Names the calling thread (at most 15 bytes show) for debuggers and `top`.
void cgs_name_thread(const char *name);
/// The calling thread's stack size in bytes (-1 when the system does not say).
long cgs_thread_stack_bytes(void);

/// One step of a thread spinning on a flag another core will set: the processor's spin hint
/// (x86 `pause`, Arm `yield`), which frees the core's other hardware thread and leaves the loop
/// without a memory-order stall when the flag changes.
static inline void cgs_spin_pause(void) {
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#elif defined(__aarch64__)
    __asm__ __volatile__("yield");
#endif
}

#if defined(__x86_64__)
#include <immintrin.h>
/// `cgs_cover_opaque_span` with AVX2 (count a multiple of 4): eight pixels a step, and a last
/// group of four with its sixteen channels in one 256-bit register (one multiply chain where
/// SSE2 takes two); the same sums, one cell at a time in order, and the same integer steps per
/// channel, so the same pixels. Only called when `cgs_avx2` is set.
__attribute__((target("avx2")))
static inline float cgs_cover_opaque_span_avx2(uint32_t *p, float *cells, long count, float sum, float full, uint32_t word) {
    const __m256i zero = _mm256_setzero_si256(), c255 = _mm256_set1_epi16(255), c128 = _mm256_set1_epi16(128);
    const __m256i src = _mm256_unpacklo_epi8(_mm256_set1_epi32((int32_t)word), zero);
    const __m256 one = _mm256_set1_ps(1.0f), top = _mm256_set1_ps(full);
    const __m256 magnitude = _mm256_castsi256_ps(_mm256_set1_epi32(0x7fffffff));
    const long whole = count & ~7L;
    long i = 0;
    for (; i < whole; i += 8) {
        const float *c = cells + i;
        const float s0 = sum + c[0], s1 = s0 + c[1], s2 = s1 + c[2], s3 = s2 + c[3];
        const float s4 = s3 + c[4], s5 = s4 + c[5], s6 = s5 + c[6], s7 = s6 + c[7];
        _mm256_storeu_ps(cells + i, _mm256_setzero_ps());
        sum = s7;
        const __m256 v = _mm256_setr_ps(s0, s1, s2, s3, s4, s5, s6, s7);
        const __m256 a = _mm256_min_ps(_mm256_and_ps(v, magnitude), one);
        const __m256 cov = _mm256_max_ps(a, _mm256_and_ps(_mm256_cmp_ps(top, a, _CMP_LT_OQ), one));
        __m256i k = _mm256_cvttps_epi32(_mm256_add_ps(_mm256_mul_ps(cov, _mm256_set1_ps(255.0f)), _mm256_set1_ps(0.5f)));
        /* Per 128-bit half, as the SSE2 kernel per register: pixels 0 1 | 4 5 low, 2 3 | 6 7 high. */
        k = _mm256_packs_epi32(k, k);
        k = _mm256_unpacklo_epi16(k, k);
        const __m256i klo = _mm256_unpacklo_epi32(k, k), khi = _mm256_unpackhi_epi32(k, k);
        const __m256i d = _mm256_loadu_si256((const __m256i *)(p + i));
        const __m256i lo = CGS_COVER_LANES(256, src, klo, _mm256_unpacklo_epi8(d, zero), c255, c128);
        const __m256i hi = CGS_COVER_LANES(256, src, khi, _mm256_unpackhi_epi8(d, zero), c255, c128);
        _mm256_storeu_si256((__m256i *)(p + i), _mm256_packus_epi16(lo, hi));
    }
    if (i < count) {
        const float s0 = sum + cells[i], s1 = s0 + cells[i + 1], s2 = s1 + cells[i + 2], s3 = s2 + cells[i + 3];
        _mm_storeu_ps(cells + i, _mm_setzero_ps());
        sum = s3;
        const cgs_f32x4 v = { s0, s1, s2, s3 };
        const __m128 cov = (__m128)cgs_coverage_f32x4(v, full);
        const __m128i k32 = _mm_cvttps_epi32(_mm_add_ps(_mm_mul_ps(cov, _mm_set1_ps(255.0f)), _mm_set1_ps(0.5f)));
        /* The four alpha bytes, each spread over its pixel's four channels. */
        const __m128i k8 = _mm_shuffle_epi8(_mm_packus_epi16(_mm_packs_epi32(k32, k32), k32),
                                            _mm_setr_epi8(0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3));
        const __m256i k = _mm256_cvtepu8_epi16(k8);
        const __m256i d = _mm256_cvtepu8_epi16(_mm_loadu_si128((const __m128i *)(p + i)));
        const __m256i r = CGS_COVER_LANES(256, _mm256_cvtepu8_epi16(_mm_set1_epi32((int32_t)word)), k, d, c255, c128);
        _mm_storeu_si128((__m128i *)(p + i), _mm_packus_epi16(_mm256_castsi256_si128(r), _mm256_extracti128_si256(r, 1)));
    }
    return sum;
}
#endif
#undef CGS_COVER_LANES
#undef CGS_DIV255_LANES

/// `count` (a multiple of 4) cells' running sums from `sum` on, one coverage each as
/// `cgs_coverage_f32x4` gives it (the sums added one cell at a time, in order), through
/// `cgs_cover_opaque_u32x4` onto the pixels at `p`; returns the last sum. The cells are left
/// zero (the rasteriser's cells stay clear between shapes without a pass of their own).
static inline float cgs_cover_opaque_span(uint32_t *p, float *cells, long count, float sum, float full, uint32_t word) {
#if defined(__x86_64__)
    if (cgs_avx2) return cgs_cover_opaque_span_avx2(p, cells, count, sum, full, word);
#endif
    for (long i = 0; i < count; i += 4) {
        const float s0 = sum + cells[i], s1 = s0 + cells[i + 1], s2 = s1 + cells[i + 2], s3 = s2 + cells[i + 3];
        __builtin_memset(cells + i, 0, 4 * sizeof(float));
        sum = s3;
        const cgs_f32x4 v = { s0, s1, s2, s3 };
        cgs_cover_opaque_u32x4(p + i, cgs_coverage_f32x4(v, full), word);
    }
    return sum;
}

#endif
