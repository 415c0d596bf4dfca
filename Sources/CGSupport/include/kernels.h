#ifndef CGS_KERNELS_H
#define CGS_KERNELS_H
// The compositor's C kernels (Sources/CGSupport/kernels_*.c). Rules:
// - A kernel is a loop over memory its caller owns and has sized; it allocates nothing, reads
//   no globals but the CPU features, and decides nothing (when a kernel applies, and every
//   limit, is the Swift caller's policy).
// - Each kernel reproduces a Swift definition named in its comment bit for bit; a test in
//   Tests/LayerRenderTests compares the two on random inputs.
// - Variants for wider vector units are chosen inside the kernel from `cgs_avx2` and give the
//   same bytes as the portable loop.
// - The path rasteriser's cell kernels (`cgs_place` and what it is built of, end of this file)
//   are inline, called once per piece of edge: they are the rasteriser's one definition of what
//   an edge deposits in its cells, not a copy of a Swift one; `cgs_edge_rows4` is tested against
//   `cgs_place` row by row.
#include <stdint.h>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

/// `Raster.lerpWord(top[i], bottom[i], w)` into `out[i]` for i < n: each byte channel
/// (t·(256 − w) + b·w + 128) >> 8, w in 0…256. Returns the AND of the results' alpha bytes
/// (255: every result is opaque). `out` may not overlap the inputs.
uint32_t cgs_lerp_rows(uint32_t *out, const uint32_t *top, const uint32_t *bottom, long n, uint32_t w);

/// `Raster.lerpWord(texels[left[i]], texels[right[i]], weight[i])` into `out[i]` for i < n
/// (one texel row lerped across pixel columns; every index lies in the row, weights in 0…256).
/// `increasing`: nonzero only when left and right never decrease along i and right[i] ≥
/// left[i] (a draw that is not mirrored; the kernel then skips checking each group's indices).
/// Returns the AND of the results' alpha bytes (255: every result is opaque).
uint32_t cgs_lerp_columns(uint32_t *out, const uint32_t *texels, const int32_t *left, const int32_t *right,
                          const uint32_t *weight, long n, int increasing);

/// One row of the sampled Gaussian (`ShadowBlur.blur`'s first pass): out[x] = Σ_j k[j]·line[x + j]
/// for x < n, j < taps, summed from zero in order of j. `line` holds n + taps − 1 floats.
void cgs_blur_row(float *out, const float *line, const float *k, long taps, long n);

/// The second pass over columns x0 ..< x0 + n into out[0 ..< n]: acc = Σ_j k[j]·rows[j][x] summed
/// from zero in order of j < count, then the byte ⌊min(acc + 0.5, 255)⌋ (every term ≥ 0). The
/// taps' rows are given one by one, so that equal rows may be one row.
void cgs_blur_columns(uint8_t *out, const float *const *rows, const float *k, long count, long x0, long n);

/// n pixels of native words (`src`) into a 32-bit layout whose red, green, blue and alpha bytes
/// sit at byte offsets order[0 … 3] of each pixel (`dst`); with `opaque` the alpha byte is 255
/// (`PixelLayout.convertFromNative`, premultiplied or no alpha).
void cgs_layout_from_native(uint8_t *dst, const uint32_t *src, long n, const int order[4], int opaque);

/// n pixels of that layout into native words: each colour byte at most the alpha byte, or the
/// alpha 255 with `opaque` (`PixelLayout.convertToNative`, premultiplied or no alpha).
void cgs_layout_to_native(uint32_t *dst, const uint8_t *src, long n, const int order[4], int opaque);

/// The run of bytes equal to p[at] that holds index `at`, among p[0 ..< n]: returns its first
/// index and sets *end past its last (an empty run at `at` when `at` is outside 0 ..< n).
long cgs_equal_run(const uint8_t *p, long n, long at, long *end);

