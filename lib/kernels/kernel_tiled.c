/* The tiled kernel's driver: checks the shape and the environment, chooses
 * the tile sizes for this machine's caches, gives every worker thread its
 * scratch from the caller's workspace and shares the (head, query panel) work items out between the
 * threads. The items themselves are a vector path's (vec_path.h): AVX-512,
 * AVX2 or portable, chosen at run time. */
#include <limits.h>
#include <string.h>

#include "attn_kernels.h"
#include "cpu_caches.h"
#include "status.h"
#include "tile_job.h"
#include "vec_path.h"
#include "work_cursor.h"
#include "workers.h"

/* dh, panel, path -> keys per tile: the most (a divisor of ATTN_TILE, at
 * least 8) whose scores, key and value rows, and the panel's queries and
 * output fit in a quarter of the L2 cache (measured: fewer keys than
 * ATTN_TILE only cost more bookkeeping per score, even where the tiles
 * spill from L1); the portable path's BLAS calls stay at most 2^18
 * multiply-adds, where OpenBLAS does not start threads of its own */
static size_t keys_per_tile(size_t dh, size_t panel, const vec_path *path)
{
    size_t budget = cpu_cache_bytes(2) / 4 / sizeof(float), keys = ATTN_TILE;
    while (keys > 8 && keys * (panel + 2 * dh) + 2 * dh * panel > budget)
        keys /= 2;
    while (path == &vec_path_portable && keys > 1 && keys * panel * dh > (1u << 18))
        keys /= 2;
    return keys;
}

/* the shape and the path -> INVENT_OK when the scratch and the BLAS sizes fit */
static int tile_sizes_fit(const attn_shape *s, const vec_path *path)
{
    if (s->dh > (SIZE_MAX / sizeof(float) - 4 * ATTN_TILE) / (4 * ATTN_TILE))
        return INVENT_ERANGE;
    if (path == &vec_path_portable && s->H * s->dh > (size_t)INT_MAX)
        return INVENT_ERANGE; /* BLAS takes int sizes */
    return INVENT_OK;
}

/* s -> INVENT_OK, j's sizes for this machine and the threads to use */
static int tile_plan(const attn_shape *s, tile_job *j, int *workers, const vec_path **path)
{
    int status = attn_shape_check(s);
    *path = status == INVENT_OK ? vec_path_current(&status) : NULL;
    if (status == INVENT_OK)
        status = workers_get(workers);
    if (status == INVENT_OK)
        status = tile_sizes_fit(s, *path);
    if (status != INVENT_OK)
        return status;
    j->panel = (*path)->panel;
    j->keys = keys_per_tile(s->dh, j->panel, *path);
    j->panels = (s->T + j->panel - 1) / j->panel;
    j->per_worker = ((2 * s->dh + j->keys + 4) * j->panel + j->keys * s->dh + 15) / 16 * 16;
    return s->H > SIZE_MAX / j->panels ? INVENT_ERANGE : INVENT_OK;
}

/* c, workers -> j's scratch and counters taken from c; 0 when they do not fit */
static int tile_take(tile_job *j, work_cursor *c, int workers)
{
    j->scratch = work_take(c, (size_t)workers * j->per_worker * sizeof(float));
    j->madds = work_take(c, (size_t)workers * sizeof(uint64_t));
    return j->scratch && j->madds;
}

int attn_tiled_work(const attn_shape *s, size_t *bytes)
{
    tile_job j = {s, NULL, NULL, NULL, NULL, NULL, 0, 0, 0, 0, NULL, NULL};
    const vec_path *path;
    int workers = 1, status = tile_plan(s, &j, &workers, &path);
    work_cursor c = {NULL, 0, 0};
    if (status == INVENT_OK)
        tile_take(&j, &c, workers);
    *bytes = c.used;
    return status;
}

int tile_run(const attn_shape *s, const attn_block_list *blocks, const float *Q, const float *K,
             const float *V, float *out, attn_work *work, attn_cost *cost)
{
    tile_job j = {s, Q, K, V, out, blocks, 0, 0, 0, 0, NULL, NULL};
    const vec_path *path;
    int workers = 1, status = tile_plan(s, &j, &workers, &path);
    work_cursor c = work_open(work);
    if (status != INVENT_OK || !tile_take(&j, &c, workers))
        return status != INVENT_OK ? status : INVENT_ERANGE;
    memset(j.madds, 0, (size_t)workers * sizeof *j.madds);
    status = workers_run(j.panels * s->H, workers, path->tile_item, &j);
    uint64_t madds = 0;
    for (int w = 0; w < workers; w++)
        madds += j.madds[w];
    if (cost && status == INVENT_OK)
        *cost = (attn_cost){madds, c.used};
    return status;
}

int attn_tiled(const attn_shape *s, const float *Q, const float *K, const float *V, float *out,
               attn_work *work, attn_cost *cost)
{
    return tile_run(s, NULL, Q, K, V, out, work, cost);
}
