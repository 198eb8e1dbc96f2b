/* What the decode kernel's driver (attn_decode.c) hands to a vector path's
 * work items (decode_body.h). An item is a chunk of consecutive cached
 * tokens, all heads, read front to back; it leaves a partial result (a
 * running maximum, sum and unnormalised output per head) that the driver
 * merges at the end, as the online softmax merges tiles. The kernel's
 * header (attn_decode.h) includes nothing of this one, and this one names
 * its shape without including it: a one-way dependency. */
#ifndef INVENT_DECODE_JOB_H
#define INVENT_DECODE_JOB_H

#include <stddef.h>
#include <stdint.h>

#define DECODE_BLOCK 32 /* tokens scored before their values are added */

struct attn_decode_shape;

typedef struct {
    const struct attn_decode_shape *s;
    const float *q;    /* (H, dh) queries times the scale's sign (exact): raw scores */
    const float *K, *V;
    size_t chunk;      /* tokens per item, a multiple of DECODE_BLOCK */
    float *scores;     /* per worker: (H, DECODE_BLOCK) */
    float *partial;    /* per item: m (H, raw scores), l (H), acc (H, dh) */
    uint64_t *madds;   /* one counter per worker */
} decode_job;

#endif