/// out[i] = the alpha byte of row[i] (row[i] >> 24) for i < n — a shadow's plane from its
/// layer's pixels (`Raster.ShadowPlane`); returns the OR of the n alphas (0: all clear).
uint32_t cgs_alpha_bytes(uint8_t *out, const uint32_t *row, long n);

/// Whether any of p[0 ..< n] is nonzero (a blur's row with coverage).
int cgs_bytes_any(const uint8_t *p, long n);

/// out[i] = in[i] as a float, for i < n (the blur's rows, bytes to floats; vectorised by the compiler).
void cgs_bytes_to_floats(float *out, const uint8_t *in, long n);

/// `Raster.blend` of a shadow's colour over dst[i] for each i < n with alpha[i] ≠ 0, each
/// channel ⌊min(src[4a + c] + d_c·inv[a] + 0.5, 255)⌋ (channels b, g, r, a), where the caller's
/// 256-entry tables hold colour·cov(a) (4 floats each) and 1 − colourAlpha·cov(a)/255.
void cgs_shadow_span(uint32_t *dst, const uint8_t *alpha, long n, const float *src, const float *inv);

/// The first run of opaque pixels (alpha byte 255) of row[from ..< to]: its first column in
/// *start, the column after it returned; both `to` when there is none.
long cgs_opaque_run(const uint32_t *row, long from, long to, long *start);

/// A rounded rectangle as `RoundedRect.distance` reads it: centre, half sizes, corner radii
/// (minX-minY, maxX-minY, minX-maxY, maxX-maxY) and whether any radius is above 0.
typedef struct {
    double cx, cy, hx, hy, r0, r1, r2, r3;
    int rounded;
} cgs_rrect;

/// Coverage of pixels x0 ..< x0 + n of the pixel row whose centres have y (pixel + 0.5): each
/// centre mapped by the affine inverse m = (m0, m1, m3, m4, m6, m7) — x·m0 + y·m3 + m6,
/// x·m1 + y·m4 + m7 — then `RoundedRect.coverage` of `shape` (hard edges none), 0 where that is
/// 0, else less `hole`'s coverage (clamped at 0) when a hole is given; as floats into out[i].
void cgs_rrect_row(float *out, long x0, long n, double y, const double *m, const cgs_rrect *shape, const cgs_rrect *hole,
                   double pixel, int antialias);

/// `Raster.fill` of `shape` (no hole, no clips, hard edges none, antialiased) through the
/// affine inverse m (as `cgs_rrect_row` reads it) over columns x0 ..< x1 of rows y0 ..< y1, row y
/// at first + (y − y0)·stride: where coverage is exactly 1 `word` stored (`opaque`) or
/// (r, g, b, a) blended at coverage 1, elsewhere blended at the exact coverage where it is above 0.
/// A map with a term that is not finite covers nothing.
void cgs_fill_rrect(uint32_t *first, long stride, long x0, long y0, long x1, long y1, const double *m, const cgs_rrect *shape,
                    double pixel, float r, float g, float b, float a, uint32_t word, int opaque);

/// `Raster.blend(p + i, r, g, b, a, 1)` for i < n: premultiplied (r, g, b, a) in 0…255 over
/// each pixel at full coverage, each channel ⌊min(c + d·(1 − a·1/255) + 0.5, 255)⌋ in Float.
void cgs_blend_span(uint32_t *p, long n, float r, float g, float b, float a);

/// One premultiplied colour's blend at full coverage prepared for runs of pixels (kernels_span.c):
/// its float term (b, g, r, a; the factor 1 − a·1/255 follows from a) and, when `exact`, each
/// channel's 16-bit form — a destination byte d becomes ⌊(⌊d·m/2⁸⌋ + c)/2⁸⌋, checked equal to
/// the float blend at every d.
typedef struct {
    uint16_t m[4], c[4];
    float s[4];
    int exact;
} cgs_span_blend;

