/* The float32 matrix product of the training path, C += A B, on the
 * kernels' vector paths: register-blocked micro-kernels (GEMM_MR rows by
 * GEMM_NV vectors of columns) on packed panels of A and B, in the manner of
 * Goto and van de Geijn (2008). OpenBLAS's sgemm is the obvious tool, but
 * where it does not recognise the processor (a virtual machine that hides
 * the model) it falls back to an SSE3 kernel several times slower than this
 * one; bench-train measures both. Operands are given by strides, so that one
 * routine serves the three products of a linear layer (forward, and the two
 * of its backward pass) without a copy:
 *   A[i][p] = a[i a_rs + p a_cs],  B[p][j] = b[p b_rs + j b_cs],
 *   C[i][j] = c[i ldc + j].
 * B is packed whole, then the rows of C are shared out between the workers
 * (workers.h) in blocks, in one run (the threads meet once a product); each
 * entry is summed in the same order whatever their number. */
#ifndef INVENT_GEMM32_H
#define INVENT_GEMM32_H

#include <stddef.h>

#define GEMM_KC 256 /* rows of B packed at a time */

typedef struct gemm32_args {
    size_t M, N, K;
    const float *a;
    size_t a_rs, a_cs;
    const float *b;
    size_t b_rs, b_cs;
    float *c;
    size_t ldc;
    int init;          /* 1: C's rows are first set to bias (NULL: zero), by their worker */
    const float *bias; /* (N) */
} gemm32_args;

/* N_max, K_max -> floats of scratch gemm32 needs for products with N <= N_max, K <= K_max */
size_t gemm32_scratch(size_t n_max, size_t k_max);

/* C: (M, N) += A: (M, K) B: (K, N) (init: C = bias + A B); scratch:
 * gemm32_scratch(>= N, >= K) floats. INVENT_ERANGE for a bad INVENT_SIMD */
int gemm32(const gemm32_args *g, float *scratch, int workers);

#endif
