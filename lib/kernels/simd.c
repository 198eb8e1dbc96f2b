#include "simd.h"

#include <stdlib.h>

static simd_level probe(void)
{
    const char *forced = getenv("INVENT_PORTABLE_SIMD");
    if (forced && *forced && *forced != '0')
        return SIMD_PORTABLE;
#if defined(__x86_64__) || defined(__i386__)
    __builtin_cpu_init();
    if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma"))
        return SIMD_AVX2_FMA;
#endif
    return SIMD_PORTABLE;
}

simd_level simd_detect(void)
{
    static int known = -1; /* decided on the first call, by any thread */
    int level = __atomic_load_n(&known, __ATOMIC_RELAXED);
    if (level < 0) {
        level = (int)probe();
        __atomic_store_n(&known, level, __ATOMIC_RELAXED);
    }
    return (simd_level)level;
}

const char *simd_name(simd_level level)
{
    return level == SIMD_AVX2_FMA ? "avx2+fma" : "portable";
}
