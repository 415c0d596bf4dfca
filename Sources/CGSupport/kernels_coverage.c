#include "kernels.h"
#include "cgsupport.h"
#include "kernels_pixel.h"
#include "kernels_spans.h"

// Analytic coverage of a rounded rectangle along a row (CoverPlan.edges, Coverage.swift): for
// each pixel centre, the affine inverse map, the signed distance `RoundedRect.distance` and the
// clamp of `RoundedRect.coverage`, less a hole's coverage. The same double operations in the
// same order as the Swift (IEEE arithmetic and square roots are exactly rounded, in vector
// lanes too; no fused multiply-adds), with Swift's `min`/`max` spelled as they are defined —
// `max(a, b)` is `b >= a ? b : a`, `min(a, b)` is `b < a ? b : a` — so the bits are the same.
#pragma STDC FP_CONTRACT OFF

typedef double d4 __attribute__((ext_vector_type(4)));
typedef long l4 __attribute__((ext_vector_type(4)));

static inline double smax(double a, double b) { return b >= a ? b : a; }
static inline double smin(double a, double b) { return b < a ? b : a; }

static inline double distance1(const cgs_rrect *s, double px, double py) {
    double qx = px - s->cx, qy = py - s->cy;
    double r = qx < 0 ? (qy < 0 ? s->r0 : s->r2) : (qy < 0 ? s->r1 : s->r3);
    double dx = __builtin_fabs(qx) - s->hx + r, dy = __builtin_fabs(qy) - s->hy + r;
    double ox = smax(dx, 0), oy = smax(dy, 0);
    double outside = __builtin_sqrt(ox * ox + oy * oy);
    return outside + smin(smax(dx, dy), 0) - r;
}

static inline double coverage1(const cgs_rrect *s, double px, double py, double pixel, int antialias) {
    double d = distance1(s, px, py);
    if (!antialias && !s->rounded) return d < 0 ? 1 : 0;
    return smin(smax(0.5 - d / pixel, 0), 1);
}

static inline float pixel1(const cgs_rrect *shape, const cgs_rrect *hole, double px, double py, double pixel, int antialias) {
    double c = coverage1(shape, px, py, pixel, antialias);
    if (c == 0) return 0;
    if (hole) c = smax(0, c - coverage1(hole, px, py, pixel, antialias));
    return (float)c;
}

static void row_scalar(float *out, long x0, long n, double y, const double *m, const cgs_rrect *shape, const cgs_rrect *hole,
                       double pixel, int antialias, long from) {
    for (long i = from; i < n; i++) {
        double x = (double)(x0 + i) + 0.5;
        double qx = x * m[0] + y * m[2] + m[4], qy = x * m[1] + y * m[3] + m[5];
        out[i] = pixel1(shape, hole, qx, qy, pixel, antialias);
    }
}

#if defined(__x86_64__)
// `distance1` and `coverage1` over the lanes of a vector (D and L its double and mask types),
// compiled for processors with `features` and named with the suffix W.
#define CGS_DEFINE_COVERAGE(W, D, L, features) \
    __attribute__((target(features), always_inline)) \
    static inline D vmax##W(D a, D b) { return b >= a ? b : a; } \
    __attribute__((target(features), always_inline)) \
    static inline D vmin##W(D a, D b) { return b < a ? b : a; } \
    \
    __attribute__((target(features), always_inline)) \
    static inline D distance##W(const cgs_rrect *s, D px, D py) { \
        D qx = px - s->cx, qy = py - s->cy; \
        D r = qx < 0 ? (qy < 0 ? (D)s->r0 : (D)s->r2) : (qy < 0 ? (D)s->r1 : (D)s->r3); \
        D ax = __builtin_elementwise_abs(qx), ay = __builtin_elementwise_abs(qy); \
        D dx = ax - s->hx + r, dy = ay - s->hy + r; \
        D zero = 0; \
        D ox = vmax##W(dx, zero), oy = vmax##W(dy, zero); \
        /* Beside a straight side one of ox, oy is +0 and the root is the other: √(x·x + 0) is */ \
        /* x exactly for x = 0 or of a normal, finite square (in binary floating point a */ \
        /* square's correctly rounded root is the number itself), so the divider is spared */ \
        /* unless a lane is near a corner. */ \
        const D tiny = 0x1p-500, huge = 0x1p500; \
        L rootx = (oy == zero) & ((ox == zero) | ((ox >= tiny) & (ox <= huge))); \
        L rooty = (ox == zero) & ((oy >= tiny) & (oy <= huge)); \
        L corner = ~(rootx | rooty); \
        D outside = rootx ? ox : oy; \
        if (__builtin_reduce_or(corner)) outside = corner ? __builtin_elementwise_sqrt(ox * ox + oy * oy) : outside; \
        return outside + vmin##W(vmax##W(dx, dy), zero) - r; \
    } \
    \
    /* `unit`: the pixel is one layer unit, and d / 1 is d exactly (the division is left out). */ \
    __attribute__((target(features), always_inline)) \
    static inline D coverage##W(const cgs_rrect *s, D px, D py, double pixel, int antialias, int unit) { \
        D d = distance##W(s, px, py); \
        if (!antialias && !s->rounded) return d < 0 ? (D)1 : (D)0; \
        return vmin##W(vmax##W(0.5 - (unit ? d : d / pixel), (D)0), (D)1); \
    }

