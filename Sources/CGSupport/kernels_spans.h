#ifndef CGS_KERNELS_SPANS_H
#define CGS_KERNELS_SPANS_H
// The row spans of a rounded rect through an affine map (`cgs_fill_rrect`), eight rows at once
// (not part of the module's interface; included by kernels_coverage.c).
//
// Reads: the shape, the inverse map, the pixel size and the columns of the box.
// Produces, per row: the columns whose centres lie in the rect grown by half a pixel (where
// coverage can be above 0: the outer span o0 ..< o1, as `RowMap` solves it in Swift) and the
// columns at least half a pixel inside the shape, where coverage is exactly 1 (the full run
// f0 ..< f1, within the outer span; empty when f0 ≥ f1). The shape inset by half a pixel is
// convex and holds the cross of the rect inset by the corner radius one way and half a pixel the
// other (`SpanRects`) and the corners' disks (with equal radii it is their union), so it holds
// the hull of a row's chords of those, rounded inwards to whole columns. The spans only sort
// pixels: a pixel left out of a full run goes through the exact coverage, which gives it 1 and
// the same blend, and one added to the outer span gets 0 and is left alone; so they need not be
// exact, only on the safe side, which margins a hundred times the Swift ones keep (the disks'
// radii a relative 1e-9 smaller).
//
// Every step is the same arithmetic in each row, so the rows of a batch are the lanes of one
// vector: a row's chain of dependent steps (its line, the clips, a disk's square root, the
// rounding to columns) is long, and eight of them side by side keep the processor busy where
// one row at a time waited on each.
#include <stdint.h>

// The helpers below take and return vectors of eight lanes; they are always inlined into the
// kernels compiled for each processor, so no call passes a vector (the warning's ABI question
// never arises).
#pragma clang diagnostic push
#pragma clang diagnostic ignored "-Wpsabi"

typedef double d8 __attribute__((ext_vector_type(8)));
typedef long l8 __attribute__((ext_vector_type(8)));

/// Rows solved at once.
#define CGS_SPAN_BATCH 8

typedef struct { double minX, minY, maxX, maxY; int empty; } span_rect;

/// A rounded corner's disk of full coverage: the points within `rho` (its radius less half a
/// pixel, less a margin) of its centre, which the corner's rows add to the cross's full run.
typedef struct { double cx, cy, rho; } corner_disk;

/// What `spans_solve` reads: the regions, the map's column step (dx, dy) with its reciprocals,
/// and the box's columns lo ..< hi.
typedef struct {
    span_rect grown, wide, tall;
    corner_disk disks[4];
    int count;
    double m[6];
    double dx, dy, idx, idy, inv_area, inv_length;
    double lo, hi;
} span_plan;

/// One batch's rows: row k's outer span o0[k] ..< o1[k] and full run f0[k] ..< f1[k].
typedef struct { long o0[CGS_SPAN_BATCH], o1[CGS_SPAN_BATCH], f0[CGS_SPAN_BATCH], f1[CGS_SPAN_BATCH]; } span_rows;

static inline span_rect inset_rect(const cgs_rrect *s, double dx, double dy) {
    span_rect r = {s->cx - s->hx + dx, s->cy - s->hy + dy, s->cx + s->hx - dx, s->cy + s->hy - dy, 0};
    r.empty = !(r.maxX > r.minX && r.maxY > r.minY);
    return r;
}

