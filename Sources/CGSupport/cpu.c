#include "cgsupport.h"

// Whether the processor runs AVX2 and AVX-512 (x86-64 only), asked once before main: the kernels
// test a plain int on every call rather than the processor.
int cgs_avx2 = 0;
int cgs_avx512 = 0;

#if defined(__x86_64__)
__attribute__((constructor)) static void cgs_detect_cpu(void) {
    __builtin_cpu_init();
    cgs_avx2 = __builtin_cpu_supports("avx2") ? 1 : 0;
    cgs_avx512 = __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw") && __builtin_cpu_supports("avx512vl")
        ? 1 : 0;
}
#endif
