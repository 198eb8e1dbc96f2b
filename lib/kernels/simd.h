/* Which vector instructions the float kernels use, decided at run time: the
 * project is built for any x86-64 (or other) CPU and assumes nothing. Three
 * paths, best first:
 *   avx512    AVX-512 F, BW, DQ and VL: 16 floats a vector, 32 registers;
 *   avx2      AVX2 and FMA: 8 floats a vector, 16 registers;
 *   portable  plain C (the compiler's baseline), tile products by BLAS.
 * INVENT_SIMD=portable, avx2 or avx512 in the environment forces a path the
 * CPU can run (the tests use it to cover every path on one machine). */
#ifndef INVENT_SIMD_H
#define INVENT_SIMD_H

#include <stddef.h>

typedef enum { SIMD_PORTABLE, SIMD_AVX2, SIMD_AVX512 } simd_level;

/* -> the best path this CPU can run (ignores the environment) */
simd_level simd_best(void);

/* level <- the path the kernels take now: INVENT_SIMD when set, else
 * simd_best(); INVENT_ERANGE when INVENT_SIMD names no path or one this CPU
 * cannot run */
int simd_current(simd_level *level);

/* INVENT_SIMD -> INVENT_OK, or INVENT_ERANGE with a one-line reason in msg
 * (size bytes), for a program to refuse it before any work */
int simd_env_check(char *msg, size_t size);

/* level -> "avx512", "avx2" or "portable" */
const char *simd_name(simd_level level);

#endif
