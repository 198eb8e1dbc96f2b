#include "adamw.h"

#include <math.h>
#include <stdlib.h>

#include "status.h"

int adamw_init(adamw *opt, const tensor_ref *t, size_t count, double weight_decay)
{
    *opt = (adamw){.beta1 = 0.9, .beta2 = 0.95, .eps = 1e-8, .weight_decay = weight_decay,
                   .count = count};
    if (!(weight_decay >= 0.0))
        return INVENT_ERANGE;
    opt->m = calloc(count, sizeof *opt->m);
    opt->v = calloc(count, sizeof *opt->v);
    if (!opt->m || !opt->v) {
        adamw_free(opt);
        return INVENT_ENOMEM;
    }
    for (size_t k = 0; k < count; k++) {
        opt->m[k] = calloc(t[k].size, sizeof(double));
        opt->v[k] = calloc(t[k].size, sizeof(double));
        if (!opt->m[k] || !opt->v[k]) {
            adamw_free(opt);
            return INVENT_ENOMEM;
        }
    }
    return INVENT_OK;
}

/* one tensor: the decay, the moments, the step, in PyTorch's order of operations */
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

int adamw_step(adamw *opt, tensor_ref *t, size_t count, double rate)
{
    if (count != opt->count)
        return INVENT_ESHAPE;
    if (!(rate >= 0.0))
        return INVENT_ERANGE;
    opt->steps++;
    double fix1 = 1.0 - pow(opt->beta1, (double)opt->steps);
    double fix2 = 1.0 - pow(opt->beta2, (double)opt->steps);
    for (size_t k = 0; k < count; k++)
        step_tensor(opt, rate, fix1, fix2, &t[k], opt->m[k], opt->v[k]);
    return INVENT_OK;
}

void adamw_free(adamw *opt)
{
    for (size_t k = 0; k < opt->count; k++) {
        if (opt->m)
            free(opt->m[k]);
        if (opt->v)
            free(opt->v[k]);
    }
    free(opt->m);
    free(opt->v);
    opt->m = opt->v = NULL;
}

double grad_norm(const tensor_ref *t, size_t count)
{
    double sum = 0.0;
    for (size_t k = 0; k < count; k++)
        for (size_t i = 0; i < t[k].size; i++)
            sum += t[k].grad[i] * t[k].grad[i];
    return sqrt(sum);
}

double grad_clip(tensor_ref *t, size_t count, double max_norm)
{
    double norm = grad_norm(t, count);
    double scale = max_norm / (norm + 1e-6);
    if (scale < 1.0)
        for (size_t k = 0; k < count; k++)
            for (size_t i = 0; i < t[k].size; i++)
                t[k].grad[i] *= scale;
    return norm;
}
