/* The training attention's driver: checks the shape and the environment,
 * and shares the (sequence, head) items out between the workers on the
 * vector path in use (attn_train_body.h). */
#include <math.h>

#include "attn_train.h"
#include "attn_train_job.h"
#include "status.h"
#include "vec_path.h"
#include "workers.h"

size_t attn_train_dk(const attn_train_shape *s)
{
    return s->dk ? s->dk : s->dh;
}

size_t attn_train_width(const attn_train_shape *s)
{
    return s->H * (2 * attn_train_dk(s) + s->dh);
}

size_t attn_train_scratch(const attn_train_shape *s, int workers)
{
    size_t per_worker = attn_train_per_worker(s->T, attn_train_dk(s), s->dh);
    return (size_t)(workers > 0 ? workers : 1) * per_worker;
}

/* s, workers -> the job's common part, or INVENT_ERANGE */
static int job_open(const attn_train_shape *s, int workers, float *scratch, attn_train_job *j,
                    const vec_path **path)
{
    int status = INVENT_OK;
    *path = vec_path_current(&status);
    if (!*path)
        return status;
    if (s->B == 0 || s->T == 0 || s->H == 0 || s->dh == 0 || workers < 1 || !(s->scale >= 0.0f) ||
        !isfinite(s->scale))
        return INVENT_ERANGE;
    size_t dk = attn_train_dk(s);
    *j = (attn_train_job){.s = s,
                          .per_worker = attn_train_per_worker(s->T, dk, s->dh), .scratch = scratch,
                          .dk = dk, .width = attn_train_width(s),
                          .scale = s->scale > 0.0f ? s->scale : 1.0f / sqrtf((float)dk)};
    return INVENT_OK;
}

int attn_train_forward(const attn_train_shape *s, const float *qkv, float *out, float *lse,
                       float *scratch, int workers)
{
    attn_train_job j;
    const vec_path *path;
    int status = job_open(s, workers, scratch, &j, &path);
    if (status != INVENT_OK)
        return status;
    j.qkv = qkv, j.o = out, j.l = lse;
    return workers_run(s->B * s->H, workers, path->train_forward_item, &j);
}

int attn_train_backward(const attn_train_shape *s, const float *qkv, const float *out,
                        const float *lse, const float *dout, float *dqkv, float *scratch,
                        int workers)
{
    attn_train_job j;
    const vec_path *path;
    int status = job_open(s, workers, scratch, &j, &path);
    if (status != INVENT_OK)
        return status;
    j.qkv = qkv, j.out = out, j.lse = lse, j.dout = dout, j.dqkv = dqkv;
    return workers_run(s->B * s->H, workers, path->train_backward_item, &j);
}
