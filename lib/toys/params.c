#include "params.h"

#include "rng.h"

gsl_matrix *params_add(param_set *ps, size_t rows, size_t cols, double sigma, gsl_rng *r)
{
    if (ps->n == PARAMS_MAX)
        return NULL;
    gsl_matrix *v = gsl_matrix_calloc(rows, cols), *g = gsl_matrix_calloc(rows, cols);
    if (!v || !g) {
        gsl_matrix_free(v);
        gsl_matrix_free(g);
        return NULL;
    }
    if (sigma > 0.0)
        rng_fill_gaussian(v, r, sigma);
    ps->value[ps->n] = v;
    ps->grad[ps->n] = g;
    ps->n++;
    return v;
}

void params_zero_grad(param_set *ps)
{
    for (size_t k = 0; k < ps->n; k++)
        gsl_matrix_set_zero(ps->grad[k]);
}

size_t params_count(const param_set *ps)
{
    size_t total = 0;
    for (size_t k = 0; k < ps->n; k++)
        total += ps->value[k]->size1 * ps->value[k]->size2;
    return total;
}

void params_free(param_set *ps)
{
    for (size_t k = 0; k < ps->n; k++) {
        gsl_matrix_free(ps->value[k]);
        gsl_matrix_free(ps->grad[k]);
    }
    ps->n = 0;
}