typedef float f8 __attribute__((ext_vector_type(8)));
// Eight lanes compiled for AVX2 (two registers) and for AVX-512 (one): a function that takes a
// vector of eight doubles must be compiled for its callers' processor (the argument is passed
// in registers of that width); all are inlined, so the warning about that ABI is left out.
#pragma clang diagnostic ignored "-Wpsabi"
CGS_DEFINE_COVERAGE(4, d4, l4, "avx2")
CGS_DEFINE_COVERAGE(8, d8, l8, "avx2")
CGS_DEFINE_COVERAGE(8_wide, d8, l8, "avx512f,avx512bw,avx512vl")

__attribute__((target("avx2"), always_inline))
static inline void row_avx2_with(float *out, long x0, long n, double y, const double *m, const cgs_rrect *shape,
                                 const cgs_rrect *hole, double pixel, int antialias, int unit) {
    long i = 0;
    const d4 steps = {0, 1, 2, 3};
    // Edge spans are short: the last group of four is computed whole and only its first pixels
    // kept, rather than one pixel at a time (the lanes past the span are harmless arithmetic).
    for (; i < n; i += 4) {
        d4 x = ((d4)(double)(x0 + i) + steps) + 0.5;
        d4 qx = x * m[0] + y * m[2] + m[4], qy = x * m[1] + y * m[3] + m[5];
        d4 c = coverage4(shape, qx, qy, pixel, antialias, unit);
        if (hole) {
            d4 h = coverage4(hole, qx, qy, pixel, antialias, unit);
            c = c == 0 ? (d4)0 : vmax4((d4)0, c - h);
        }
        // Stored lane by lane (a loop over the kept lanes became a call to memmove).
        long k = n - i;
        out[i] = (float)c.x;
        if (k > 1) out[i + 1] = (float)c.y;
        if (k > 2) out[i + 2] = (float)c.z;
        if (k > 3) out[i + 3] = (float)c.w;
    }
}

__attribute__((target("avx2")))
static void row_avx2(float *out, long x0, long n, double y, const double *m, const cgs_rrect *shape, const cgs_rrect *hole,
                     double pixel, int antialias) {
    if (pixel == 1) row_avx2_with(out, x0, n, y, m, shape, hole, pixel, antialias, 1);
    else row_avx2_with(out, x0, n, y, m, shape, hole, pixel, antialias, 0);
}
#endif

void cgs_rrect_row_using(int variant, float *out, long x0, long n, double y, const double *m, const cgs_rrect *shape,
                         const cgs_rrect *hole, double pixel, int antialias) {
#if defined(__x86_64__)
    if (variant >= 2 && cgs_avx2) { row_avx2(out, x0, n, y, m, shape, hole, pixel, antialias); return; }
#endif
    row_scalar(out, x0, n, y, m, shape, hole, pixel, antialias, 0);
}

void cgs_rrect_row(float *out, long x0, long n, double y, const double *m, const cgs_rrect *shape, const cgs_rrect *hole,
                   double pixel, int antialias) {
    cgs_rrect_row_using(2, out, x0, n, y, m, shape, hole, pixel, antialias);
}

