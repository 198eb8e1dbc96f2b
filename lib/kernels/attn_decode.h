/* Decoding: the step a language model repeats for every token it writes.
 * One new query per head attends to a cache of the T tokens so far (the new
 * one included, written first). No score matrix: the work is 2 H T dh
 * multiply-adds, and every cached number is read once and used a few times,
 * so the step is limited by how fast memory delivers the cache, not by
 * arithmetic. That is the argument of chapters 5 and 6 for a smaller cache,
 * measured in `make bench` (the README's Benchmarks section).
 *
 * The cache may serve several query heads with one key-value head (grouped
 * queries): with Hkv key-value heads, query head h reads key-value head
 * h / (H / Hkv). Hkv = 1 with K == V is claim C1's cache of the raw tokens,
 * shared by every score function: score (A_h^T x_L) . x_i and value x_i,
 * with q_h = A_h^T x_L and the head's value map applied afterwards. */
#ifndef INVENT_ATTN_DECODE_H
#define INVENT_ATTN_DECODE_H

#include <stddef.h>
#include <stdint.h>

#include "attn_kernels.h"

typedef struct attn_decode_shape {
    size_t T;     /* cached tokens, the new one included */
    size_t H;     /* query heads */
    size_t Hkv;   /* key-value heads: H, or a divisor of H */
    size_t dh;    /* size of a query, key and value vector */
    float scale;  /* scores are scale * q . k */
} attn_decode_shape;

/* -> INVENT_OK when every size is >= 1, Hkv divides H, the scale is finite
 * and T * Hkv * dh floats are addressable; INVENT_ERANGE otherwise */
int attn_decode_check(const attn_decode_shape *s);

/* q: (H, dh), K, V: (T, Hkv, dh), work -> out: (H, dh), softmax over all T
 * cached tokens; K and V may be the same array. cost may be NULL: madds
 * counts both products, scratch_bytes the workspace used. INVENT_ERANGE for
 * a bad shape or environment (attn_env_check), or a workspace smaller than
 * attn_decode_work's. */
int attn_decode(const attn_decode_shape *s, const float *q, const float *K, const float *V,
                float *out, attn_work *work, attn_cost *cost);
/* s -> bytes: the workspace attn_decode needs (the scaled queries, a block
 * of scores per thread, a partial result per chunk of the cache) */
int attn_decode_work(const attn_decode_shape *s, size_t *bytes);

/* s, shared (K == V) -> the bytes one decode step must read at least: the
 * cache once (keys and values, or the one shared array) and the queries */
uint64_t attn_decode_bytes(const attn_decode_shape *s, int shared);

#endif
