/* Mutant: adds one to opt->steps before checking the shapes. Expect: a refused step changed opt->steps */
#include <math.h>

#include "exercises.h"

int ex12b_adam_step(adam *opt, param_set *ps)
{
    opt->steps++;
    if (ps->n != opt->moments.n)
        return INVENT_ESHAPE;
    for (size_t k = 0; k < ps->n; k++)
        if (ps->value[k]->size1 != opt->moments.value[k]->size1 ||
            ps->value[k]->size2 != opt->moments.value[k]->size2)
            return INVENT_ESHAPE;
    double fix1 = 1.0 - pow(opt->beta1, (double)opt->steps);
    double fix2 = 1.0 - pow(opt->beta2, (double)opt->steps);
    for (size_t k = 0; k < ps->n; k++)
        for (size_t i = 0; i < ps->value[k]->size1; i++)
            for (size_t j = 0; j < ps->value[k]->size2; j++) {
                double g = gsl_matrix_get(ps->grad[k], i, j);
                double *m = gsl_matrix_ptr(opt->moments.value[k], i, j);
                double *v = gsl_matrix_ptr(opt->moments.grad[k], i, j);
                *m = opt->beta1 * *m + (1.0 - opt->beta1) * g;
                *v = opt->beta2 * *v + (1.0 - opt->beta2) * g * g;
                *gsl_matrix_ptr(ps->value[k], i, j) -=
                    opt->rate * (*m / fix1) / (sqrt(*v / fix2) + opt->eps);
            }
    return INVENT_OK;
}