// The edge columns x0 ..< x1 of a row: exact coverage in chunks, blended.
static void fill_edges(uint32_t *row, long x0, long x1, double y, const double *m, const cgs_rrect *shape, double pixel,
                       const float *c) {
    float cov[256];
    while (x0 < x1) {
        long n = x1 - x0 < 256 ? x1 - x0 : 256;
        cgs_rrect_row(cov, x0, n, y, m, shape, NULL, pixel, 1);
        cgs_blend_coverage(row + x0, cov, n, c[0], c[1], c[2], c[3]);
        x0 += n;
    }
}

#if defined(__x86_64__)
// Four edge pixels' coverages c (the first k of them in the run) blended as `cgs_blend_coverage`
// blends them (the float each is stored as, the colour term s·c and factor 1 − a·c/255), each
// above 0 — one pixel at a time, or (`wide_group`) the four in one 512-bit register, a channel
// per float, with the same float operations per channel: s·c, 1 − a·c/255 per pixel spread over
// its channels, then s·c + d·(1 − a·c/255) + 0.5.
__attribute__((target("avx2"), always_inline))
static inline void narrow_group(uint32_t *p, f4 c, long k, f4 s, float a) {
    for (long i = 0; i < k; i++) {
        float v = c[i];
        if (v > 0.0f) p[i] = over(p[i], s * v, 1.0f - a * v / 255.0f);
    }
}

__attribute__((target("avx512f,avx512bw,avx512vl"), always_inline))
static inline void wide_group(uint32_t *p, f4 c, long k, f4 s4, float a) {
    const __m512 s = _mm512_setr_ps(s4.x, s4.y, s4.z, s4.w, s4.x, s4.y, s4.z, s4.w, s4.x, s4.y, s4.z, s4.w, s4.x, s4.y, s4.z, s4.w);
    const __m512i spread = _mm512_setr_epi32(0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3);
    __m128 cv = (__m128)c;
    __mmask8 lanes = (__mmask8)(_mm_movemask_ps(_mm_cmpgt_ps(cv, _mm_setzero_ps())) & ((1 << k) - 1));
    if (!lanes) return;
    __m128 inv = _mm_sub_ps(_mm_set1_ps(1.0f), _mm_div_ps(_mm_mul_ps(_mm_set1_ps(a), cv), _mm_set1_ps(255.0f)));
    __m512 c16 = _mm512_permutexvar_ps(spread, _mm512_castps128_ps512(cv));
    __m512 i16 = _mm512_permutexvar_ps(spread, _mm512_castps128_ps512(inv));
    __m128i d = _mm_maskz_loadu_epi32(lanes, p);
    __m512 o = _mm512_add_ps(_mm512_add_ps(_mm512_mul_ps(s, c16), _mm512_mul_ps(_mm512_cvtepi32_ps(_mm512_cvtepu8_epi32(d)), i16)),
                             _mm512_set1_ps(0.5f));
    _mm_mask_storeu_epi32(p, lanes, _mm512_cvtepi32_epi8(_mm512_cvttps_epi32(_mm512_min_ps(o, _mm512_set1_ps(255.0f)))));
}

// The edge runs of many rows, their coverages computed together. A run is short (a turned
// side crosses a row in a few pixels) and its coverage a long chain of dependent steps (the
// map, the distance, its root, the division); run by run, the processor waits on each chain.
// Gathered — each pixel's centre kept — the coverages are computed eight independent pixels
// per vector, the same operations on the same centres (the same bits), then each run blended.
#define CGS_EDGE_PIXELS 256
#define CGS_EDGE_RUNS 64
typedef struct { uint32_t *row; long lo, hi, at; } edge_run;
typedef struct {
    double x[CGS_EDGE_PIXELS], y[CGS_EDGE_PIXELS];
    float cov[CGS_EDGE_PIXELS + 4];   // a run's last group reads up to three past it (unused lanes)
    edge_run runs[CGS_EDGE_RUNS];
    long n, count;
} edge_batch;