/// Prepares `cgs_span_blend_run` for premultiplied (r, g, b, a) in 0…255.
void cgs_span_blend_init(cgs_span_blend *plan, float r, float g, float b, float a);

/// `cgs_blend_span` of the plan's colour over p[0 ..< n] (the same bytes).
void cgs_span_blend_run(const cgs_span_blend *plan, uint32_t *p, long n);

/// `Raster.blend(p + i, r, g, b, a, cov[i])` for each i < n with cov[i] > 0: premultiplied
/// (r, g, b, a) in 0…255 over each pixel at its coverage.
void cgs_blend_coverage(uint32_t *p, const float *cov, long n, float r, float g, float b, float a);

/// `Raster.compositeRun` over n pixels: each source pixel s[i] (premultiplied) times `alpha`
/// over d[i] as `Raster.blend` computes it (transparent sources leave d[i] as it is).
void cgs_composite_span(uint32_t *d, const uint32_t *s, long n, float alpha);

/// Every pixel of the w × h box whose first row starts at p (rows `stride` words apart) set to
/// `word`: `cgs_fill_u32(p + y·stride, word, w)` for y < h.
void cgs_fill_box(uint32_t *p, long stride, long w, long h, uint32_t word);

/// A w × h box (first row at p, rows `stride` words apart) whose frame — rows y < top and
/// y ≥ h − bottom, columns x < left and x ≥ w − right — is set to `border` and the rest to
/// `fill`, row by row, as `cgs_fill_box` of the inside and of the frame's four strips would
/// leave it. Requires left + right ≤ w and top + bottom ≤ h, all non-negative.
void cgs_fill_framed_box(uint32_t *p, long stride, long w, long h, long left, long top, long right, long bottom,
                         uint32_t fill, uint32_t border);

/// A half-open box of frame pixels [x0, x1) × [y0, y1) (empty when x0 ≥ x1 or y0 ≥ y1).
typedef struct { int32_t x0, y0, x1, y1; } cgs_box;

/// Pixels addressed in frame coordinates: frame pixel (x, y) is pixels[(y − origin_y)·stride +
/// x − origin_x] (RenderTarget.swift).
typedef struct { uint32_t *pixels; long stride, origin_x, origin_y; } cgs_target;

/// A display item painted as opaque words on whole pixels (SolidRect.swift): a layer's background
/// and its border, or its border alone after its sublayers. Frame pixels.
typedef struct {
    cgs_box rect;       ///< the layer's bounds' pixels
    cgs_box inner;      ///< inside its border (empty: the border covers the rect)
    cgs_box limit;      ///< its context's limit (what its superlayers' clips leave)
    cgs_box touched;    ///< what it can touch within the limit (bands cull by it)
    cgs_box clip;       ///< its geometry's box within the limit (what it paints)
    uint32_t fill, border;
    uint8_t has_fill, has_border;
    uint8_t body;       ///< paints the background (a layer's item; counted and charged to the budget)
    uint8_t ring;       ///< paints the border
} cgs_solid;

/// One solid item's pixels within `box` (frame pixels, already within its clip): its background,
/// then its border over it, as storing each in turn would leave them (framed boxes in one pass).
void cgs_paint_solid(cgs_target target, const cgs_solid *item, cgs_box box);

/// What `cgs_paint_solids` did: pixels charged (background items' boxes), items painted
/// (background items), items culled (nothing to touch in the band).
typedef struct { long charged, painted, culled; } cgs_solid_tally;

/// Paints `count` solid items in order within `band`, as the band's item loop would one by one:
/// an item whose limit misses the band is passed over, one touching nothing there is culled, a
/// background item is charged its box and counted. Stops before the first background item that
/// would take `spent` (the band's pixels so far) past `budget`, and returns how many items it
/// went through (`count` when it did not stop); `tally` gets what it did.
long cgs_paint_solids(cgs_target target, const cgs_solid *items, long count, cgs_box band, long spent, long budget,
                      cgs_solid_tally *tally);

