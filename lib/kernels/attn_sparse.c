/* The two sparse kernels' drivers (their patterns: sparse_lists.c).
 * The block-list kernel is the tiled kernel run over the listed blocks
 * (tile_run); the key-list kernel's items are a vector path's
 * (sparse_body.h). */
#include "attn_sparse.h"

#include <string.h>

#include "sparse_job.h"
#include "status.h"
#include "tile_job.h"
#include "vec_path.h"
#include "work_cursor.h"
#include "workers.h"

int attn_sparse_blocks(const attn_shape *s, const attn_block_list *list, const float *Q,
                       const float *K, const float *V, float *out, attn_work *work,
                       attn_cost *cost)
{
    int status = attn_block_list_check(s, list);
    return status == INVENT_OK ? tile_run(s, list, Q, K, V, out, work, cost) : status;
}

/* s, list -> INVENT_OK, the threads, the vector path and the scratch a
 * worker needs (H times the list's longest row plus one) */
static int sparse_plan(const attn_shape *s, const attn_key_list *list, sparse_job *j,
                       int *workers, const vec_path **path)
{
    int status = attn_key_list_check(s, list);
    *path = status == INVENT_OK ? vec_path_current(&status) : NULL;
    if (status == INVENT_OK)
        status = workers_get(workers);
    if (status != INVENT_OK)
        return status;
    size_t longest = 0;
    for (size_t t = 0; t < list->T; t++)
        if (list->start[t + 1] - list->start[t] > longest)
            longest = list->start[t + 1] - list->start[t];
    if (s->H > SIZE_MAX / sizeof(float) / (longest + 1) / (size_t)*workers)
        return INVENT_ERANGE;
    j->per_worker = s->H * (longest + 1);
    return INVENT_OK;
}

/* c, workers -> j's scratch and counters taken from c; 0 when they do not fit */
static int sparse_take(sparse_job *j, work_cursor *c, int workers)
{
    j->scratch = work_take(c, (size_t)workers * j->per_worker * sizeof(float));
    j->madds = work_take(c, (size_t)workers * sizeof(uint64_t));
    return j->scratch && j->madds;
}

int attn_sparse_keys_work(const attn_shape *s, const attn_key_list *list, size_t *bytes)
{
    sparse_job j = {s, list, NULL, NULL, NULL, NULL, 0, NULL, NULL};
    const vec_path *path;
    int workers = 1, status = sparse_plan(s, list, &j, &workers, &path);
    work_cursor c = {NULL, 0, 0};
    if (status == INVENT_OK)
        sparse_take(&j, &c, workers);
    *bytes = c.used;
    return status;
}

int attn_sparse_keys(const attn_shape *s, const attn_key_list *list, const float *Q,
                     const float *K, const float *V, float *out, attn_work *work,
                     attn_cost *cost)
{
    sparse_job j = {s, list, Q, K, V, out, 0, NULL, NULL};
    const vec_path *path;
    int workers = 1, status = sparse_plan(s, list, &j, &workers, &path);
    work_cursor c = work_open(work);
    if (status != INVENT_OK || !sparse_take(&j, &c, workers))
        return status != INVENT_OK ? status : INVENT_ERANGE;
    memset(j.madds, 0, (size_t)workers * sizeof *j.madds);
    status = workers_run(s->T, workers, path->sparse_item, &j);
    uint64_t madds = 0;
    for (int w = 0; w < workers; w++)
        madds += j.madds[w];
    if (cost && status == INVENT_OK)
        *cost = (attn_cost){madds, c.used};
    return status;
}