// Defines, for blends by `group` and eight coverages by `cover8`, compiled for `features`:
// - fused_edges##W: the edge columns x0 ..< x1 of a row, four at a time, `coverage4`'s
//   coverages blended without a buffer or a call per run (`unit`: a constant);
// - edges_flush##W: the gathered pixels' coverages, then each run blended; the batch left empty;
// - edges_add##W: the run lo ..< hi of `row` (centres at cy) added to the batch, flushed when full.
#define CGS_DEFINE_EDGES(W, group, cover8, features) \
    __attribute__((target(features))) \
    static inline void fused_edges##W(uint32_t *row, long x0, long x1, double y, const double *m, const cgs_rrect *shape, \
                                      double pixel, f4 s, float a, int unit) { \
        const d4 steps = {0, 1, 2, 3}; \
        for (long x = x0; x < x1; x += 4) { \
            d4 xs = ((d4)(double)x + steps) + 0.5; \
            d4 qx = xs * m[0] + y * m[2] + m[4], qy = xs * m[1] + y * m[3] + m[5]; \
            f4 c = __builtin_convertvector(coverage4(shape, qx, qy, pixel, 1, unit), f4); \
            group(row + x, c, x1 - x < 4 ? x1 - x : 4, s, a); \
        } \
    } \
    \
    __attribute__((target(features))) \
    static void edges_flush##W(edge_batch *e, const double *m, const cgs_rrect *shape, double pixel, f4 s, float a, \
                               int unit) { \
        if (e->n == 0) return; \
        /* Lanes past the last pixel repeat it (harmless arithmetic, stored past the runs). */ \
        for (long i = e->n; i % 8; i++) { e->x[i] = e->x[e->n - 1]; e->y[i] = e->y[e->n - 1]; } \
        for (long i = 0; i < e->n; i += 8) { \
            d8 xs, ys; \
            __builtin_memcpy(&xs, e->x + i, sizeof xs); \
            __builtin_memcpy(&ys, e->y + i, sizeof ys); \
            d8 qx = xs * m[0] + ys * m[2] + m[4], qy = xs * m[1] + ys * m[3] + m[5]; \
            f8 c = __builtin_convertvector(unit ? cover8(shape, qx, qy, pixel, 1, 1) : cover8(shape, qx, qy, pixel, 1, 0), f8); \
            __builtin_memcpy(e->cov + i, &c, sizeof c); \
        } \
        for (long r = 0; r < e->count; r++) { \
            const edge_run *run = &e->runs[r]; \
            for (long x = run->lo; x < run->hi; x += 4) { \
                f4 c; \
                __builtin_memcpy(&c, e->cov + run->at + (x - run->lo), sizeof c); \
                group(run->row + x, c, run->hi - x < 4 ? run->hi - x : 4, s, a); \
            } \
        } \
        e->n = e->count = 0; \
    } \
    \
    __attribute__((target(features))) \
    static inline void edges_add##W(edge_batch *e, uint32_t *row, long lo, long hi, double cy, const double *m, \
                                    const cgs_rrect *shape, double pixel, f4 s, float a, int unit) { \
        while (lo < hi) { \
            if (e->n == CGS_EDGE_PIXELS || e->count == CGS_EDGE_RUNS) edges_flush##W(e, m, shape, pixel, s, a, unit); \
            long take = hi - lo < CGS_EDGE_PIXELS - e->n ? hi - lo : CGS_EDGE_PIXELS - e->n; \
            e->runs[e->count++] = (edge_run){row, lo, lo + take, e->n}; \
            for (long x = lo; x < lo + take; x++) { e->x[e->n] = (double)x + 0.5; e->y[e->n] = cy; e->n++; } \
            lo += take; \
        } \
    }

CGS_DEFINE_EDGES(, narrow_group, coverage8, "avx2")
CGS_DEFINE_EDGES(_wide, wide_group, coverage8_wide, "avx512f,avx512bw,avx512vl")

// Under a map without rotation or shear (m[1] = m[2] = 0) a column's coverage depends on the row
// only through qy. Where, at each column of an edge run, dy = |qy − cy| − hy + r < 0 and dy < dx
// (the straight stretch between the corners), `distance4` takes oy = +0 and max(dx, dy) = dx:
// every operation sees the operands it saw in another such row on the same side of the centre
// (which picks r), so the run's coverages are the same bits and are kept and reused; only
// their blends, which read the row, are done again (as `fused_edges` does them). The kept run
// also keeps the largest r and the smallest dx of its columns: a row whose dy with that r is
// below 0 and that dx qualifies at every column (dy grows with r), a test of a few operations.
// Coverages of only 0 and 1 (a side on whole pixels) make an opaque colour's blends stores of its
// word: `over` at coverage 1 with a = 255 leaves the colour rounded, the word the full run stores.
typedef struct { long lo, hi; int below, count, binary; double rmax, mindx; float cov[8]; } edge_memo;

