#include "kernels.h"
#include "cgsupport.h"

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
__attribute__((target("avx2")))
static inline d4 vmax(d4 a, d4 b) { return b >= a ? b : a; }
__attribute__((target("avx2")))
static inline d4 vmin(d4 a, d4 b) { return b < a ? b : a; }

__attribute__((target("avx2")))
static inline d4 distance4(const cgs_rrect *s, d4 px, d4 py) {
    d4 qx = px - s->cx, qy = py - s->cy;
    d4 r = qx < 0 ? (qy < 0 ? (d4)s->r0 : (d4)s->r2) : (qy < 0 ? (d4)s->r1 : (d4)s->r3);
    d4 ax = __builtin_elementwise_abs(qx), ay = __builtin_elementwise_abs(qy);
    d4 dx = ax - s->hx + r, dy = ay - s->hy + r;
    d4 zero = 0;
    d4 ox = vmax(dx, zero), oy = vmax(dy, zero);
    d4 outside = __builtin_elementwise_sqrt(ox * ox + oy * oy);
    return outside + vmin(vmax(dx, dy), zero) - r;
}

__attribute__((target("avx2")))
static inline d4 coverage4(const cgs_rrect *s, d4 px, d4 py, double pixel, int antialias) {
    d4 d = distance4(s, px, py);
    if (!antialias && !s->rounded) return d < 0 ? (d4)1 : (d4)0;
    return vmin(vmax(0.5 - d / pixel, (d4)0), (d4)1);
}

__attribute__((target("avx2")))
static void row_avx2(float *out, long x0, long n, double y, const double *m, const cgs_rrect *shape, const cgs_rrect *hole,
                     double pixel, int antialias) {
    long i = 0;
    const d4 steps = {0, 1, 2, 3};
    // Edge spans are short: the last group of four is computed whole and only its first pixels
    // kept, rather than one pixel at a time (the lanes past the span are harmless arithmetic).
    for (; i < n; i += 4) {
        d4 x = ((d4)(double)(x0 + i) + steps) + 0.5;
        d4 qx = x * m[0] + y * m[2] + m[4], qy = x * m[1] + y * m[3] + m[5];
        d4 c = coverage4(shape, qx, qy, pixel, antialias);
        if (hole) {
            d4 h = coverage4(hole, qx, qy, pixel, antialias);
            c = c == 0 ? (d4)0 : vmax((d4)0, c - h);
        }
        // Stored lane by lane (a loop over the kept lanes became a call to memmove).
        long k = n - i;
        out[i] = (float)c.x;
        if (k > 1) out[i + 1] = (float)c.y;
        if (k > 2) out[i + 2] = (float)c.z;
        if (k > 3) out[i + 3] = (float)c.w;
    }
}
#endif

void cgs_rrect_row_using(int variant, float *out, long x0, long n, double y, const double *m, const cgs_rrect *shape,
                         const cgs_rrect *hole, double pixel, int antialias) {
#if defined(__x86_64__)
    if (variant == 2 && cgs_avx2) { row_avx2(out, x0, n, y, m, shape, hole, pixel, antialias); return; }
#endif
    row_scalar(out, x0, n, y, m, shape, hole, pixel, antialias, 0);
}

void cgs_rrect_row(float *out, long x0, long n, double y, const double *m, const cgs_rrect *shape, const cgs_rrect *hole,
                   double pixel, int antialias) {
    cgs_rrect_row_using(2, out, x0, n, y, m, shape, hole, pixel, antialias);
}