static inline void spans_init(span_plan *p, const cgs_rrect *shape, const double *m, double pixel, long lo, long hi) {
    double e = pixel / 2;
    const double radii[4] = {shape->r0, shape->r1, shape->r2, shape->r3};
    // max(max(max(r0, r1), max(r2, r3)), e), with Swift's max.
    double r01 = radii[1] >= radii[0] ? radii[1] : radii[0], r23 = radii[3] >= radii[2] ? radii[3] : radii[2];
    double radius = r23 >= r01 ? r23 : r01;
    radius = e >= radius ? e : radius;
    p->grown = inset_rect(shape, -e, -e);
    p->wide = inset_rect(shape, radius, e);
    p->tall = inset_rect(shape, e, radius);
    if (!shape->rounded) p->tall.empty = 1;
    for (int i = 0; i < 6; i++) p->m[i] = m[i];
    // A step too small to divide by (subnormal: its reciprocal overflows) is taken as 0, so that
    // a clip's bound is never a NaN (ignored, which would widen the full run).
    p->dx = __builtin_fabs(m[0]) < 0x1p-1022 ? 0 : m[0];
    p->dy = __builtin_fabs(m[1]) < 0x1p-1022 ? 0 : m[1];
    p->idx = 1 / p->dx; p->idy = 1 / p->dy;
    p->lo = (double)lo; p->hi = (double)hi;
    // The corners' disks (radius above half a pixel), which with the cross make up the whole
    // region of full coverage. The margin keeps them a relative 1e-9 inside.
    p->count = 0;
    for (int q = 0; q < 4; q++) {
        double rq = radii[q], rho = rq - e;
        // A radius above half the shorter side (which `RoundedRect` never makes) would put the
        // disk partly outside the shape: such a corner adds nothing to the full run.
        if (!(rho > 0) || !(rq <= shape->hx && rq <= shape->hy)) continue;
        double cx = q & 1 ? shape->cx + shape->hx - rq : shape->cx - shape->hx + rq;
        double cy = q & 2 ? shape->cy + shape->hy - rq : shape->cy - shape->hy + rq;
        rho -= 1e-9 * (__builtin_fabs(cx) + __builtin_fabs(cy) + rq);
        if (rho > 0) p->disks[p->count++] = (corner_disk){cx, cy, rho};
    }
    double area = m[0] * m[0] + m[1] * m[1];
    p->inv_area = 1 / area;
    p->inv_length = 1 / __builtin_sqrt(area);
    if (!(area > 0) || p->inv_area != p->inv_area || p->inv_length != p->inv_length) p->count = 0;
}

/// Intersects [*lo, *hi] with the real columns i where p + q·i ≥ 0 (iq = 1/q); q is the same in
/// every row, so its sign is a branch and p the rows' lanes.
__attribute__((always_inline))
static inline void clip_columns(d8 p, double q, double iq, d8 *lo, d8 *hi) {
    if (q == 0) {
        l8 in = p >= 0;
        *lo = in ? *lo : (d8)1;
        *hi = in ? *hi : (d8)0;
    } else if (q > 0) {
        d8 t = -p * iq;
        *lo = t > *lo ? t : *lo;
    } else {
        d8 t = -p * iq;
        *hi = t < *hi ? t : *hi;
    }
}

/// The real interval [*a, *b] of columns whose centres map inside r, for rows whose column 0
/// has its centre at (x0, y0).
__attribute__((always_inline))
static inline void columns_inside(const span_plan *p, d8 x0, d8 y0, const span_rect *r, d8 *a, d8 *b) {
    d8 lo = -__builtin_inf(), hi = __builtin_inf();
    clip_columns(x0 - r->minX, p->dx, p->idx, &lo, &hi);
    clip_columns(r->maxX - x0, -p->dx, -p->idx, &lo, &hi);
    clip_columns(y0 - r->minY, p->dy, p->idy, &lo, &hi);
    clip_columns(r->maxY - y0, -p->dy, -p->idy, &lo, &hi);
    *a = lo; *b = hi;
}

/// Whole columns in [lo, hi) from the real interval [a, b]: widened (outer) or narrowed (inner)
/// by the margin, into *first ..< *last (whole numbers, as doubles).
__attribute__((always_inline))
static inline void whole_columns(d8 a, d8 b, int outer, double lo, double hi, d8 *first, d8 *last) {
    l8 unordered = (a != a) | (b != b), ordered = a <= b;
    d8 fa = __builtin_elementwise_abs(a), fb = __builtin_elementwise_abs(b);
    d8 big = fa > fb ? fa : fb;
    d8 margin = 1e-7 * (big > 1 ? big : (d8)1);
    if (outer) { a -= margin; b += margin; } else { a += margin; b -= margin; }
    d8 f = a <= lo ? (d8)lo : a >= hi ? (d8)hi : __builtin_elementwise_ceil(a);
    d8 l = b >= hi - 1 ? (d8)hi : b < lo ? (d8)lo : __builtin_elementwise_floor(b) + 1;
    l = l > f ? l : f;
    // An infinite end (a row parallel to two sides) makes an infinite margin: inner runs are then
    // empty, outer spans whole (never a NaN converted to a column).
    l8 lost = (a != a) | (b != b);
    f = lost ? (d8)lo : f;
    l = lost ? (d8)(outer ? hi : lo) : l;
    // An empty interval is no columns; an outer one with a NaN end (a degenerate map) is all.
    f = ordered ? f : (d8)lo;
    l = ordered ? l : (d8)lo;
    if (outer) {
        f = unordered ? (d8)lo : f;
        l = unordered ? (d8)hi : l;
    }
    *first = f; *last = l;
}