/// The run lo ..< hi of the row with centres at y from `mm`, when it holds that run and the row
/// qualifies (1); else 0 and nothing is painted.
static inline int memo_reuse(const edge_memo *mm, uint32_t *row, long lo, long hi, double y, const double *m,
                             const cgs_rrect *shape, f4 s, float a, uint32_t word, int opaque) {
    long n = hi - lo;
    if (mm->count != n || mm->lo != lo || mm->hi != hi || n <= 0) return 0;
    double py = (((double)lo + 0.5) * m[1] + y * m[3] + m[5]) - shape->cy;
    if ((py < 0) != mm->below) return 0;
    double dy = __builtin_fabs(py) - shape->hy + mm->rmax;
    if (!(dy < 0 && dy < mm->mindx)) return 0;
    if (opaque && mm->binary) {
        for (long i = 0; i < n; i++) if (mm->cov[i] > 0.0f) row[lo + i] = word;
        return 1;
    }
    for (long i = 0; i < n; i++) {
        float v = mm->cov[i];
        if (v > 0.0f) row[lo + i] = over(row[lo + i], s * v, 1.0f - a * v / 255.0f);
    }
    return 1;
}

// The run lo ..< hi through `fused_edges` (or its wide form), or, in a straight stretch, its
// coverages worked out into `mm` and blended from there.
__attribute__((target("avx2")))
static void memo_edges(edge_memo *mm, uint32_t *row, long lo, long hi, double y, const double *m,
                       const cgs_rrect *shape, double pixel, f4 s, float a, uint32_t word, int opaque, int unit, int wide) {
    long n = hi - lo;
    if (n <= 0) return;
    // qy as each lane of `coverage4` computes it (x·m[1] is a zero of the same sign in every lane).
    double py = (((double)lo + 0.5) * m[1] + y * m[3] + m[5]) - shape->cy;
    int below = py < 0;
    double rmax = 0, mindx = __builtin_inf();
    for (long i = 0; i < n && i < 8; i++) {
        double px = (((double)(lo + i) + 0.5) * m[0] + y * m[2] + m[4]) - shape->cx;
        double r = px < 0 ? (below ? shape->r0 : shape->r2) : (below ? shape->r1 : shape->r3);
        double dx = __builtin_fabs(px) - shape->hx + r;
        rmax = r > rmax ? r : rmax;
        mindx = dx < mindx ? dx : mindx;
    }
    // `memo_reuse`'s test: every column's dy is at most this one.
    double dy = __builtin_fabs(py) - shape->hy + rmax;
    mm->count = 0;
    if (n <= 8 && dy < 0 && dy < mindx) {
        const d4 steps = {0, 1, 2, 3};
        for (long g = 0; g < n; g += 4) {
            d4 xs = ((d4)(double)(lo + g) + steps) + 0.5;
            d4 qx = xs * m[0] + y * m[2] + m[4], qy = xs * m[1] + y * m[3] + m[5];
            f4 c = __builtin_convertvector(coverage4(shape, qx, qy, pixel, 1, unit), f4);
            for (long k = 0; k < 4 && g + k < n; k++) mm->cov[g + k] = c[k];
        }
        int binary = 1;
        for (long i = 0; i < n; i++) binary &= mm->cov[i] == 0.0f || mm->cov[i] == 1.0f;
        mm->lo = lo; mm->hi = hi; mm->below = below; mm->count = (int)n; mm->binary = binary;
        mm->rmax = rmax; mm->mindx = mindx;
        // The same test passed above, so the kept run paints the row; a failure (not reached)
        // would paint it the usual way below.
        if (memo_reuse(mm, row, lo, hi, y, m, shape, s, a, word, opaque)) return;
        mm->count = 0;
    }
    if (wide) fused_edges_wide(row, lo, hi, y, m, shape, pixel, s, a, unit);
    else fused_edges(row, lo, hi, y, m, shape, pixel, s, a, unit);
}
#else
static inline void fused_edges(uint32_t *row, long x0, long x1, double y, const double *m, const cgs_rrect *shape,
                               double pixel, f4 s, float a, int unit) {}
