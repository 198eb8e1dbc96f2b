#include "rng.h"

#include <gsl/gsl_randist.h>

gsl_rng *rng_new(unsigned long seed)
{
    gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
    if (r)
        gsl_rng_set(r, seed);
    return r;
}

void rng_fill_gaussian(gsl_matrix *m, gsl_rng *r, double sigma)
{
    for (size_t i = 0; i < m->size1; i++)
        for (size_t j = 0; j < m->size2; j++)
            gsl_matrix_set(m, i, j, gsl_ran_gaussian(r, sigma));
}

void rng_fill_uniform(gsl_matrix *m, gsl_rng *r, double lo, double hi)
{
    for (size_t i = 0; i < m->size1; i++)
        for (size_t j = 0; j < m->size2; j++)
            gsl_matrix_set(m, i, j, lo + (hi - lo) * gsl_rng_uniform(r));
}
