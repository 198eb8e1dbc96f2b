#include "adamw.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "status.h"
#include "workers.h"

int adamw_init(adamw *opt, const tensor_ref *t, size_t count, double weight_decay)
{
    *opt = (adamw){.beta1 = 0.9, .beta2 = 0.95, .eps = 1e-8, .weight_decay = weight_decay,
                   .count = count};
    if (!(weight_decay >= 0.0))
        return INVENT_ERANGE;
    for (size_t k = 0; k < count; k++)
        if ((t[k].value32 != NULL) != (t[0].value32 != NULL))
            return INVENT_ERANGE;
    opt->total = tensors_numbers(t, count);
    size_t n = opt->total ? opt->total : 1;
    if (count && t[0].value32) {
        opt->m32 = calloc(n, sizeof(float));
        opt->v32 = calloc(n, sizeof(float));
    } else {
        opt->m = calloc(n, sizeof(double));
        opt->v = calloc(n, sizeof(double));
    }
    if (!(opt->m && opt->v) && !(opt->m32 && opt->v32)) {
        adamw_free(opt);
        return INVENT_ENOMEM;
    }
    return INVENT_OK;
}

/* one float64 tensor: the decay, the moments, the step, in PyTorch's order of operations */
static void step_tensor(const adamw *opt, double rate, double fix1, double fix2,
                        tensor_ref *t, double *m, double *v)
{
    double shrink = t->decay ? 1.0 - rate * opt->weight_decay : 1.0;
    double step_size = rate / fix1, root2 = sqrt(fix2);
    for (size_t i = 0; i < t->size; i++) {
        double g = t->grad[i];
        m[i] = opt->beta1 * m[i] + (1.0 - opt->beta1) * g;
        v[i] = opt->beta2 * v[i] + (1.0 - opt->beta2) * g * g;
        double denom = sqrt(v[i]) / root2 + opt->eps;
        t->value[i] = t->value[i] * shrink - step_size * (m[i] / denom);
    }
}

/* the same for floats 0 .. n-1 of a float32 tensor, in float32 (as PyTorch's float32 AdamW
 * computes it); written to vectorise (adamw.o is built with -fno-math-errno) */
static void step_span32(const adamw *opt, double rate, double fix1, double fix2, int decay,
                        size_t n, float *restrict p, const float *restrict g,
                        float *restrict m, float *restrict v)
{
    float shrink = (float)(decay ? 1.0 - rate * opt->weight_decay : 1.0);
    float step_size = (float)(rate / fix1), root2 = (float)sqrt(fix2);
    float b1 = (float)opt->beta1, b2 = (float)opt->beta2, eps = (float)opt->eps;
    for (size_t i = 0; i < n; i++) {
        m[i] = b1 * m[i] + (1.0f - b1) * g[i];
        v[i] = b2 * v[i] + (1.0f - b2) * g[i] * g[i];
        float denom = sqrtf(v[i]) / root2 + eps;
        p[i] = p[i] * shrink - step_size * (m[i] / denom);
    }
}

/* floats per work item of the float32 step: fixed, though each float's step is its own */
#define ADAMW_CHUNK 16384

/* One float32 step shared out between the workers, by spans of the tensors end to end. */
typedef struct {
    const adamw *opt;
    tensor_ref *t;
    double rate, fix1, fix2;
} step32_job;

/* floats item*ADAMW_CHUNK .. +ADAMW_CHUNK of the tensors end to end -> stepped */
static int step32_item(void *ctx, size_t item, int worker)
{
    const step32_job *j = ctx;
    size_t lo = item * ADAMW_CHUNK, hi = lo + ADAMW_CHUNK;
    (void)worker;
    for (size_t k = 0, at = 0; k < j->opt->count && at < hi; at += j->t[k].size, k++) {
        size_t a = lo > at ? lo - at : 0, end = at + j->t[k].size;
        size_t b = (hi < end ? hi : end) - at;
        if (a < b)
            step_span32(j->opt, j->rate, j->fix1, j->fix2, j->t[k].decay, b - a,
                        j->t[k].value32 + a, j->t[k].grad32 + a, j->opt->m32 + at + a,
                        j->opt->v32 + at + a);
    }
    return 0;
}

int adamw_step(adamw *opt, tensor_ref *t, size_t count, double rate)
{
    if (count != opt->count)
        return INVENT_ESHAPE;
    if (!(rate >= 0.0))
        return INVENT_ERANGE;
    opt->steps++;
    double fix1 = 1.0 - pow(opt->beta1, (double)opt->steps);
    double fix2 = 1.0 - pow(opt->beta2, (double)opt->steps);
    if (opt->m32) {
        step32_job j = {opt, t, rate, fix1, fix2};
        return workers_run((opt->total + ADAMW_CHUNK - 1) / ADAMW_CHUNK, workers_count(),
                           step32_item, &j);
    }
    for (size_t k = 0, at = 0; k < count; at += t[k].size, k++)
        step_tensor(opt, rate, fix1, fix2, &t[k], opt->m + at, opt->v + at);
    return INVENT_OK;
}

void adamw_free(adamw *opt)
{
    free(opt->m);
    free(opt->v);
    free(opt->m32);
    free(opt->v32);
    opt->m = opt->v = NULL;
    opt->m32 = opt->v32 = NULL;
}

void grad_zero(tensor_ref *t, size_t count)
{
    for (size_t k = 0; k < count; k++)
        if (t[k].grad32)
            memset(t[k].grad32, 0, t[k].size * sizeof(float));
        else
            memset(t[k].grad, 0, t[k].size * sizeof(double));
}

/* t: one tensor -> the sum of its gradients' squares, in double, four running sums */
static double tensor_square_sum(const tensor_ref *t)
{
    double part[4] = {0.0, 0.0, 0.0, 0.0};
    size_t i = 0;
    for (; t->grad32 && i + 4 <= t->size; i += 4)
        for (size_t r = 0; r < 4; r++)
            part[r] += (double)t->grad32[i + r] * (double)t->grad32[i + r];
    for (; i < t->size; i++) {
        double g = t->grad32 ? (double)t->grad32[i] : t->grad[i];
        part[i % 4] += g * g;
    }
    return (part[0] + part[1]) + (part[2] + part[3]);
}

/* the squares' sums of the tensors, one a work item, into sums[k] */
typedef struct {
    const tensor_ref *t;
    double *sums;
} norm_job;

static int norm_item(void *ctx, size_t item, int worker)
{
    const norm_job *j = ctx;
    (void)worker;
    j->sums[item] = tensor_square_sum(&j->t[item]);
    return 0;
}

double grad_norm(const tensor_ref *t, size_t count)
{
    double sums[count ? count : 1], sum = 0.0;
    norm_job j = {t, sums};
    workers_run(count, workers_count(), norm_item, &j);
    for (size_t k = 0; k < count; k++) /* in tensor order, whatever the threads */
        sum += sums[k];
    return sqrt(sum);
}

double grad_clip(tensor_ref *t, size_t count, double max_norm)
{
    double norm = grad_norm(t, count);
    double scale = max_norm / (norm + 1e-6);
    for (size_t k = 0; scale < 1.0 && k < count; k++)
        for (size_t i = 0; i < t[k].size; i++) {
            if (t[k].grad32)
                t[k].grad32[i] *= (float)scale;
            else
                t[k].grad[i] *= scale;
        }
    return norm;
}
