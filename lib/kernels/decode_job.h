/* What the decode kernel's driver (attn_decode.c) hands to a vector path's
 * work items (decode_body.h). An item is a chunk of consecutive cached
 * tokens, all heads, read front to back; it leaves a partial result (a
 * running maximum, sum and unnormalised output per head) that the driver
 * merges at the end, as the online softmax merges tiles. */
#ifndef INVENT_DECODE_JOB_H
#define INVENT_DECODE_JOB_H

#include <stddef.h>
#include <stdint.h>

#include "attn_decode.h"

#define DECODE_BLOCK 32 /* tokens scored before their values are added */

typedef struct {
    const attn_decode_shape *s;
    const float *q;    /* (H, dh) queries times scale log2(e): base-2 scores */
    const float *K, *V;
    size_t chunk;      /* tokens per item, a multiple of DECODE_BLOCK */
    float *scores;     /* per worker: (H, DECODE_BLOCK) */
    float *partial;    /* per item: m (H), l (H), acc (H, dh) */
    uint64_t *madds;   /* one counter per worker */
} decode_job;

#endif
