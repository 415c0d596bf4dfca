#include "kernels.h"
#include "cgsupport.h"

// Opaque solid fills: every pixel of a box set to one word, as `cgs_fill_u32` sets a row. The
// boxes are small and many (a layer's background, the strips of its border), so a row is a
// few inline stores, as wide as the processor takes (64 bytes with AVX-512, 32 with AVX2, 16),
// rather than a call into the C library per row; rows long enough for the library's own fill
// to win still go there.
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

// One row of n words: 16-byte stores (the last one overlapping the one before it when n is
// not a multiple of four), plain stores under four words, the library's fill for long rows.
static inline void fill_row(uint32_t *p, long n, uint32_t word) {
#if defined(__SSE2__)
    if (n >= 4 && n < 256) {
        const __m128i v = _mm_set1_epi32((int)word);
        long x = 0;
        for (; x + 4 <= n; x += 4) _mm_storeu_si128((__m128i *)(p + x), v);
        if (x < n) _mm_storeu_si128((__m128i *)(p + n - 4), v);
        return;
    }
#endif
    if (n < 4) {
        for (long x = 0; x < n; x++) p[x] = word;
        return;
    }
    cgs_fill_u32(p, word, (size_t)n);
}

// A box's rows, and a framed box's: the inside's word across the whole row, then the frame's
// few columns over it (one run of vector stores instead of three of unpredictable lengths).
// Bodies shared by each processor's variant, whose row fill is inlined into them.
#define FILL_BOX_BODY(ROW) \
    for (long y = 0; y < h; y++, p += stride) ROW(p, w, word);
#define FILL_FRAMED_BOX_BODY(ROW) \
    for (long y = 0; y < h; y++, p += stride) { \
        if (y < top || y >= h - bottom) { ROW(p, w, border); continue; } \
        ROW(p, w, fill); \
        for (long x = 0; x < left; x++) p[x] = border; \
        for (long x = w - right; x < w; x++) p[x] = border; \
    }

#if defined(__x86_64__)
#include <immintrin.h>
// 32-byte stores (the last one overlapping) for rows of 8 to 255 words.
__attribute__((target("avx2")))
static inline void fill_row_avx2(uint32_t *p, long n, uint32_t word) {
    if (n < 8 || n >= 256) { fill_row(p, n, word); return; }
    const __m256i v = _mm256_set1_epi32((int)word);
    long x = 0;
    for (; x + 8 <= n; x += 8) _mm256_storeu_si256((__m256i *)(p + x), v);
    if (x < n) _mm256_storeu_si256((__m256i *)(p + n - 8), v);
}

// 64-byte stores (the last one overlapping) for rows of 17 to 255 words; one masked store for
// rows of 1 to 16 (none for 0).
__attribute__((target("avx512f")))
static inline void fill_row_avx512(uint32_t *p, long n, uint32_t word) {
    const __m512i v = _mm512_set1_epi32((int)word);
    if (n <= 16) { _mm512_mask_storeu_epi32(p, (__mmask16)((1u << n) - 1), v); return; }
    if (n >= 256) { cgs_fill_u32(p, word, (size_t)n); return; }
    long x = 0;
    for (; x + 16 <= n; x += 16) _mm512_storeu_si512((void *)(p + x), v);
    if (x < n) _mm512_storeu_si512((void *)(p + n - 16), v);
}

__attribute__((target("avx512f")))
static void fill_box_avx512(uint32_t *p, long stride, long w, long h, uint32_t word) { FILL_BOX_BODY(fill_row_avx512) }
__attribute__((target("avx2")))
static void fill_box_avx2(uint32_t *p, long stride, long w, long h, uint32_t word) { FILL_BOX_BODY(fill_row_avx2) }

