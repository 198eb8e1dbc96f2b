/* The naive kernel: the attention sum written as the textbook loops. For
 * each head and each query t, compute the visible scores, subtract their
 * maximum, exponentiate, normalise and sum the values. One row of T scores
 * per thread is all it keeps; the heads are shared out between the threads
 * (plain loops over heads, the way a first C version would use two cores). */
#include <math.h>
#include <string.h>

#include "attn_kernels.h"
#include "status.h"
#include "work_cursor.h"
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

/* s -> INVENT_OK and the threads to use (no more than the heads) */
static int naive_workers(const attn_shape *s, int *workers)
{
    char why[160];
    int status = attn_shape_check(s);
    if (status == INVENT_OK)
        status = attn_env_check(why, sizeof why);
    if (status == INVENT_OK)
        status = workers_get(workers);
    if (status == INVENT_OK && (size_t)*workers > s->H)
        *workers = (int)s->H;
    return status;
}

/* c, workers -> j's rows and counters taken from c; 0 when they do not fit */
static int naive_take(naive_job *j, work_cursor *c, int workers)
{
    j->rows = work_take(c, (size_t)workers * j->s->T * sizeof(float));
    j->madds = work_take(c, (size_t)workers * sizeof(uint64_t));
    return j->rows && j->madds;
}

int attn_naive_work(const attn_shape *s, size_t *bytes)
{
    int workers = 1, status = naive_workers(s, &workers);
    naive_job j = {s, NULL, NULL, NULL, NULL, NULL, NULL};
    work_cursor c = {NULL, 0, 0};
    naive_take(&j, &c, workers);
    *bytes = c.used;
    return status;
}

int attn_naive(const attn_shape *s, const float *Q, const float *K, const float *V, float *out,
               attn_work *work, attn_cost *cost)
{
    int workers = 1, status = naive_workers(s, &workers);
    naive_job j = {s, Q, K, V, out, NULL, NULL};
    work_cursor c = work_open(work);
    if (status != INVENT_OK || !naive_take(&j, &c, workers))
        return status != INVENT_OK ? status : INVENT_ERANGE;
    memset(j.madds, 0, (size_t)workers * sizeof *j.madds);
    status = workers_run(s->H, workers, naive_head, &j);
    uint64_t madds = 0;
    for (int w = 0; w < workers; w++)
        madds += j.madds[w];
    if (cost && status == INVENT_OK)
        *cost = (attn_cost){madds, c.used};
    return status;
}
