/* Sparse patterns: which (query, key) pairs a sparse kernel scores
 * (attn_sparse.h), written as compressed rows. Key lists name keys one by
 * one (any pattern, e.g. random); block lists name whole key blocks of
 * ATTN_TILE keys for each block of ATTN_TILE queries, the tiles the tiled
 * kernel runs (tile_job.h). Both are causal, and each row lists itself last,
 * so that every query sees at least one key. */
#ifndef INVENT_SPARSE_LISTS_H
#define INVENT_SPARSE_LISTS_H

#include <gsl/gsl_rng.h>
#include <stddef.h>
#include <stdint.h>

#include "attn_kernels.h"

/* The keys of each query: query t scores keys key[start[t] .. start[t+1]),
 * ascending, each <= t, the last one t itself. */
typedef struct {
    size_t T;
    size_t *start; /* (T + 1) */
    uint32_t *key; /* (start[T]) */
} attn_key_list;

/* The key blocks of each query block: query block b (queries
 * b*ATTN_TILE ..) scores key blocks key[start[b] .. start[b+1]), ascending,
 * each <= b, the last one b itself. */
typedef struct {
    size_t blocks; /* ceil(T / ATTN_TILE) */
    size_t *start; /* (blocks + 1) */
    uint32_t *key; /* (start[blocks]) */
} attn_block_list;

/* T, f in (0, 1], r -> list: query t keeps itself and a random choice of
 * round(f t) of its t earlier keys (so a fraction f of the scores, within
 * rounding). Allocates list's arrays (free with attn_key_list_free).
 * INVENT_ERANGE for T = 0, T >= 2^32 or f outside (0, 1]; INVENT_ENOMEM. */
int attn_key_list_random(size_t T, double f, gsl_rng *r, attn_key_list *list);
void attn_key_list_free(attn_key_list *list);

/* T, f in (0, 1], r -> list: query block b keeps its own block and a random
 * choice of round(f b) of its b earlier blocks. Errors as above. */
int attn_block_list_random(size_t T, double f, gsl_rng *r, attn_block_list *list);
void attn_block_list_free(attn_block_list *list);

/* -> INVENT_OK when list fits shape s as described above (sizes, order,
 * causality, each query or block listing itself); INVENT_ERANGE otherwise */
int attn_key_list_check(const attn_shape *s, const attn_key_list *list);
int attn_block_list_check(const attn_shape *s, const attn_block_list *list);

/* list -> the (query, key) pairs it scores (per head) */
uint64_t attn_key_list_pairs(const attn_key_list *list);
/* list, T -> the (query, key) pairs it scores (per head), the causal mask
 * applied inside the diagonal blocks */
uint64_t attn_block_list_pairs(const attn_block_list *list, size_t T);

#endif