// A framed box's inside rows when the row is at least one vector wide and each side of the frame
// at most one vector: the row's first vector (the left side's border words, then the fill) and
// its last (the fill, then the right side's), worked out once per box, with whole vectors of
// fill between them — no per-row loops over the sides' words. The middle vectors may overlap
// the last, which is stored after them; the first and the last may overlap each other (a row
// under two vectors), and each holds the other's border words where they do. The frame's rows
// (top and bottom), boxes with wider sides and rows long enough for the library's fill take the
// general body.
#define FRAMED_ROWS(VEC, LANES, STORE, SET1, SELECT) \
    do { \
        const VEC f = SET1((int)fill); \
        const VEC a = SELECT(0, w, left, right, fill, border), b = SELECT(w - LANES, w, left, right, fill, border); \
        for (long y = 0; y < h; y++, p += stride) { \
            if (y < top || y >= h - bottom) { ROW(p, w, border); continue; } \
            STORE(p, a); \
            for (long x = LANES; x < w - LANES; x += LANES) STORE(p + x, f); \
            STORE(p + w - LANES, b); \
        } \
    } while (0)

// The vector of words `at` ..< `at` + 16 of a framed row of w words: border within `left` of the
// start or `right` of the end, fill elsewhere.
__attribute__((target("avx512f")))
static inline __m512i framed_words_avx512(long at, long w, long left, long right, uint32_t fill, uint32_t border) {
    const __m512i x = _mm512_add_epi32(_mm512_set1_epi32((int)at), _mm512_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15));
    const __mmask16 edge = _mm512_cmplt_epi32_mask(x, _mm512_set1_epi32((int)left)) |
                           _mm512_cmpge_epi32_mask(x, _mm512_set1_epi32((int)(w - right)));
    return _mm512_mask_blend_epi32(edge, _mm512_set1_epi32((int)fill), _mm512_set1_epi32((int)border));
}

__attribute__((target("avx2")))
static inline __m256i framed_words_avx2(long at, long w, long left, long right, uint32_t fill, uint32_t border) {
    const __m256i x = _mm256_add_epi32(_mm256_set1_epi32((int)at), _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7));
    const __m256i edge = _mm256_or_si256(_mm256_cmpgt_epi32(_mm256_set1_epi32((int)left), x),
                                         _mm256_cmpgt_epi32(x, _mm256_set1_epi32((int)(w - right - 1))));
    return _mm256_blendv_epi8(_mm256_set1_epi32((int)fill), _mm256_set1_epi32((int)border), edge);
}

__attribute__((target("avx512f")))
static inline void store_avx512(uint32_t *p, __m512i v) { _mm512_storeu_si512((void *)p, v); }
__attribute__((target("avx2")))
static inline void store_avx2(uint32_t *p, __m256i v) { _mm256_storeu_si256((__m256i *)p, v); }

__attribute__((target("avx512f")))
static void fill_framed_box_avx512(uint32_t *p, long stride, long w, long h, long left, long top, long right, long bottom,
                                   uint32_t fill, uint32_t border) {
    if (w < 16 || w >= 256 || left > 16 || right > 16) { FILL_FRAMED_BOX_BODY(fill_row_avx512) return; }
#define ROW fill_row_avx512
    FRAMED_ROWS(__m512i, 16, store_avx512, _mm512_set1_epi32, framed_words_avx512);
#undef ROW
}
__attribute__((target("avx2")))
static void fill_framed_box_avx2(uint32_t *p, long stride, long w, long h, long left, long top, long right, long bottom,
                                 uint32_t fill, uint32_t border) {
    if (w < 8 || w >= 256 || left > 8 || right > 8) { FILL_FRAMED_BOX_BODY(fill_row_avx2) return; }
#define ROW fill_row_avx2
    FRAMED_ROWS(__m256i, 8, store_avx2, _mm256_set1_epi32, framed_words_avx2);
#undef ROW
}
#endif

void cgs_fill_box(uint32_t *p, long stride, long w, long h, uint32_t word) {
    if (w <= 0 || h <= 0) return;
#if defined(__x86_64__)
    if (cgs_avx512) { fill_box_avx512(p, stride, w, h, word); return; }
    if (cgs_avx2) { fill_box_avx2(p, stride, w, h, word); return; }
#endif
    FILL_BOX_BODY(fill_row)
}

void cgs_fill_framed_box_using(int variant, uint32_t *p, long stride, long w, long h, long left, long top, long right,
                               long bottom, uint32_t fill, uint32_t border) {
    if (w <= 0 || h <= 0) return;
#if defined(__x86_64__)
    if (variant >= 3 && cgs_avx512) { fill_framed_box_avx512(p, stride, w, h, left, top, right, bottom, fill, border); return; }
    if (variant >= 2 && cgs_avx2) { fill_framed_box_avx2(p, stride, w, h, left, top, right, bottom, fill, border); return; }
#endif
    FILL_FRAMED_BOX_BODY(fill_row)
}