/// An image level drawn through a projective map, as `Raster.imageRow` reads it (ProjectiveRow.swift).
typedef struct {
    /// Device pixels → layer space, in `Homography.m`'s order.
    double m[9];
    /// The layer rect the image fills (its minX, minY, maxY), the source sub-rectangle's origin
    /// (full-size texels) and the full-size texels per layer unit.
    double destMinX, destMinY, destMaxY, sourceMinX, sourceMinY, sx, sy;
    /// The level's texels per full-size texel.
    double scaleX, scaleY;
    /// `Raster.AxisLimits` of each axis: lowest coordinate, highest, last texel index.
    double loU, topU, loV, topV;
    long lastU, lastV;
    const uint32_t *pixels;
    /// Texels from one row to the next.
    long stride;
    int flipped;
} cgs_image_map;

/// `Raster.imageRow` with bilinear sampling: out[i] for i < n is frame pixel x0 + i of the row
/// whose centres have y (pixel + 0.5), fully covered — the sample stored when `stores` and it is
/// opaque, else blended at `alpha`; pixels whose centre projects to infinity are left.
void cgs_image_row(uint32_t *out, long x0, long n, double y, const cgs_image_map *map, int stores, float alpha);

/// The kernels above through a chosen variant, for the tests that compare them: 0 the portable
/// loop, 1 SSE2 (x86-64; else portable), 2 AVX2 where the processor runs it (else SSE2), 3
/// AVX-512 where it runs that (else AVX2; `cgs_blend_span`, `cgs_span_blend_run`,
/// `cgs_fill_rrect`, `cgs_image_row`, `cgs_lerp_columns` and `cgs_fill_framed_box` only: the
/// other kernels' AVX-512 forms measured no faster).
void cgs_fill_framed_box_using(int variant, uint32_t *p, long stride, long w, long h, long left, long top, long right,
                               long bottom, uint32_t fill, uint32_t border);
uint32_t cgs_lerp_rows_using(int variant, uint32_t *out, const uint32_t *top, const uint32_t *bottom, long n, uint32_t w);
uint32_t cgs_lerp_columns_using(int variant, uint32_t *out, const uint32_t *texels, const int32_t *left,
                                const int32_t *right, const uint32_t *weight, long n, int increasing);
void cgs_blur_row_using(int variant, float *out, const float *line, const float *k, long taps, long n);
void cgs_rrect_row_using(int variant, float *out, long x0, long n, double y, const double *m, const cgs_rrect *shape,
                         const cgs_rrect *hole, double pixel, int antialias);
void cgs_blend_span_using(int variant, uint32_t *p, long n, float r, float g, float b, float a);
void cgs_span_blend_run_using(int variant, const cgs_span_blend *plan, uint32_t *p, long n);
void cgs_composite_span_using(int variant, uint32_t *d, const uint32_t *s, long n, float alpha);
void cgs_fill_rrect_using(int variant, uint32_t *first, long stride, long x0, long y0, long x1, long y1, const double *m,
                          const cgs_rrect *shape, double pixel, float r, float g, float b, float a, uint32_t word, int opaque);
void cgs_blend_coverage_using(int variant, uint32_t *p, const float *cov, long n, float r, float g, float b, float a);
void cgs_image_row_using(int variant, uint32_t *out, long x0, long n, double y, const cgs_image_map *map, int stores,
                         float alpha);
void cgs_shadow_span_using(int variant, uint32_t *dst, const uint8_t *alpha, long n, const float *src, const float *inv);
long cgs_opaque_run_using(int variant, const uint32_t *row, long from, long to, long *start);
uint32_t cgs_alpha_bytes_using(int variant, uint8_t *out, const uint32_t *row, long n);
int cgs_bytes_any_using(int variant, const uint8_t *p, long n);
void cgs_layout_from_native_using(int variant, uint8_t *dst, const uint32_t *src, long n, const int order[4], int opaque);
void cgs_layout_to_native_using(int variant, uint32_t *dst, const uint8_t *src, long n, const int order[4], int opaque);
void cgs_blur_columns_using(int variant, uint8_t *out, const float *const *rows, const float *k, long count, long x0,
                            long n);

