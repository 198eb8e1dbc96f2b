/* The two sparse kernels' drivers (their patterns: sparse_lists.c).
 * The block-list kernel is the tiled kernel run over the listed blocks
 * (tile_run); the key-list kernel's items are a vector path's
 * (sparse_body.h). */
#include "attn_sparse.h"

#include <stdlib.h>

#include "sparse_job.h"
#include "status.h"
#include "tile_job.h"
#include "vec_path.h"
#include "workers.h"

int attn_sparse_blocks(const attn_shape *s, const attn_block_list *list, const float *Q,
                       const float *K, const float *V, float *out, attn_cost *cost)
{
    int status = attn_block_list_check(s, list);
    return status == INVENT_OK ? tile_run(s, list, Q, K, V, out, cost) : status;
}

/* the list's longest row -> INVENT_OK and the scratch a worker needs */
static int sparse_scratch(const attn_shape *s, const attn_key_list *list, size_t *per_worker)
{
    size_t longest = 0;
    for (size_t t = 0; t < list->T; t++)
        if (list->start[t + 1] - list->start[t] > longest)
            longest = list->start[t + 1] - list->start[t];
    if (s->H > SIZE_MAX / sizeof(float) / (longest + 1))
        return INVENT_ERANGE;
    *per_worker = s->H * (longest + 1);
    return INVENT_OK;
}

int attn_sparse_keys(const attn_shape *s, const attn_key_list *list, const float *Q,
                     const float *K, const float *V, float *out, attn_cost *cost)
{
    int status = attn_key_list_check(s, list), workers = 1;
    const vec_path *path = status == INVENT_OK ? vec_path_current(&status) : NULL;
    if (status == INVENT_OK)
        status = workers_get(&workers);
    sparse_job j = {s, list, Q, K, V, out, 0, NULL, NULL};
    if (status == INVENT_OK)
        status = sparse_scratch(s, list, &j.per_worker);
    if (status != INVENT_OK)
        return status;
    j.scratch = malloc((size_t)workers * j.per_worker * sizeof *j.scratch);
    j.madds = calloc((size_t)workers, sizeof *j.madds);
    status = j.scratch && j.madds ? workers_run(s->T, workers, path->sparse_item, &j)
                                  : INVENT_ENOMEM;
    uint64_t madds = 0;
    for (int w = 0; j.madds && w < workers; w++)
        madds += j.madds[w];
    free(j.scratch);
    free(j.madds);
    if (cost && status == INVENT_OK)
        *cost = (attn_cost){madds, (uint64_t)workers * j.per_worker * sizeof(float)};
    return status;
}