/// Adds the real interval [a, b] to the hull [*lo, *hi] in the rows of `hit` where it is not
/// empty (the region of full coverage, convex, holds the hull of its pieces' chords, so it is
/// rounded to whole columns once, not piece by piece).
__attribute__((always_inline))
static inline void hull(l8 hit, d8 a, d8 b, d8 *lo, d8 *hi) {
    l8 take = hit & (a <= b);
    *lo = (take & (a < *lo)) ? a : *lo;
    *hi = (take & (b > *hi)) ? b : *hi;
}

/// The spans of rows y ..< y + CGS_SPAN_BATCH (rows past the box's are harmless arithmetic).
__attribute__((always_inline))
static inline void spans_solve(const span_plan *p, long y, span_rows *out) {
    const d8 step = {0, 1, 2, 3, 4, 5, 6, 7};
    const double *m = p->m;
    d8 cy = ((d8)(double)y + step) + 0.5;
    // Column i's centre maps to (x0 + i·dx, y0 + i·dy).
    d8 x0 = 0.5 * m[0] + cy * m[2] + m[4], y0 = 0.5 * m[1] + cy * m[3] + m[5];
    d8 a, b, o0, o1;
    columns_inside(p, x0, y0, &p->grown, &a, &b);
    whole_columns(a, b, 1, p->lo, p->hi, &o0, &o1);
    // The full run: the hull of the row's runs in the cross's two arms and the corners' disks.
    d8 lo = __builtin_inf(), hi = -__builtin_inf(), f0, f1;
    const l8 every = -1;
    if (!p->wide.empty) { columns_inside(p, x0, y0, &p->wide, &a, &b); hull(every, a, b, &lo, &hi); }
    if (!p->tall.empty) { columns_inside(p, x0, y0, &p->tall, &a, &b); hull(every, a, b, &lo, &hi); }
    for (int q = 0; q < p->count; q++) {
        // The row's distance from the centre from a cross product, the chord from (ρ − h)(ρ + h),
        // which lose nothing to cancellation near a tangent (rows that miss take a NaN, unused).
        const corner_disk *k = &p->disks[q];
        d8 px = x0 - k->cx, py = y0 - k->cy;
        d8 h = __builtin_elementwise_abs(px * p->dy - py * p->dx) * p->inv_length;
        l8 hit = h < k->rho;
        if (!__builtin_reduce_or(hit)) continue;   // a corner away from these rows: no root
        d8 half = __builtin_elementwise_sqrt((k->rho - h) * (k->rho + h)) * p->inv_length;
        d8 foot = -(px * p->dx + py * p->dy) * p->inv_area;
        hull(hit, foot - half, foot + half, &lo, &hi);
    }
    // No piece leaves lo above hi: no columns.
    whole_columns(lo, hi, 0, p->lo, p->hi, &f0, &f1);
    f0 = f0 < o0 ? o0 : f0;
    f1 = f1 > o1 ? o1 : f1;
    l8 i0 = __builtin_convertvector(o0, l8), i1 = __builtin_convertvector(o1, l8);
    l8 j0 = __builtin_convertvector(f0, l8), j1 = __builtin_convertvector(f1, l8);
    for (int k = 0; k < CGS_SPAN_BATCH; k++) { out->o0[k] = i0[k]; out->o1[k] = i1[k]; out->f0[k] = j0[k]; out->f1[k] = j1[k]; }
}

#pragma clang diagnostic pop

#endif
