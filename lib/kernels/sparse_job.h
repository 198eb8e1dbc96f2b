/* What the key-list sparse kernel's driver (attn_sparse.c) hands to a
 * vector path's work items (sparse_body.h): one item per query. */
#ifndef INVENT_SPARSE_JOB_H
#define INVENT_SPARSE_JOB_H

#include <stddef.h>
#include <stdint.h>

#include "attn_kernels.h"
#include "sparse_lists.h"

typedef struct {
    const attn_shape *s;
    const attn_key_list *list;
    const float *Q, *K, *V;
    float *out;
    size_t per_worker; /* floats of scratch per worker: H (longest list + 1) */
    float *scratch;
    uint64_t *madds;   /* one counter per worker */
} sparse_job;

#endif
