/* What attn_train.c hands to a vector path's training-attention items
 * (attn_train_body.h): the problem and every worker's scratch. One item is
 * one (sequence, head) pair. The kernel's header (attn_train.h) is not
 * included: this one names the shape without it, a one-way dependency. */
#ifndef INVENT_ATTN_TRAIN_JOB_H
#define INVENT_ATTN_TRAIN_JOB_H

#include <stddef.h>

#include "attn_kernels.h"

struct attn_train_shape;

typedef struct {
    const struct attn_train_shape *s;
    const float *qkv, *out, *lse, *dout; /* (B, T, W), (B, T, C), (B, H, T), (B, T, C) */
    float *o, *l, *dqkv;                 /* the forward's outputs; the backward's */
    size_t tpad;                         /* T rounded up to 16: the transposed tiles' stride */
    size_t dk, width;                    /* queries' and keys' head size, W = 2 H dk + C */
    float scale;                         /* the scores' scale */
    size_t per_worker;                   /* floats of scratch per worker */
    float *scratch;
} attn_train_job;

/* T, dk, dh -> floats of one worker's scratch: K^T (dk, tpad), V^T (dh, tpad),
 * dK (T, dk), dV (T, dh), the row buffers and two (ATTN_TILE, ATTN_TILE) tiles */
static inline size_t attn_train_per_worker(size_t T, size_t dk, size_t dh)
{
    size_t tpad = (T + 15) / 16 * 16;
    return (2 * (dk + dh) * tpad + 4 * tpad + 2 * (dk + dh) + 2 * ATTN_TILE * ATTN_TILE + 15) /
           16 * 16;
}

#endif
