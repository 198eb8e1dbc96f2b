#include "rng.h"

#include <gsl/gsl_randist.h>

/* GSL's mt19937 starts from the low 32 bits of its seed, except that a seed
 * of 0 is replaced by 4357, its default: seed 0 would repeat seed 4357. Seed
 * 2^32 has the same low bits as 0 without the replacement, so it gives seed 0
 * its own stream; every other seed is kept, and with it every stream. */
_Static_assert(sizeof(unsigned long) >= 8, "seed 0 is mapped to 2^32");

gsl_rng *rng_new(unsigned long seed)
{
    gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
    if (r)
        gsl_rng_set(r, seed == 0 ? 1ul << 32 : seed);
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
