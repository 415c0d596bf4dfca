#include "kernels.h"
#include "cgsupport.h"

// A shadow's colour blended through its blurred coverage (Raster.shadow): `Raster.blend` per
// pixel with the colour term and the destination's factor looked up by coverage byte instead of
// computed (the same products: the caller fills the tables with `Raster.blend`'s expressions).
// Sum order and rounding as in `blend`: (s·cov + d·inv) + 0.5, min 255, truncated; no fused
// multiply-adds.
#pragma STDC FP_CONTRACT OFF

void cgs_shadow_span(uint32_t *dst, const uint8_t *alpha, long n, const float *src, const float *inv) {
    typedef float f4 __attribute__((ext_vector_type(4)));
    typedef int32_t i4 __attribute__((ext_vector_type(4)));
    typedef uint32_t u4 __attribute__((ext_vector_type(4)));
    const u4 shifts = {0, 8, 16, 24};
    for (long i = 0; i < n; i++) {
        uint32_t a = alpha[i];
        if (a == 0) continue;
        uint32_t d = dst[i];
        f4 df = __builtin_convertvector((i4)(((u4)d >> shifts) & 255u), f4);
        f4 s;
        __builtin_memcpy(&s, src + 4 * a, sizeof s);
        f4 o = s + df * inv[a] + 0.5f;
        o = o < 255.0f ? o : 255.0f;
        u4 c = (u4)__builtin_convertvector(o, i4);
        dst[i] = c.x | c.y << 8 | c.z << 16 | c.w << 24;
    }
}
