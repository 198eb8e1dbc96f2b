/* The key-list sparse kernel's work item (attn_sparse.h), written once for a
 * vector of VW floats and compiled by each vector path. One item is one
 * query t, all heads: its listed keys are gathered one by one, and for each
 * key row all H heads are scored from the same (contiguous) row, then a
 * softmax per head over the listed keys, then the value rows in the same
 * order. Scores come out in base-2 units, as in tile_body.h.
 *
 * The including file defines vf, VW, vf_max, vf_exp2 (as for tile_body.h),
 * vf_sum(v) (the sum of the lanes) and SPARSE_ITEM, the function's name. */
#include <math.h>
#include <string.h>

#include "sparse_job.h"
#include "status.h"

#define SINLINE static inline __attribute__((always_inline))

SINLINE vf sload(const float *p)
{
    vf v;
    memcpy(&v, p, sizeof v);
    return v;
}

SINLINE void sstore(float *p, vf v) { memcpy(p, &v, sizeof v); }

/* q, k: (dh) -> q . k, the vector part then the tail */
SINLINE float dot(const float *q, const float *k, size_t dh)
{
    vf acc = {0};
    size_t d = 0;
    for (; d + VW <= dh; d += VW)
        acc += sload(q + d) * sload(k + d);
    float sum = vf_sum(acc);
    for (; d < dh; d++)
        sum += q[d] * k[d];
    return sum;
}

/* o: (dh) += w v */
SINLINE void axpy(float *o, float w, const float *v, size_t dh)
{
    size_t d = 0;
    for (; d + VW <= dh; d += VW)
        sstore(o + d, sload(o + d) + w * sload(v + d));
    for (; d < dh; d++)
        o[d] += w * v[d];
}

/* s: (n) base-2 scores -> 2^(s - max s) in place; -> their sum */
SINLINE float softmax_row(float *s, size_t n)
{
    float m = -INFINITY;
    for (size_t i = 0; i < n; i++)
        m = fmaxf(m, s[i]);
    float sum = 0.0f;
    size_t i = 0;
    for (; i + VW <= n; i += VW) {
        vf e = vf_exp2(sload(s + i) - m);
        sstore(s + i, e);
        sum += vf_sum(e);
    }
    for (; i < n; i++) {
        s[i] = exp2f(s[i] - m);
        sum += s[i];
    }
    return sum;
}

int SPARSE_ITEM(void *ctx, size_t t, int worker)
{
    const sparse_job *j = ctx;
    const attn_shape *s = j->s;
    size_t ld = s->H * s->dh, first = j->list->start[t], n = j->list->start[t + 1] - first;
    const uint32_t *keys = j->list->key + first;
    float *score = j->scratch + (size_t)worker * j->per_worker; /* (H, n) */
    const float *q = j->Q + t * ld;
    float factor = s->scale * 1.44269504088896341f, *o = j->out + t * ld;
    for (size_t i = 0; i < n; i++) {
        const float *k = j->K + keys[i] * ld;
        for (size_t h = 0; h < s->H; h++)
            score[h * n + i] = factor * dot(q + h * s->dh, k + h * s->dh, s->dh);
    }
    memset(o, 0, ld * sizeof *o);
    float *sum = score + s->H * n; /* (H) */
    for (size_t h = 0; h < s->H; h++)
        sum[h] = softmax_row(score + h * n, n);
    for (size_t i = 0; i < n; i++) {
        const float *v = j->V + keys[i] * ld;
        for (size_t h = 0; h < s->H; h++)
            axpy(o + h * s->dh, score[h * n + i], v + h * s->dh, s->dh);
    }
    for (size_t h = 0; h < s->H; h++)
        for (size_t d = 0; d < s->dh; d++)
            o[h * s->dh + d] /= sum[h];
    j->madds[worker] += 2 * (uint64_t)n * ld;
    return INVENT_OK;
}