// The path rasteriser's cells (Raster/PathRasterizer.swift): each row holds, per column, the
// signed area its edges leave there (differences, summed along the row when filled), and one
// bit per cell marking where the row was touched.

/// Marks cells lo ..< hi of a rasteriser row's marks `bits` as touched (bit i of byte k: cell
/// 8k + i). Runs that fit in the 64 bits starting at the byte holding cell lo (56 cells or more)
/// take one unaligned read-modify-write without a test of where the word ends: the last bytes
/// read may belong to the next row or to the word after the last row (`RasterScratch` keeps one
/// there), and are written back unchanged. Longer runs go word by word.
static inline void cgs_mark_cells(uint64_t *bits, long lo, long hi) {
    const long n = hi - lo, shift = lo & 7;
    if (n + shift <= 63) {
        uint64_t marks;
        __builtin_memcpy(&marks, (uint8_t *)bits + (lo >> 3), 8);
        marks |= ((UINT64_C(1) << n) - 1) << shift;
        __builtin_memcpy((uint8_t *)bits + (lo >> 3), &marks, 8);
        return;
    }
    for (long i = lo; i < hi;) {
        const long bit = i & 63, k = 64 - bit < hi - i ? 64 - bit : hi - i;
        bits[i >> 6] |= (k == 64 ? ~UINT64_C(0) : (UINT64_C(1) << k) - 1) << bit;
        i += k;
    }
}

/// Adds to a rasteriser row's cells at `line` a piece of edge within one column (cb = c0) or
/// two (cb = c0 + 1), from x = a to x = b, of signed height dh and coverage per unit of x d:
/// within one column dh·(1 − f) to cell c0 and dh·f to c0 + 1 (f: the mean x past c0); across
/// two, first = d·u²/2 (u = 1 − (a − c0)), then (dh − rest) − first and rest = d·v²/2
/// (v = b − cb) — LayerRender's `Rasterizer` sums, in its order. Both are worked out and one
/// chosen by a mask, then added to cells c0 … c0 + 3 at once (the fourth, and the third within
/// one column, get 0): which case a row's piece falls in changes from row to row, and the
/// processor guessed the branch wrong about half the time. `d` may be infinite or NaN within one
/// column, where it is not used. The cells past c0 + 1 must exist. Also marks cells c0 … cb + 1
/// in the row's marks `bits` (`cgs_mark_cells`). `cgs_place` for pieces within two columns.
static inline void cgs_place_narrow(float *line, uint64_t *bits, long c0, long cb, float a, float b, float dh, float d) {
#pragma clang fp contract(off)
    cgs_mark_cells(bits, c0, cb + 2);
    const float f = (a + b) * 0.5f - (float)c0;
    const float u = 1 - (a - (float)c0), v = b - (float)cb;
    const float first = d * u * u * 0.5f, rest = d * v * v * 0.5f;
#if defined(__SSE2__)
    const __m128 one = _mm_setr_ps(dh * (1 - f), dh * f, 0, 0);
    const __m128 two = _mm_setr_ps(first, (dh - rest) - first, rest, 0);
    const __m128 m = _mm_castsi128_ps(_mm_set1_epi32(-(int)(cb == c0)));
    const __m128 add = _mm_or_ps(_mm_and_ps(m, one), _mm_andnot_ps(m, two));
    _mm_storeu_ps(line + c0, _mm_add_ps(_mm_loadu_ps(line + c0), add));
#else
    if (cb == c0) {
        line[c0] += dh * (1 - f);
        line[c0 + 1] += dh * f;
    } else {
        line[c0] += first;
        line[c0 + 1] += (dh - rest) - first;
        line[c0 + 2] += rest;
    }
#endif
}