void cgs_fill_framed_box(uint32_t *p, long stride, long w, long h, long left, long top, long right, long bottom,
                         uint32_t fill, uint32_t border) {
    cgs_fill_framed_box_using(3, p, stride, w, h, left, top, right, bottom, fill, border);
}

// Display items of opaque words (SolidRect.swift). A run of them is painted by one call, so a
// band's loop pays its per-item checks in C rather than through each item's Swift path.

static inline int box_empty(cgs_box b) { return b.x0 >= b.x1 || b.y0 >= b.y1; }
static inline cgs_box box_meet(cgs_box a, cgs_box b) {
    cgs_box r = { a.x0 > b.x0 ? a.x0 : b.x0, a.y0 > b.y0 ? a.y0 : b.y0, a.x1 < b.x1 ? a.x1 : b.x1, a.y1 < b.y1 ? a.y1 : b.y1 };
    return r;
}
static inline long box_area(cgs_box b) { return box_empty(b) ? 0 : (long)(b.x1 - b.x0) * (long)(b.y1 - b.y0); }

// Frame pixel (x, y) of `t`.
static inline uint32_t *pixel_at(cgs_target t, long x, long y) { return t.pixels + (y - t.origin_y) * t.stride + (x - t.origin_x); }

// `word` over `area` ∩ `box`.
static void store_box(cgs_target t, uint32_t word, cgs_box area, cgs_box box) {
    const cgs_box b = box_meet(area, box);
    if (box_empty(b)) return;
    cgs_fill_box(pixel_at(t, b.x0, b.y0), t.stride, b.x1 - b.x0, b.y1 - b.y0, word);
}

// Inlined into the run's loop (a call per item costs as much as its checks).
static inline __attribute__((always_inline)) void paint_solid(cgs_target t, const cgs_solid *s, cgs_box box) {
    const int ring = s->ring && s->has_border, body = s->body && s->has_fill;
    const cgs_box r = s->rect, in = s->inner;
    if (ring && box_empty(in)) { store_box(t, s->border, r, box); return; }
    if (ring && body) {
        // Background and border row by row, each row once (the inside clipped to the box).
        const cgs_box b = box_meet(r, box), i = box_meet(in, b);
        if (box_empty(b)) return;
        if (box_empty(i)) { store_box(t, s->border, b, b); return; }
        cgs_fill_framed_box(pixel_at(t, b.x0, b.y0), t.stride, b.x1 - b.x0, b.y1 - b.y0, i.x0 - b.x0, i.y0 - b.y0,
                            b.x1 - i.x1, b.y1 - i.y1, s->fill, s->border);
        return;
    }
    if (body) store_box(t, s->fill, ring ? in : r, box);
    if (!ring) return;
    const cgs_box top = { r.x0, r.y0, r.x1, in.y0 }, bottom = { r.x0, in.y1, r.x1, r.y1 };
    const cgs_box left = { r.x0, in.y0, in.x0, in.y1 }, right = { in.x1, in.y0, r.x1, in.y1 };
    store_box(t, s->border, top, box);
    store_box(t, s->border, bottom, box);
    store_box(t, s->border, left, box);
    store_box(t, s->border, right, box);
}

void cgs_paint_solid(cgs_target t, const cgs_solid *s, cgs_box box) { paint_solid(t, s, box); }

long cgs_paint_solids(cgs_target target, const cgs_solid *items, long count, cgs_box band, long spent, long budget,
                      cgs_solid_tally *tally) {
    cgs_solid_tally t = { 0, 0, 0 };
    long n = 0;
    for (; n < count; n++) {
        const cgs_solid *s = items + n;
        const cgs_box limit = box_meet(s->limit, band);
        if (box_empty(limit)) continue;
        if (box_empty(box_meet(s->touched, band))) { t.culled++; continue; }
        const cgs_box box = box_meet(s->clip, band);
        if (s->body) {
            const long area = box_area(box);
            if (area > budget - spent - t.charged) break;
            t.charged += area;
            t.painted++;
        }
        paint_solid(target, s, box);
    }
    *tally = t;
    return n;
}