static inline void fused_edges_wide(uint32_t *row, long x0, long x1, double y, const double *m, const cgs_rrect *shape,
                                    double pixel, f4 s, float a, int unit) {}
typedef struct { int count; } edge_memo;
static inline int memo_reuse(const edge_memo *mm, uint32_t *row, long lo, long hi, double y, const double *m,
                             const cgs_rrect *shape, f4 s, float a, uint32_t word, int opaque) { return 0; }
static inline void memo_edges(edge_memo *mm, uint32_t *row, long lo, long hi, double y, const double *m,
                              const cgs_rrect *shape, double pixel, f4 s, float a, uint32_t word, int opaque, int unit,
                              int wide) {}
typedef struct { long n, count; } edge_batch;
static inline void edges_flush(edge_batch *e, const double *m, const cgs_rrect *shape, double pixel, f4 s, float a, int unit) {}
static inline void edges_flush_wide(edge_batch *e, const double *m, const cgs_rrect *shape, double pixel, f4 s, float a,
                                    int unit) {}
static inline void edges_add(edge_batch *e, uint32_t *row, long lo, long hi, double cy, const double *m,
                             const cgs_rrect *shape, double pixel, f4 s, float a, int unit) {}
static inline void edges_add_wide(edge_batch *e, uint32_t *row, long lo, long hi, double cy, const double *m,
                                  const cgs_rrect *shape, double pixel, f4 s, float a, int unit) {}
#endif

/// Interior pixels blended in floats before a translucent colour's integer plan is made (the
/// plan's check of every byte costs about as much as blending a few hundred pixels).
static const long plan_after = 256;

// `cgs_fill_rrect`'s rows, with the edge runs of `edges` (a constant where it is instantiated:
// 0 the portable kernels through their calls, 1 AVX2 fused, 1-unit pixels; 2 AVX2 fused; 3 and
// 4 the same with AVX-512 blends).
__attribute__((always_inline))
static inline void fill_rows(uint32_t *first, long stride, long x0, long y0, long x1, long y1, const double *m,
                             const cgs_rrect *shape, double pixel, float r, float g, float b, float a, uint32_t word, int opaque,
                             int edges) {
    const float colour[4] = {r, g, b, a};
    const f4 s = {b, g, r, a};
    span_plan plan;
    spans_init(&plan, shape, m, pixel, x0, x1);
    // Without rotation or shear, the runs beside the full run keep their coverages (`memo_edges`).
    const int aligned = m[1] == 0 && m[2] == 0;
    edge_memo memos[2] = {{0}, {0}};
    cgs_span_blend span;
    // A box of eight times that many pixels (whose inside is then most likely larger) plans first.
    long interior = (x1 - x0) * (y1 - y0) >= 8 * plan_after ? plan_after : 0;
    int planned = 0;
    span_rows spans;
    // Turned or sheared maps gather their edge runs (`edge_batch`); unturned ones keep theirs.
    const int gather = edges && !aligned, unit = edges == 1 || edges == 3;
    edge_batch batch;
    batch.n = 0;
    batch.count = 0;
    for (long y = y0; y < y1; y++) {
        long k = (y - y0) % CGS_SPAN_BATCH;
        if (k == 0) spans_solve(&plan, y, &spans);
        long o0 = spans.o0[k], o1 = spans.o1[k], f0 = spans.f0[k], f1 = spans.f1[k];
        if (o0 >= o1) continue;
        double cy = (double)y + 0.5;
        uint32_t *row = first + (y - y0) * stride;
#define CGS_EDGES(lo, hi) (edges == 1 ? fused_edges(row, lo, hi, cy, m, shape, pixel, s, a, 1) \
                          : edges == 2 ? fused_edges(row, lo, hi, cy, m, shape, pixel, s, a, 0) \
                          : edges == 3 ? fused_edges_wide(row, lo, hi, cy, m, shape, pixel, s, a, 1) \
                          : edges == 4 ? fused_edges_wide(row, lo, hi, cy, m, shape, pixel, s, a, 0) \
                                       : fill_edges(row, lo, hi, cy, m, shape, pixel, colour))
#define CGS_ADD(lo, hi) (edges >= 3 ? edges_add_wide(&batch, row, lo, hi, cy, m, shape, pixel, s, a, unit) \
                                : edges_add(&batch, row, lo, hi, cy, m, shape, pixel, s, a, unit))
        // A run beside the full run: its coverages kept from row to row where the map allows.
