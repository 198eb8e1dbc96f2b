#include "vexp.h"

#include <string.h>

#include "simd.h"
#include "status.h"

/* The loop body, compiled twice below: once for any CPU, once for AVX2+FMA. */
VEXP_INLINE float shifted_body(float *x, size_t n, float shift)
{
    vexp_f8 total = {0};
    size_t i = 0;
    for (; i + 8 <= n; i += 8) {
        vexp_f8 v;
        memcpy(&v, x + i, sizeof v);
        v = vexp8(v - shift);
        memcpy(x + i, &v, sizeof v);
        total += v;
    }
    if (i < n) { /* the tail, padded with masked entries that give 0 */
        vexp_f8 v = {0};
        v -= __builtin_inff();
        memcpy(&v, x + i, (n - i) * sizeof(float));
        v = vexp8(v - shift);
        memcpy(x + i, &v, (n - i) * sizeof(float));
        total += v;
    }
    float sum = 0.0f;
    for (int k = 0; k < 8; k++)
        sum += total[k];
    return sum;
}

#if defined(__x86_64__) || defined(__i386__)
__attribute__((target("avx2,fma"))) static float shifted_avx2(float *x, size_t n, float shift)
{
    return shifted_body(x, n, shift);
}
#endif

static float shifted_portable(float *x, size_t n, float shift)
{
    return shifted_body(x, n, shift);
}

float vexp_shifted(float *x, size_t n, float shift)
{
#if defined(__x86_64__) || defined(__i386__)
    simd_level level;
    if (simd_current(&level) == INVENT_OK && level >= SIMD_AVX2)
        return shifted_avx2(x, n, shift);
#endif
    return shifted_portable(x, n, shift);
}
