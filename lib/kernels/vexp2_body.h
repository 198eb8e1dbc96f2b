/* 2^x for a vector of floats, written with GCC vector extensions alone, so
 * that it compiles for any width and any CPU (the AVX2 path and the
 * portable path use it; the AVX-512 path shares the polynomial and scales by
 * vscalefps). The
 * including file defines vf (a vector of floats) and vu (unsigned 32-bit
 * integers of the same size). Range reduction x = n + r with n an integer
 * and |r| <= 1/2, 2^r by the Cephes exp2f polynomial (relative error about
 * 2e-7), 2^n put into the exponent bits. */
#ifndef INVENT_VEXP2_BODY_H
#define INVENT_VEXP2_BODY_H

/* r: (lanes) with |r| <= 1/2 -> 2^r: (lanes), the polynomial */
static inline __attribute__((always_inline)) vf vf_exp2_fraction(vf r)
{
    vf p = (vf){0} + 1.535336188319500e-4f;
    p = p * r + 1.339887440266574e-3f;
    p = p * r + 9.618437357674640e-3f;
    p = p * r + 5.550332471162809e-2f;
    p = p * r + 2.402264791363012e-1f;
    p = p * r + 6.931472028550421e-1f;
    return p * r + 1.0f;
}

/* x: (lanes) with x <= 0 -> 2^x: (lanes); exactly 0 below -126 and for -inf
 * (no denormal is ever made) */
static inline __attribute__((always_inline)) vf vf_exp2_generic(vf x)
{
    const vf zero = {0}, magic = zero + 12582912.0f; /* 1.5 * 2^23: x + magic rounds x */
    vf t = x + magic, n = t - magic;
    vf p = vf_exp2_fraction(x - n);
    vu scale = ((vu)t + 127u) << 23; /* the low bits of t hold n */
    vf y = p * (vf)scale;
    return (vf)((vu)y & (vu)(x >= zero - 126.0f));
}

#endif
