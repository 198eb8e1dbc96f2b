/* A decode step, measured at memory speed: the cache is read from memory,
 * not from a cache of the CPU, as in a model whose layers' caches together
 * far exceed them. The caller's arena (far larger than the last-level
 * cache) holds as many copies of one layer's cache as fit; one sample
 * decodes a token through all of them, and each round also reads the whole
 * arena once to measure the memory's read bandwidth beside it. What
 * `make bench` and chapter 11 show for the cache sizes of chapters 5 and 6. */
#ifndef INVENT_DECODE_MEASURE_H
#define INVENT_DECODE_MEASURE_H

#include <stddef.h>

#include "attn_decode.h"

typedef struct {
    size_t layers;      /* copies of the cache in the arena, each read once per sample */
    double ms;          /* median time of one step over one layer's cache */
    double bytes;       /* attn_decode_bytes: what one step reads */
    double gbytes_per_s;    /* bytes / time, from the median time */
    double bandwidth_gbps;  /* the same rounds' read bandwidth (median), GB/s */
    double share;           /* median over rounds of the step's rate / bandwidth */
} decode_point;

/* s, shared (K == V), arena: (n) floats with any finite contents, rounds
 * >= 1 -> point. INVENT_ERANGE for a bad shape, environment or rounds, or
 * an arena too small for one cache; INVENT_ENOMEM. */
int decode_measure(const attn_decode_shape *s, int shared, const float *arena, size_t n,
                   int rounds, decode_point *point);

#endif
