/* The blas kernel: the masked matrix form of chapter 7 in float, one head
 * at a time. The scores of a head live in one T x T matrix (the memory that
 * grows as T^2), but the products visit only the row blocks and columns the
 * causal mask (or the window) leaves visible: S[rows, keys] =
 * scale Q[rows] K[keys]^T, a row softmax, then out[rows] = P[rows, keys]
 * V[keys], each a cblas_sgemm (OpenBLAS threads it). */
#include <gsl/gsl_cblas.h>
#include <math.h>
#include <string.h>

#include "attn_kernels.h"
#include "status.h"
#include "vexp.h"
#include "work_cursor.h"

#define BLAS_ROWS 128 /* query rows per block */

/* S rows r0..r1-1, columns lo..r1-1 -> softmax weights over each row's
 * visible keys, zeros on the masked ones */
static void softmax_block(const attn_shape *s, float *S, size_t r0, size_t r1, size_t lo)
{
    for (size_t t = r0; t < r1; t++) {
        float *row = S + t * s->T;
        size_t first = attn_first_key(s, t);
        float max = -INFINITY;
        for (size_t i = first; i <= t; i++)
            max = fmaxf(max, row[i]);
        float sum = vexp_shifted(row + first, t + 1 - first, max);
        for (size_t i = first; i <= t; i++)
            row[i] /= sum;
        memset(row + lo, 0, (first - lo) * sizeof *row);
        memset(row + t + 1, 0, (r1 - t - 1) * sizeof *row);
    }
}

/* one head, query rows r0..r1-1; returns the madds done */
static uint64_t attend_block(const attn_shape *s, const float *Q, const float *K,
                             const float *V, float *out, size_t h, float *S, size_t r0,
                             size_t r1)
{
    int ld = (int)(s->H * s->dh), dh = (int)s->dh;
    size_t lo = attn_first_key(s, r0);
    int rows = (int)(r1 - r0), keys = (int)(r1 - lo), ldS = (int)s->T;
    cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasTrans, rows, keys, dh, s->scale,
                Q + r0 * ld + h * s->dh, ld, K + lo * ld + h * s->dh, ld, 0.0f,
                S + r0 * s->T + lo, ldS);
    softmax_block(s, S, r0, r1, lo);
    cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, rows, dh, keys, 1.0f,
                S + r0 * s->T + lo, ldS, V + lo * ld + h * s->dh, ld, 0.0f,
                out + r0 * ld + h * s->dh, ld);
    return 2 * (uint64_t)rows * (uint64_t)keys * s->dh;
}

/* s -> INVENT_OK when the shape, the environment and BLAS's int sizes allow it */
static int blas_check(const attn_shape *s)
{
    char why[160];
    int status = attn_shape_check(s);
    if (status == INVENT_OK)
        status = attn_env_check(why, sizeof why);
    if (status == INVENT_OK &&
        (s->T > (size_t)INT32_MAX / s->T || s->H * s->dh > (size_t)INT32_MAX))
        status = INVENT_ERANGE; /* BLAS takes int sizes */
    return status;
}

int attn_blas_work(const attn_shape *s, size_t *bytes)
{
    int status = blas_check(s);
    work_cursor c = {NULL, 0, 0};
    work_take(&c, status == INVENT_OK ? s->T * s->T * sizeof(float) : 0);
    *bytes = c.used;
    return status;
}

int attn_blas(const attn_shape *s, const float *Q, const float *K, const float *V, float *out,
              attn_work *work, attn_cost *cost)
{
    int status = blas_check(s);
    if (status != INVENT_OK)
        return status;
    work_cursor c = work_open(work);
    float *S = work_take(&c, s->T * s->T * sizeof *S);
    if (!S)
        return INVENT_ERANGE;
    uint64_t madds = 0;
    for (size_t h = 0; h < s->H; h++)
        for (size_t r0 = 0; r0 < s->T; r0 += BLAS_ROWS)
            madds += attend_block(s, Q, K, V, out, h, S,
                                  r0, r0 + BLAS_ROWS < s->T ? r0 + BLAS_ROWS : s->T);
    if (cost)
        *cost = (attn_cost){madds, c.used};
    return INVENT_OK;
}