/// Adds to a rasteriser row's cells at `line` the piece of edge from x = a to x = b (0 ≤ a ≤ b,
/// c0 = ⌊a⌋, cb = ⌊b⌋) of signed height dh and coverage per unit of x d = dh / (b − a) (any
/// value within one column), and marks the cells it adds to in `bits`: the rasteriser's one
/// definition of what a piece of edge deposits. Column c gets d·(G(b − c) − G(a − c)): in the
/// first column, where 0 ≤ a − c0 < 1 and b − c0 ≥ 1, d·u²/2 with u = 1 − (a − c0); in the last,
/// where 0 ≤ v = b − cb < 1 and a − cb < 0, dh − d·v²/2; in between d·(c + ½ − a), rising by d
/// from column to column. The cells hold the differences, and the column after the piece the
/// rest of dh. Cells c0 … cb + 3 must exist (the narrow case adds 0 past cb + 1).
static inline void cgs_place(float *line, uint64_t *bits, long c0, long cb, float a, float b, float dh, float d) {
#pragma clang fp contract(off)
    if (cb <= c0 + 1) {
        cgs_place_narrow(line, bits, c0, cb, a, b, dh, d);
        return;
    }
    cgs_mark_cells(bits, c0, cb + 2);
    const float u = 1 - (a - (float)c0), v = b - (float)cb;
    const float first = d * u * u * 0.5f, rest = d * v * v * 0.5f;
    line[c0] += first;
    line[c0 + 1] += d * (u + 0.5f) - first;
    for (long c = c0 + 2; c < cb; c++) line[c] += d;
    line[cb] += (dh - rest) - d * ((float)(cb - c0) - 0.5f - (1 - u));
    line[cb + 1] += rest;
}

