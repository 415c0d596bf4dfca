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
#include <stdint.h>

/// `Raster.lerpWord(top[i], bottom[i], w)` into `out[i]` for i < n: each byte channel
/// (t·(256 − w) + b·w + 128) >> 8, w in 0…256. Returns the AND of the results' alpha bytes
/// (255: every result is opaque). `out` may not overlap the inputs.
uint32_t cgs_lerp_rows(uint32_t *out, const uint32_t *top, const uint32_t *bottom, long n, uint32_t w);

/// `Raster.lerpWord(texels[left[i]], texels[right[i]], weight[i])` into `out[i]` for i < n
/// (one texel row lerped across pixel columns; every index lies in the row, weights in 0…256).
void cgs_lerp_columns(uint32_t *out, const uint32_t *texels, const int32_t *left, const int32_t *right,
                      const uint32_t *weight, long n);

/// One row of the sampled Gaussian (`ShadowBlur.blur`'s first pass): out[x] = Σ_j k[j]·line[x + j]
/// for x < n, j < taps, summed from zero in order of j. `line` holds n + taps − 1 floats.
void cgs_blur_row(float *out, const float *line, const float *k, long taps, long n);

/// The second pass over n columns: acc = Σ_j weights[j]·rows[j][x] summed from zero in order of
/// j, then out[x] = the byte ⌊min(acc + 0.5, 255)⌋ (acc ≥ 0).
void cgs_blur_columns(uint8_t *out, const float *const *rows, const float *weights, long count, long n);

/// `Raster.blend` of a shadow's colour over dst[i] for each i < n with alpha[i] ≠ 0, each
/// channel ⌊min(src[4a + c] + d_c·inv[a] + 0.5, 255)⌋ (channels b, g, r, a), where the caller's
/// 256-entry tables hold colour·cov(a) (4 floats each) and 1 − colourAlpha·cov(a)/255.
void cgs_shadow_span(uint32_t *dst, const uint8_t *alpha, long n, const float *src, const float *inv);

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

/// `Raster.blend(p + i, r, g, b, a, 1)` for i < n: premultiplied (r, g, b, a) in 0…255 over
/// each pixel at full coverage, each channel ⌊min(c + d·(1 − a·1/255) + 0.5, 255)⌋ in Float.
void cgs_blend_span(uint32_t *p, long n, float r, float g, float b, float a);

/// `Raster.compositeRun` over n pixels: each source pixel s[i] (premultiplied) times `alpha`
/// over d[i] as `Raster.blend` computes it (transparent sources leave d[i] as it is).
void cgs_composite_span(uint32_t *d, const uint32_t *s, long n, float alpha);

/// The kernels above through a chosen variant, for the tests that compare them: 0 the portable
/// loop, 1 SSE2 (x86-64; else portable), 2 the widest the processor runs.
uint32_t cgs_lerp_rows_using(int variant, uint32_t *out, const uint32_t *top, const uint32_t *bottom, long n, uint32_t w);
void cgs_lerp_columns_using(int variant, uint32_t *out, const uint32_t *texels, const int32_t *left, const int32_t *right,
                            const uint32_t *weight, long n);
void cgs_blur_row_using(int variant, float *out, const float *line, const float *k, long taps, long n);
void cgs_rrect_row_using(int variant, float *out, long x0, long n, double y, const double *m, const cgs_rrect *shape,
                         const cgs_rrect *hole, double pixel, int antialias);
void cgs_blend_span_using(int variant, uint32_t *p, long n, float r, float g, float b, float a);
void cgs_composite_span_using(int variant, uint32_t *d, const uint32_t *s, long n, float alpha);
void cgs_blur_columns_using(int variant, uint8_t *out, const float *const *rows, const float *weights, long count, long n);

#endif
