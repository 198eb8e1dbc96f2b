/* The key-list sparse kernel's work item (attn_sparse.h), written once for a
 * vector of VW floats and compiled by each vector path. One item is one
 * query t, all heads: its listed keys are gathered one by one, and for each
 * key row all H heads are scored from the same (contiguous) row, then a
 * softmax per head over the listed keys, then the value rows in the same
 * order. Each score is the raw dot product times the scale's sign; the
 * maximum is subtracted before |scale| log2(e) multiplies, as in
 * tile_body.h, so exact dot products give exact differences.
 *
 * The including file defines vf, VW, vf_max, vf_exp2 (as for tile_body.h),
 * vf_sum(v) (the sum of the lanes) and SPARSE_ITEM, the function's name. */
#include <math.h>
#include <string.h>

#include "sparse_job.h"
#include "status.h"
#include "vec_ops.h"

/* query t -> its out row (all heads) over its listed keys: ctx is a
 * sparse_job */
int SPARSE_ITEM(void *ctx, size_t t, int worker)
{
    const sparse_job *j = ctx;
    const attn_shape *s = j->s;
    size_t ld = s->H * s->dh, first = j->list->start[t], n = j->list->start[t + 1] - first;
    const uint32_t *keys = j->list->key + first;
    float *score = j->scratch + (size_t)worker * j->per_worker; /* (H, n) */
    const float *q = j->Q + t * ld;
    float sign = attn_score_sign(s->scale), *o = j->out + t * ld;
    for (size_t i = 0; i < n; i++) {
        const float *k = j->K + keys[i] * ld;
        for (size_t h = 0; h < s->H; h++)
            score[h * n + i] = sign * vdot(q + h * s->dh, k + h * s->dh, s->dh);
    }
    memset(o, 0, ld * sizeof *o);
    float *sum = score + s->H * n; /* (H) */
    for (size_t h = 0; h < s->H; h++) {
        float m = -INFINITY;
        for (size_t i = 0; i < n; i++)
            m = fmaxf(m, score[h * n + i]);
        sum[h] = vexp2_shifted_scaled(score + h * n, n, m, attn_score_factor(s->scale));
    }
    for (size_t i = 0; i < n; i++) {
        const float *v = j->V + keys[i] * ld;
        for (size_t h = 0; h < s->H; h++)
            vaxpy(o + h * s->dh, score[h * n + i], v + h * s->dh, s->dh);
    }
    for (size_t h = 0; h < s->H; h++)
        vscale(o + h * s->dh, 1.0f / sum[h], s->dh);
    j->madds[worker] += 2 * (uint64_t)n * ld;
    return INVENT_OK;
}