/// Whole rows of a rasteriser edge four at a time, each row's piece within one or two columns
/// (or three, with `three` set: edges between one and two columns a row): what
/// `cgs_place` adds for each, one row per lane, the same expressions in the same order, so the same
/// cells. Row r's piece runs between x at the row's top and at its bottom,
/// x = x0 + (y − y0)·slope with y = next, next + 1, …, starting from `xa` at the first row's top
/// (the edge's x at next − 1); `dh` the rows' signed height, `per_unit` the coverage per unit of
/// x or 0 to divide per piece. `line` and `bits` are the first row's cells and marks, `stride`
/// and `words` the cells and mark words a row; at most `rows` rows. Returns the rows added (a
/// multiple of four): it stops before a group of rows with a piece that crosses more column
/// boundaries than that, or with fewer than four rows left, for the caller to go on row by row.
static inline long cgs_edge_rows4(float *line, uint64_t *bits, long stride, long words, long rows, float x0, float y0,
                                  float slope, float next, float xa, float dh, float per_unit, int three) {
#pragma clang fp contract(off)
#if defined(__SSE2__)
    const __m128 vx0 = _mm_set1_ps(x0), vy0 = _mm_set1_ps(y0), vslope = _mm_set1_ps(slope), vdh = _mm_set1_ps(dh);
    const __m128 half = _mm_set1_ps(0.5f), one = _mm_set1_ps(1.0f), vper = _mm_set1_ps(per_unit);
    __m128 ny = _mm_setr_ps(next, next + 1, next + 2, next + 3);
    __m128 top = _mm_set1_ps(xa);
    long done = 0;
    while (done + 4 <= rows) {
        const __m128 xb = _mm_add_ps(vx0, _mm_mul_ps(_mm_sub_ps(ny, vy0), vslope));
        /* Each row's top is the row above's bottom. */
        const __m128 xt = _mm_move_ss(_mm_shuffle_ps(xb, xb, _MM_SHUFFLE(2, 1, 0, 3)), top);
        const __m128 a = _mm_min_ps(xt, xb), b = _mm_max_ps(xt, xb);
        const __m128i c0 = _mm_cvttps_epi32(a), cb = _mm_cvttps_epi32(b);
        const __m128i span = _mm_sub_epi32(cb, c0);
        if (_mm_movemask_epi8(_mm_cmpgt_epi32(span, _mm_set1_epi32(three ? 2 : 1))) != 0) break;
        const __m128 c0f = _mm_cvtepi32_ps(c0), cbf = _mm_cvtepi32_ps(cb);
        const __m128 d = per_unit != 0 ? vper : _mm_div_ps(vdh, _mm_sub_ps(b, a));
        const __m128 f = _mm_sub_ps(_mm_mul_ps(_mm_add_ps(a, b), half), c0f);
        const __m128 u = _mm_sub_ps(one, _mm_sub_ps(a, c0f)), v = _mm_sub_ps(b, cbf);
        const __m128 first = _mm_mul_ps(_mm_mul_ps(_mm_mul_ps(d, u), u), half);
        const __m128 rest = _mm_mul_ps(_mm_mul_ps(_mm_mul_ps(d, v), v), half);
        const __m128 oneColumn = _mm_castsi128_ps(_mm_cmpeq_epi32(c0, cb));
        const __m128 l0 = _mm_or_ps(_mm_and_ps(oneColumn, _mm_mul_ps(vdh, _mm_sub_ps(one, f))), _mm_andnot_ps(oneColumn, first));
        __m128 l1 = _mm_or_ps(_mm_and_ps(oneColumn, _mm_mul_ps(vdh, f)),
                              _mm_andnot_ps(oneColumn, _mm_sub_ps(_mm_sub_ps(vdh, rest), first)));
        __m128 l2 = _mm_andnot_ps(oneColumn, rest), l3 = _mm_setzero_ps();
        if (three) {
            /* Across three columns: first, d·(u + ½) − first, (dh − rest) − d·(1.5 − (1 − u)), rest. */
            const __m128 threeColumns = _mm_castsi128_ps(_mm_cmpeq_epi32(span, _mm_set1_epi32(2)));
            const __m128 t1 = _mm_sub_ps(_mm_mul_ps(d, _mm_add_ps(u, half)), first);
            const __m128 t2 = _mm_sub_ps(_mm_sub_ps(vdh, rest), _mm_mul_ps(d, _mm_sub_ps(_mm_set1_ps(1.5f), _mm_sub_ps(one, u))));
            l1 = _mm_or_ps(_mm_and_ps(threeColumns, t1), _mm_andnot_ps(threeColumns, l1));
            l2 = _mm_or_ps(_mm_and_ps(threeColumns, t2), _mm_andnot_ps(threeColumns, l2));
            l3 = _mm_and_ps(threeColumns, rest);
        }
        /* Lanes are rows; transposed, each row's additions side by side. */
        __m128 r0 = l0, r1 = l1, r2 = l2, r3 = l3;
        _MM_TRANSPOSE4_PS(r0, r1, r2, r3);
        int32_t lo[4], n[4];
        _mm_storeu_si128((__m128i *)lo, c0);
        _mm_storeu_si128((__m128i *)n, span);
        const __m128 rows4[4] = { r0, r1, r2, r3 };
        for (int i = 0; i < 4; i++) {
            float *cell = line + i * stride + lo[i];
            _mm_storeu_ps(cell, _mm_add_ps(_mm_loadu_ps(cell), rows4[i]));
            cgs_mark_cells(bits + i * words, lo[i], lo[i] + n[i] + 2);
        }
        top = _mm_shuffle_ps(xb, xb, _MM_SHUFFLE(3, 3, 3, 3));
        ny = _mm_add_ps(ny, _mm_set1_ps(4.0f));
        line += 4 * stride;
        bits += 4 * words;
        done += 4;
    }
    return done;
#else
    return 0;
#endif
}

#endif
