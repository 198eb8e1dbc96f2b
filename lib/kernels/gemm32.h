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
 * B is packed whole (or was packed before, by gemm32_pack, for a B that
 * serves many products: a recurrent cell's W over the steps of a window; or
 * is read in place where its rows are already whole panels: b_cs 1 and N a
 * multiple of the path's panel), and init without a bias writes C's first
 * block of K rather than zeroing C first;
 * then the blocks of C (rows, and panels of columns when the rows are few)
 * are shared out between the workers (workers.h) in one run (the threads
 * meet once a product); each entry is summed in the same order whatever
 * their number. */
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
    const float *packed; /* B as gemm32_pack left it (b is then not read), or NULL */
    const float *gate;   /* NULL, or (M, N) ldc apart: C, once whole, is kept where gate > 0
                          * and 0 elsewhere (gate c itself: a ReLU in place) */
} gemm32_args;

/* N_max, K_max -> floats of scratch gemm32 needs for products with N <= N_max, K <= K_max */
size_t gemm32_scratch(size_t n_max, size_t k_max);

/* C: (M, N) += A: (M, K) B: (K, N) (init: C = bias + A B); scratch:
 * gemm32_scratch(>= N, >= K) floats (NULL with g->packed). INVENT_ERANGE for a bad
 * INVENT_SIMD */
int gemm32(const gemm32_args *g, float *scratch, int workers);

/* two products that do not touch each other's C -> both, as gemm32 gives each, in one
 * run of the workers where both B's need no packing (in place or packed: a linear layer's
 * two backward products), else one after the other (scratch as gemm32's for either) */
int gemm32_pair(const gemm32_args *g1, const gemm32_args *g2, float *scratch, int workers);

/* g's B: (K, N) -> bp: gemm32_scratch(>= N, >= K) floats, B packed for products that
 * give it as g->packed (on the vector path in use now); INVENT_ERANGE for a bad INVENT_SIMD */
int gemm32_pack(const gemm32_args *g, float *bp);

#endif
