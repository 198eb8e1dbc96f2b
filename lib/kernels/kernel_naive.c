/* The naive kernel: the attention sum written as the textbook loops. For
 * each head and each query t, compute the visible scores, subtract their
 * maximum, exponentiate, normalise and sum the values. One row of T scores
 * per thread is all it keeps; the heads are shared out between the threads
 * (plain loops over heads, the way a first C version would use two cores). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "attn_kernels.h"
#include "status.h"
#include "workers.h"

/* row: (T) scratch -> out row (t, h): (dh); returns the madds done */
static uint64_t attend_query(const attn_shape *s, const float *Q, const float *K,
                             const float *V, float *out, size_t t, size_t h, float *row)
{
    size_t ld = s->H * s->dh, lo = attn_first_key(s, t);
    const float *q = Q + t * ld + h * s->dh;
    float max = -INFINITY;
    for (size_t i = lo; i <= t; i++) {
        const float *k = K + i * ld + h * s->dh;
        float dot = 0.0f;
        for (size_t j = 0; j < s->dh; j++)
            dot += q[j] * k[j];
        row[i] = s->scale * dot;
        max = fmaxf(max, row[i]);
    }
    float sum = 0.0f;
    for (size_t i = lo; i <= t; i++) {
        row[i] = expf(row[i] - max);
        sum += row[i];
    }
    float *o = out + t * ld + h * s->dh;
    memset(o, 0, s->dh * sizeof *o);
    for (size_t i = lo; i <= t; i++) {
        const float *v = V + i * ld + h * s->dh;
        for (size_t j = 0; j < s->dh; j++)
            o[j] += row[i] * v[j];
    }
    for (size_t j = 0; j < s->dh; j++)
        o[j] /= sum;
    return 2 * (uint64_t)(t + 1 - lo) * s->dh;
}

typedef struct {
    const attn_shape *s;
    const float *Q, *K, *V;
    float *out;
    float *rows;     /* one row of T scores per worker */
    uint64_t *madds; /* one counter per worker */
} naive_job;

/* one head, every query */
static int naive_head(void *ctx, size_t h, int worker)
{
    naive_job *j = ctx;
    float *row = j->rows + (size_t)worker * j->s->T;
    for (size_t t = 0; t < j->s->T; t++)
        j->madds[worker] += attend_query(j->s, j->Q, j->K, j->V, j->out, t, h, row);
    return INVENT_OK;
}

int attn_naive(const attn_shape *s, const float *Q, const float *K, const float *V, float *out,
               attn_cost *cost)
{
    char why[160];
    int status = attn_shape_check(s), workers = 1;
    if (status == INVENT_OK)
        status = attn_env_check(why, sizeof why);
    if (status == INVENT_OK)
        status = workers_get(&workers);
    if (status != INVENT_OK)
        return status;
    if ((size_t)workers > s->H)
        workers = (int)s->H;
    naive_job j = {s, Q, K, V, out, calloc((size_t)workers * s->T, sizeof(float)),
                   calloc((size_t)workers, sizeof(uint64_t))};
    status = j.rows && j.madds ? workers_run(s->H, workers, naive_head, &j) : INVENT_ENOMEM;
    uint64_t madds = 0;
    for (int w = 0; j.madds && w < workers; w++)
        madds += j.madds[w];
    free(j.rows);
    free(j.madds);
    if (cost && status == INVENT_OK)
        *cost = (attn_cost){madds, (uint64_t)workers * s->T * sizeof(float)};
    return status;
}