#define CGS_SIDE(memo, lo, hi) do { \
            if (gather) CGS_ADD(lo, hi); \
            else if (!edges || !aligned) CGS_EDGES(lo, hi); \
            else if (!memo_reuse(&memo, row, lo, hi, cy, m, shape, s, a, word, opaque)) \
                memo_edges(&memo, row, lo, hi, cy, m, shape, pixel, s, a, word, opaque, unit, \
                           edges >= 3); \
        } while (0)
        if (f0 >= f1) {
            if (gather) CGS_ADD(o0, o1);
            else CGS_EDGES(o0, o1);
            continue;
        }
        CGS_SIDE(memos[0], o0, f0);
        if (opaque) {
            cgs_fill_u32(row + f0, word, (size_t)(f1 - f0));
        } else {
            // The interior's blend in integers once enough of it is painted to pay for the plan.
            if (!planned && (interior += f1 - f0) >= plan_after) { cgs_span_blend_init(&span, r, g, b, a); planned = 1; }
            if (planned) cgs_span_blend_run_using(edges >= 3 ? 3 : edges ? 2 : 0, &span, row + f0, f1 - f0);
            else cgs_blend_span(row + f0, f1 - f0, r, g, b, a);
        }
        CGS_SIDE(memos[1], f1, o1);
#undef CGS_SIDE
#undef CGS_ADD
#undef CGS_EDGES
    }
    if (gather && edges >= 3) edges_flush_wide(&batch, m, shape, pixel, s, a, unit);
    else if (gather) edges_flush(&batch, m, shape, pixel, s, a, unit);
}

#if defined(__x86_64__)
__attribute__((target("avx2")))
static void fill_rows_avx2(uint32_t *first, long stride, long x0, long y0, long x1, long y1, const double *m,
                           const cgs_rrect *shape, double pixel, float r, float g, float b, float a, uint32_t word, int opaque) {
    if (pixel == 1) fill_rows(first, stride, x0, y0, x1, y1, m, shape, pixel, r, g, b, a, word, opaque, 1);
    else fill_rows(first, stride, x0, y0, x1, y1, m, shape, pixel, r, g, b, a, word, opaque, 2);
}

__attribute__((target("avx512f,avx512bw,avx512vl")))
static void fill_rows_avx512(uint32_t *first, long stride, long x0, long y0, long x1, long y1, const double *m,
                             const cgs_rrect *shape, double pixel, float r, float g, float b, float a, uint32_t word, int opaque) {
    if (pixel == 1) fill_rows(first, stride, x0, y0, x1, y1, m, shape, pixel, r, g, b, a, word, opaque, 3);
    else fill_rows(first, stride, x0, y0, x1, y1, m, shape, pixel, r, g, b, a, word, opaque, 4);
}
#endif

void cgs_fill_rrect_using(int variant, uint32_t *first, long stride, long x0, long y0, long x1, long y1, const double *m,
                          const cgs_rrect *shape, double pixel, float r, float g, float b, float a, uint32_t word, int opaque) {
    // A map with a term that is not finite maps no pixel centre to a number: nothing is covered
    // (its NaN clips would otherwise pass every column).
    for (int i = 0; i < 6; i++) if (!(m[i] - m[i] == 0)) return;
#if defined(__x86_64__)
    if (variant >= 3 && cgs_avx512) { fill_rows_avx512(first, stride, x0, y0, x1, y1, m, shape, pixel, r, g, b, a, word, opaque); return; }
    if (variant >= 2 && cgs_avx2) { fill_rows_avx2(first, stride, x0, y0, x1, y1, m, shape, pixel, r, g, b, a, word, opaque); return; }
#endif
    fill_rows(first, stride, x0, y0, x1, y1, m, shape, pixel, r, g, b, a, word, opaque, 0);
}

void cgs_fill_rrect(uint32_t *first, long stride, long x0, long y0, long x1, long y1, const double *m, const cgs_rrect *shape,
                    double pixel, float r, float g, float b, float a, uint32_t word, int opaque) {
    cgs_fill_rrect_using(3, first, stride, x0, y0, x1, y1, m, shape, pixel, r, g, b, a, word, opaque);
}
