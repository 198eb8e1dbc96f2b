/* Sparse attention: each query scores only the keys a pattern lists, not
 * all it may see. The claim to test (Dao et al., 2022, after Child et al.,
 * 2019): computing a fraction f of the scores costs about f of the time.
 * Two patterns, two kernels, one interface beside attn_kernels.h:
 *   key lists    query t lists its keys one by one (any pattern, e.g.
 *                random); the kernel gathers those keys, one score at a time;
 *   block lists  query block b (ATTN_TILE queries) lists whole key blocks
 *                (ATTN_TILE keys each); the kernel runs the tiled kernel's
 *                tiles on the listed blocks only.
 * Both are causal and every head uses the same pattern; a query must list
 * itself (key lists) and a query block its own block (block lists), so that
 * every query sees at least one key. Windows are not supported
 * (s->window must be 0). */
#ifndef INVENT_ATTN_SPARSE_H
#define INVENT_ATTN_SPARSE_H

#include <stddef.h>
#include <stdint.h>

#include "attn_kernels.h"
#include "sparse_lists.h"

/* Q, K, V: (T, H, dh), list, work -> out: (T, H, dh), each query attending
 * to its listed keys only; cost->madds counts the products' multiply-adds.
 * INVENT_ERANGE for a bad shape, window or list, or a workspace smaller
 * than attn_sparse_keys_work's. */
int attn_sparse_keys(const attn_shape *s, const attn_key_list *list, const float *Q,
                     const float *K, const float *V, float *out, attn_work *work,
                     attn_cost *cost);
/* s, list -> bytes: the workspace attn_sparse_keys needs (per thread, the
 * scores of the list's longest row for every head, and a counter) */
int attn_sparse_keys_work(const attn_shape *s, const attn_key_list *list, size_t *bytes);

/* Q, K, V: (T, H, dh), list, work (attn_tiled_work's size) -> out: (T, H, dh),
 * by tiles over the listed blocks only (the causal mask inside diagonal
 * blocks). Errors as above. */
int attn_sparse_blocks(const attn_shape *s, const attn_block_list *list, const float *Q,
                       const float *K, const float *V, float *out, attn_work *work,
                       attn_cost *cost);

#endif
