/* Unit tests: gemm32 (C += A B by strides) against the product summed in
 * double, in the three layouts of a linear layer's passes, at sizes that
 * leave partial register blocks on every side, on every vector path the
 * CPU runs (INVENT_SIMD), and with one and two threads. */
#include <criterion/criterion.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "gemm32.h"
#include "status.h"

/* M, N, K, transposed A or B -> the largest |C - exact| over max |exact| */
static double product_error(size_t M, size_t N, size_t K, int ta, int tb, int workers)
{
    float *a = malloc(M * K * sizeof(float)), *b = malloc(K * N * sizeof(float));
    float *c = malloc(M * N * sizeof(float));
    float *scratch = malloc(gemm32_scratch(N, K) * sizeof(float));
    cr_assert(a && b && c && scratch);
    for (size_t i = 0; i < M * K; i++)
        a[i] = (float)((int)(i * 7919 % 13) - 6) / 8.0f;
    for (size_t i = 0; i < K * N; i++)
        b[i] = (float)((int)(i * 104729 % 11) - 5) / 4.0f;
    for (size_t i = 0; i < M * N; i++)
        c[i] = 1.0f; /* added to */
    gemm32_args g = {M, N, K, a, ta ? 1 : K, ta ? M : 1, b, tb ? 1 : N, tb ? K : 1, c, N,
                     .init = 0};
    cr_assert_eq(gemm32(&g, scratch, workers), INVENT_OK);
    double worst = 0.0, top = 0.0;
    for (size_t i = 0; i < M; i++)
        for (size_t j = 0; j < N; j++) {
            double want = 1.0;
            for (size_t p = 0; p < K; p++)
                want += (double)a[i * g.a_rs + p * g.a_cs] * b[p * g.b_rs + j * g.b_cs];
            worst = fmax(worst, fabs(c[i * N + j] - want));
            top = fmax(top, fabs(want));
        }
    free(a), free(b), free(c), free(scratch);
    return worst / top;
}

Test(gemm32, every_layout_and_edge_agrees_with_the_exact_product)
{
    const size_t sizes[][3] = {{37, 45, 19}, {8, 32, 300}, {70, 11, 600}, {1, 1, 1}};
    for (size_t s = 0; s < 4; s++)
        for (int layout = 0; layout < 3; layout++) { /* forward, din, dW: B^T, -, A^T */
            double e = product_error(sizes[s][0], sizes[s][1], sizes[s][2], layout == 2,
                                     layout == 0, 1 + (int)(s % 2));
            cr_assert(e < 1e-6, "sizes %zu, layout %d: relative error %g", s, layout, e);
        }
}

/* a B packed once by gemm32_pack serves products with other A's (a recurrent cell's W
 * over the steps of a window): the same numbers as packing it each time, with b itself
 * overwritten after the packing (so that a product that still read b would differ),
 * on one and two threads, with few rows (their columns shared out) and many */
Test(gemm32, a_b_packed_once_gives_the_same_numbers)
{
    const size_t sizes[][3] = {{12, 70, 45}, {70, 37, 300}};
    for (size_t s = 0; s < 2; s++) {
        size_t M = sizes[s][0], N = sizes[s][1], K = sizes[s][2];
        float *a = malloc(M * K * sizeof(float)), *b = malloc(K * N * sizeof(float));
        float *c = calloc(2 * M * N, sizeof(float)), *bp = malloc(gemm32_scratch(N, K) * 4);
        float *scratch = malloc(gemm32_scratch(N, K) * sizeof(float));
        cr_assert(a && b && c && bp && scratch);
        for (size_t i = 0; i < K * N; i++)
            b[i] = (float)((int)(i * 104729 % 11) - 5) / 3.0f;
        gemm32_args g = {M, N, K, a, K, 1, b, 1, K, c, N, .init = 1};
        cr_assert_eq(gemm32_pack(&g, bp), INVENT_OK);
        for (int round = 0; round < 3; round++) {
            for (size_t i = 0; i < M * K; i++)
                a[i] = (float)((int)((i + (size_t)round) * 7919 % 13) - 6) / 7.0f;
            for (size_t i = 0; i < K * N; i++)
                b[i] = (float)((int)(i * 104729 % 11) - 5) / 3.0f;
            g.c = c, g.packed = NULL;
            cr_assert_eq(gemm32(&g, scratch, 1 + round % 2), INVENT_OK);
            for (size_t i = 0; i < K * N; i++)
                b[i] = 1e6f; /* what a product reading b instead of bp would use */
            g.c = c + M * N, g.packed = bp;
            cr_assert_eq(gemm32(&g, NULL, 2 - round % 2), INVENT_OK);
            for (size_t i = 0; i < M * N; i++)
                cr_assert_eq(c[i], c[M * N + i], "sizes %zu, round %d, entry %zu", s, round, i);
        }
        free(a), free(b), free(c), free(bp), free(scratch);
    }
}

/* gemm32_pair: a linear layer's two backward products in one run (B's rows whole panels,
 * read in place) and a pair that needs packing (one after the other) give each product's
 * numbers as gemm32 alone does, on one and two threads */
Test(gemm32, a_pair_in_one_run_gives_each_products_numbers)
{
    /* k 64: both B's read in place; k 45: packed (each result has room for 96 rows) */
    const size_t n = 70, ks[2] = {64, 45}, m[2] = {96, 50};
    for (int s = 0; s < 2; s++) {
        size_t k = ks[s];
        float *dout = malloc(n * m[s] * sizeof(float)), *W = malloc(m[s] * k * sizeof(float));
        float *in = malloc(n * k * sizeof(float)), *out = calloc(4 * 96 * k, sizeof(float));
        float *scratch = malloc(gemm32_scratch(m[s] > k ? m[s] : k, n) * sizeof(float));
        cr_assert(dout && W && in && out && scratch);
        for (size_t i = 0; i < n * m[s]; i++)
            dout[i] = (float)((int)(i * 7919 % 13) - 6) / 7.0f;
        for (size_t i = 0; i < m[s] * k; i++)
            W[i] = (float)((int)(i * 104729 % 11) - 5) / 3.0f;
        for (size_t i = 0; i < n * k; i++)
            in[i] = (float)((int)(i * 31 % 17) - 8) / 5.0f;
        for (int workers = 1; workers <= 2; workers++) {
            float *din = out, *dW = out + 96 * k, *din2 = out + 2 * 96 * k, *dW2 = out + 3 * 96 * k;
            gemm32_args dx = {n, k, m[s], dout, m[s], 1, W, k, 1, din, k, .init = 1};
            gemm32_args dw = {m[s], k, n, dout, 1, m[s], in, k, 1, dW, k, .init = 0};
            memset(dW, 0, m[s] * k * sizeof(float));
            cr_assert_eq(gemm32_pair(&dx, &dw, scratch, workers), INVENT_OK);
            dx.c = din2, dw.c = dW2;
            memset(dW2, 0, m[s] * k * sizeof(float));
            cr_assert_eq(gemm32(&dx, scratch, 1), INVENT_OK);
            cr_assert_eq(gemm32(&dw, scratch, 1), INVENT_OK);
            for (size_t i = 0; i < n * k; i++)
                cr_assert_eq(din[i], din2[i], "m %zu, %d threads: din %zu", m[s], workers, i);
            for (size_t i = 0; i < m[s] * k; i++)
                cr_assert_eq(dW[i], dW2[i], "m %zu, %d threads: dW %zu", m[s], workers, i);
        }
        free(dout), free(W), free(in), free(out), free(scratch);
    }
}
