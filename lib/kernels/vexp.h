/* Exponentials eight at a time, for the float kernels: a Cody-Waite range
 * reduction and a degree-5 polynomial (the Cephes expf coefficients), written
 * with GCC vector extensions so the same code compiles to AVX2+FMA where the
 * CPU has it and to SSE elsewhere. Relative error about 2e-7; arguments below
 * -87.3 (and -INFINITY, a masked score) give exactly 0. */
#ifndef INVENT_VEXP_H
#define INVENT_VEXP_H

#include <stddef.h>
#include <stdint.h>

typedef float vexp_f8 __attribute__((vector_size(32)));
typedef int32_t vexp_i8 __attribute__((vector_size(32)));

#define VEXP_INLINE static inline __attribute__((always_inline))

/* Every function passing these vectors is inlined, so no call ever uses the
 * vector ABI that -Wpsabi warns about. */
#pragma GCC diagnostic ignored "-Wpsabi"

/* mask ? a : b, lane by lane (a mask lane is 0 or -1) */
VEXP_INLINE vexp_f8 vexp_select(vexp_i8 mask, vexp_f8 a, vexp_f8 b)
{
    return (vexp_f8)((mask & (vexp_i8)a) | (~mask & (vexp_i8)b));
}

/* lane-wise maximum of a and b */
VEXP_INLINE vexp_f8 vexp_max(vexp_f8 a, vexp_f8 b) { return vexp_select(a > b, a, b); }

/* x: (8) -> exp(x): (8) */
VEXP_INLINE vexp_f8 vexp8(vexp_f8 x)
{
    const vexp_f8 zero = {0}, one = zero + 1.0f;
    vexp_i8 underflow = x < -87.33f;
    x = vexp_select(x > 88.37f, zero + 88.37f, x);
    x = vexp_select(underflow, zero - 87.33f, x);
    vexp_f8 fx = x * 1.44269504088896341f + 0.5f;
    vexp_f8 n = __builtin_convertvector(__builtin_convertvector(fx, vexp_i8), vexp_f8);
    n = vexp_select(n > fx, n - one, n); /* floor */
    vexp_f8 r = x - n * 0.693359375f + n * 2.12194440e-4f;
    vexp_f8 p = zero + 1.9875691500e-4f;
    p = p * r + 1.3981999507e-3f;
    p = p * r + 8.3334519073e-3f;
    p = p * r + 4.1665795894e-2f;
    p = p * r + 1.6666665459e-1f;
    p = p * r + 5.0000001201e-1f;
    p = p * r * r + r + one;
    vexp_i8 bits = (__builtin_convertvector(n, vexp_i8) + 127) << 23;
    vexp_f8 y = p * (vexp_f8)bits;
    return vexp_select(underflow, zero, y);
}

/* x: (n), shift -> x_i = exp(x_i - shift): (n); returns sum_i x_i. Uses
 * AVX2+FMA when the path in use (simd.h) is avx2 or avx512. */
float vexp_shifted(float *x, size_t n, float shift);

#endif
