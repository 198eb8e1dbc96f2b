/* Mutant: steps by m / (sqrt(v) + eps), without dividing by 1 - beta^t. Expect: the step without the bias correction */
#include <math.h>

#include "exercises.h"

int ex12b_adam_step(adam *opt, param_set *ps)
{
    if (ps->n != opt->moments.n)
        return INVENT_ESHAPE;
    for (size_t k = 0; k < ps->n; k++)
        if (ps->value[k]->size1 != opt->moments.value[k]->size1 ||
            ps->value[k]->size2 != opt->moments.value[k]->size2)
            return INVENT_ESHAPE;
    opt->steps++;
    double fix1 = 1.0, fix2 = 1.0;
    for (size_t k = 0; k < ps->n; k++) {
        gsl_matrix *p = ps->value[k], *g = ps->grad[k];
        gsl_matrix *m = opt->moments.value[k], *v = opt->moments.grad[k];
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
    return INVENT_OK;
}
