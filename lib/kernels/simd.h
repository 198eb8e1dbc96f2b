/* Which vector instructions the float kernels may use on this CPU, decided
 * once at run time: the project is built for any x86-64 (or other) CPU and
 * never assumes AVX2. INVENT_PORTABLE_SIMD=1 in the environment forces the
 * portable path (tests use it to cover both). */
#ifndef INVENT_SIMD_H
#define INVENT_SIMD_H

typedef enum { SIMD_PORTABLE, SIMD_AVX2_FMA } simd_level;

/* -> the best level this CPU and environment allow (probed on the first call) */
simd_level simd_detect(void);

/* level -> "avx2+fma" or "portable" */
const char *simd_name(simd_level level);

#endif
