#include "kernels.h"
#include "cgsupport.h"

// Opaque solid fills: every pixel of a box set to one word, as `cgs_fill_u32` sets a row. The
// boxes are small and many (a layer's background, the strips of its border), so a row is a
// few inline 16-byte stores rather than a call into the C library per row; rows long enough
// for the library's own fill to win still go there.
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

void cgs_fill_box(uint32_t *p, long stride, long w, long h, uint32_t word) {
    if (w <= 0 || h <= 0) return;
#if defined(__SSE2__)
    if (w >= 4 && w < 256) {
        const __m128i v = _mm_set1_epi32((int)word);
        for (long y = 0; y < h; y++, p += stride) {
            // Four words a store; the last store ends at the row's end, overlapping the one
            // before it when w is not a multiple of four.
            long x = 0;
            for (; x + 4 <= w; x += 4) _mm_storeu_si128((__m128i *)(p + x), v);
            if (x < w) _mm_storeu_si128((__m128i *)(p + w - 4), v);
        }
        return;
    }
#endif
    for (long y = 0; y < h; y++, p += stride) cgs_fill_u32(p, word, (size_t)w);
}
