/* What attn_train.c hands to a vector path's training-attention items
 * (attn_train_body.h): the problem and every worker's scratch. One item is
 * one (sequence, head) pair. The kernel's header (attn_train.h) is not
 * included: this one names the shape without it, a one-way dependency. */
#ifndef INVENT_ATTN_TRAIN_JOB_H
#define INVENT_ATTN_TRAIN_JOB_H

#include <stddef.h>

#include "attn_kernels.h"
#include "gemm32_job.h"

struct attn_train_shape;

typedef struct {
    const struct attn_train_shape *s;
    const float *qkv, *out, *lse, *dout; /* (B, T, W), (B, T, C), (B, H, T), (B, T, C) */
    float *o, *l, *dqkv;                 /* the forward's outputs; the backward's */
    size_t dk, width;                    /* queries' and keys' head size, W = 2 H dk + C */
    float scale;                         /* the scores' scale */
    size_t per_worker;                   /* floats of scratch per worker */
    float *scratch;
} attn_train_job;

/* T, dk, dh -> floats of one worker's scratch (attn_train_body.h's head_view): K^T and V^T
 * packed by keys, K, Q and V or dO packed by features (T and the head sizes rounded up to a
 * panel, at most GEMM_NR_MAX columns), two (ATTN_TILE, ATTN_TILE) tiles, the forward's
 * (ATTN_TILE, dh) outputs and its maxima and sums */
static inline size_t attn_train_per_worker(size_t T, size_t dk, size_t dh)
{
    size_t keys = (T + GEMM_NR_MAX - 1) / GEMM_NR_MAX * GEMM_NR_MAX;
    size_t dkp = (dk + GEMM_NR_MAX - 1) / GEMM_NR_MAX * GEMM_NR_MAX;
    size_t dhp = (dh + GEMM_NR_MAX - 1) / GEMM_NR_MAX * GEMM_NR_MAX;
    size_t floats = keys * (dk + dh) + T * (2 * dkp + dhp) + 2 * ATTN_TILE * ATTN_TILE +
                    ATTN_TILE * dh + 2 * ATTN_TILE;
    return (floats + 15) / 16 * 16;
}

#endif
