#include "adam.h"

#include <math.h>

#include "status.h"

int adam_init(adam *opt, const param_set *ps, double rate)
{
    *opt = (adam){.rate = rate, .beta1 = 0.9, .beta2 = 0.999, .eps = 1e-8};
    if (!(rate > 0.0))
        return INVENT_ERANGE;
    for (size_t k = 0; k < ps->n; k++)
        if (!params_add(&opt->moments, ps->value[k]->size1, ps->value[k]->size2, 0.0, NULL)) {
            adam_free(opt);
            return INVENT_ENOMEM;
        }
    return INVENT_OK;
}

/* one matrix: m, v <- running moments of g; p <- p - rate * mhat / (sqrt(vhat) + eps) */
static void step_matrix(const adam *opt, double fix1, double fix2, gsl_matrix *p,
                        const gsl_matrix *g, gsl_matrix *m, gsl_matrix *v)
{
    for (size_t i = 0; i < p->size1; i++)
        for (size_t j = 0; j < p->size2; j++) {
            double gij = gsl_matrix_get(g, i, j);
            double mij = opt->beta1 * gsl_matrix_get(m, i, j) + (1.0 - opt->beta1) * gij;
            double vij = opt->beta2 * gsl_matrix_get(v, i, j) + (1.0 - opt->beta2) * gij * gij;
            gsl_matrix_set(m, i, j, mij);
            gsl_matrix_set(v, i, j, vij);
            double step = opt->rate * (mij / fix1) / (sqrt(vij / fix2) + opt->eps);
            gsl_matrix_set(p, i, j, gsl_matrix_get(p, i, j) - step);
        }
}

int adam_step(adam *opt, param_set *ps)
{
    if (ps->n != opt->moments.n)
        return INVENT_ESHAPE;
    for (size_t k = 0; k < ps->n; k++)
        if (ps->value[k]->size1 != opt->moments.value[k]->size1 ||
            ps->value[k]->size2 != opt->moments.value[k]->size2)
            return INVENT_ESHAPE;
    opt->steps++;
    double fix1 = 1.0 - pow(opt->beta1, (double)opt->steps);
    double fix2 = 1.0 - pow(opt->beta2, (double)opt->steps);
    for (size_t k = 0; k < ps->n; k++)
        step_matrix(opt, fix1, fix2, ps->value[k], ps->grad[k], opt->moments.value[k],
                    opt->moments.grad[k]);
    return INVENT_OK;
}

void adam_free(adam *opt)
{
    params_free(&opt->moments);
}
