/* What the tiled kernel's driver (kernel_tiled.c) hands to a vector path's
 * work items (tile_body.h, tile_blas.c): the problem, the tile sizes chosen
 * for this machine, which key tiles each query panel visits, and every
 * worker's scratch. A work item is one (head, query panel) pair. */
#ifndef INVENT_TILE_JOB_H
#define INVENT_TILE_JOB_H

#include <stddef.h>
#include <stdint.h>

#include "attn_kernels.h"
#include "sparse_lists.h"

typedef struct {
    const attn_shape *s;
    const float *Q, *K, *V;
    float *out;
    const attn_block_list *blocks; /* NULL: every visible key tile (dense) */
    size_t panel;      /* queries per work item: the path's register block, divides ATTN_TILE */
    size_t keys;       /* keys per tile, chosen for the L1 cache, divides ATTN_TILE */
    size_t panels;     /* query panels per head */
    size_t per_worker; /* floats of scratch per worker, a multiple of 16 */
    float *scratch;    /* workers * per_worker floats, 64-byte aligned (the caller's workspace) */
    uint64_t *madds;   /* one counter per worker */
} tile_job;

/* item -> head and first query of its panel: a head's panels one after the
 * other, so that its keys and values stay in the cache from one panel to
 * the next, the heaviest (the last queries, which see the most keys) first */
static inline void tile_item_place(const tile_job *j, size_t item, size_t *h, size_t *t0)
{
    *h = item / j->panels;
    *t0 = (j->panels - 1 - item % j->panels) * j->panel;
}

/* the key range [*lo, *hi) the panel at t0 may need, before any skipping:
 * from the first key its first query sees to its last query */
static inline void tile_panel_keys(const tile_job *j, size_t t0, size_t *lo, size_t *hi)
{
    size_t last = t0 + j->panel < j->s->T ? t0 + j->panel : j->s->T;
    *lo = attn_first_key(j->s, t0);
    *hi = last;
}

/* Q, K, V: (T, H, dh), work (attn_tiled_work's size) -> out: (T, H, dh) by
 * tiles over every visible key tile (blocks NULL, attn_tiled) or over the
 * listed key blocks only (attn_sparse_blocks, which has checked the list) */
int tile_run(const attn_shape *s, const attn_block_list *blocks, const float *Q, const float *K,
             const float *V, float *out, attn_work *work, attn_cost *cost);

#endif
