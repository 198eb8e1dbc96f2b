/* The decode kernel's driver: checks, its buffers from the caller's
 * workspace, the queries times the scale's sign,
 * the cache cut into chunks (a few per worker, so that every core streams
 * its own part of memory), the chunks' items run by a vector path
 * (decode_body.h), and their partial results merged per head. */
#include "attn_decode.h"

#include <math.h>
#include <string.h>

#include "decode_job.h"
#include "status.h"
#include "vec_path.h"
#include "work_cursor.h"
#include "workers.h"

int attn_decode_check(const attn_decode_shape *s)
{
    if (s->T == 0 || s->H == 0 || s->Hkv == 0 || s->dh == 0 || s->H % s->Hkv ||
        !isfinite(s->scale))
        return INVENT_ERANGE;
    size_t limit = (size_t)PTRDIFF_MAX / sizeof(float) / 4;
    if (s->H > limit / (s->dh + 2) || s->T > limit / (s->Hkv * s->dh))
        return INVENT_ERANGE;
    return INVENT_OK;
}

uint64_t attn_decode_bytes(const attn_decode_shape *s, int shared)
{
    uint64_t cache = (uint64_t)s->T * s->Hkv * s->dh * sizeof(float);
    return (shared ? cache : 2 * cache) + (uint64_t)s->H * s->dh * sizeof(float);
}

/* T, workers -> tokens per chunk: about sixteen chunks per worker, whole
 * blocks (a worker that starts late then leaves little work waiting) */
static size_t chunk_tokens(size_t T, int workers)
{
    size_t per = (T + 16 * (size_t)workers - 1) / (16 * (size_t)workers);
    return (per + DECODE_BLOCK - 1) / DECODE_BLOCK * DECODE_BLOCK;
}

/* partial: items x (m (H), l (H), acc (H, dh)) -> out: (H, dh), the chunks'
 * online-softmax states merged head by head; m are raw maxima, their
 * differences scaled by |scale| log2(e) only after the subtraction */
static void merge_partials(const attn_decode_shape *s, const float *partial, size_t items,
                           float *out)
{
    size_t stride = s->H * (s->dh + 2);
    float f = attn_score_factor(s->scale);
    for (size_t h = 0; h < s->H; h++) {
        float m = -INFINITY, l = 0.0f, *o = out + h * s->dh;
        for (size_t c = 0; c < items; c++)
            m = fmaxf(m, partial[c * stride + h]);
        memset(o, 0, s->dh * sizeof *o);
        for (size_t c = 0; c < items; c++) {
            const float *p = partial + c * stride;
            float w = exp2f(f * (p[h] - m));
            l += w * p[s->H + h];
            for (size_t d = 0; d < s->dh; d++)
                o[d] += w * p[2 * s->H + h * s->dh + d];
        }
        for (size_t d = 0; d < s->dh; d++)
            o[d] /= l;
    }
}

/* s -> INVENT_OK, the vector path, the threads, and j's chunks and their count */
static int decode_plan(const attn_decode_shape *s, decode_job *j, int *workers,
                       const vec_path **path, size_t *items)
{
    char why[160];
    int status = attn_decode_check(s);
    if (status == INVENT_OK)
        status = attn_env_check(why, sizeof why);
    *path = status == INVENT_OK ? vec_path_current(&status) : NULL;
    if (status == INVENT_OK)
        status = workers_get(workers);
    if (status != INVENT_OK)
        return status;
    j->chunk = chunk_tokens(s->T, *workers);
    *items = (s->T + j->chunk - 1) / j->chunk;
    return INVENT_OK;
}

/* c, workers, items -> j's buffers taken from c; 0 when they do not fit */
static int decode_take(decode_job *j, work_cursor *c, int workers, size_t items)
{
    const attn_decode_shape *s = j->s;
    j->q = work_take(c, s->H * s->dh * sizeof(float));
    j->scores = work_take(c, (size_t)workers * s->H * DECODE_BLOCK * sizeof(float));
    j->partial = work_take(c, items * s->H * (s->dh + 2) * sizeof(float));
    j->madds = work_take(c, (size_t)workers * sizeof(uint64_t));
    return j->q && j->scores && j->partial && j->madds;
}

int attn_decode_work(const attn_decode_shape *s, size_t *bytes)
{
    decode_job j = {s, NULL, NULL, NULL, 0, NULL, NULL, NULL};
    const vec_path *path;
    size_t items = 0;
    int workers = 1, status = decode_plan(s, &j, &workers, &path, &items);
    work_cursor c = {NULL, 0, 0};
    if (status == INVENT_OK)
        decode_take(&j, &c, workers, items);
    *bytes = c.used;
    return status;
}

int attn_decode(const attn_decode_shape *s, const float *q, const float *K, const float *V,
                float *out, attn_work *work, attn_cost *cost)
{
    decode_job j = {s, NULL, K, V, 0, NULL, NULL, NULL};
    const vec_path *path;
    size_t items = 0;
    int workers = 1, status = decode_plan(s, &j, &workers, &path, &items);
    work_cursor c = work_open(work);
    if (status != INVENT_OK || !decode_take(&j, &c, workers, items))
        return status != INVENT_OK ? status : INVENT_ERANGE;
    float *qs = (float *)j.q, sign = attn_score_sign(s->scale);
    for (size_t i = 0; i < s->H * s->dh; i++)
        qs[i] = q[i] * sign;
    memset(j.madds, 0, (size_t)workers * sizeof *j.madds);
    status = workers_run(items, workers, path->decode_item, &j);
    if (status == INVENT_OK)
        merge_partials(s, j.partial, items, out);
    uint64_t madds = 0;
    for (int w = 0; w < workers; w++)
        madds += j.madds[w];
    if (cost && status == INVENT_OK)
        *cost = (attn_cost){madds, c.used};
    return status;
}
